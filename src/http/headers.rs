//! Security headers on every response.

use salvo::http::header::{self, HeaderValue};
use salvo::prelude::*;

/// Scripts, styles and everything else come from our own origin only; the
/// app never needs inline code, so none is allowed.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; worker-src 'self' blob:; \
font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

#[handler]
pub async fn security_headers(req: &mut Request, depot: &mut Depot, res: &mut Response, ctrl: &mut FlowCtrl) {
    ctrl.call_next(req, depot, res).await;
    let api = req.uri().path().starts_with("/api/");
    let headers = res.headers_mut();
    if api {
        // API answers are personal: no shared or browser cache keeps them,
        // unless a handler says otherwise (profile pictures do).
        headers.entry(header::CACHE_CONTROL).or_insert(HeaderValue::from_static("no-store"));
    }
    let fixed: [(header::HeaderName, &'static str); 6] = [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "same-origin"),
        (header::HeaderName::from_static("cross-origin-opener-policy"), "same-origin"),
        (header::HeaderName::from_static("permissions-policy"), "microphone=(self), camera=(self), geolocation=()"),
    ];
    for (name, value) in fixed {
        // A handler may set a stricter policy of its own (the email preview does).
        headers.entry(name).or_insert(HeaderValue::from_static(value));
    }
}

/// HTTPS only from now on, for a year: added where the certificate is one
/// the browsers already trust.
#[handler]
pub async fn strict_transport(req: &mut Request, depot: &mut Depot, res: &mut Response, ctrl: &mut FlowCtrl) {
    ctrl.call_next(req, depot, res).await;
    res.headers_mut().insert(header::STRICT_TRANSPORT_SECURITY, HeaderValue::from_static("max-age=31536000"));
}

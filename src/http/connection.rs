//! Error answers to requests that carried a body close their connection.

use salvo::http::header::{self, HeaderValue};
use salvo::prelude::*;

/// A refusal often comes before the body is read (a cross-site write, a full
/// disk, an upload over its limit), and then the connection cannot carry
/// another request: the server drops it with the unread bytes. Saying so with
/// `Connection: close` keeps a client from sending its next call on a
/// connection that is about to vanish. Success answers read their bodies, so
/// they keep the connection alive.
#[handler]
pub async fn close_after_refused_body(req: &mut Request, depot: &mut Depot, res: &mut Response, ctrl: &mut FlowCtrl) {
    let had_body = req.headers().contains_key(header::TRANSFER_ENCODING)
        || req.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).is_some_and(|v| v.trim() != "0");
    ctrl.call_next(req, depot, res).await;
    let refused = res.status_code.is_some_and(|s| s.is_client_error() || s.is_server_error());
    if had_body && refused {
        res.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
}

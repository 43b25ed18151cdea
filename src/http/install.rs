//! What the "Install on this phone" page shows: the address a phone should
//! open, as text and as a QR code, and the local authority to trust when the
//! server uses one. Public: the page is read before signing in.

use salvo::http::header::{self, HeaderValue};
use salvo::prelude::*;
use serde::Serialize;

use super::ca::read_ca;
use super::error::{AppError, AppResult};
use super::state::state;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InstallInfo {
    /// `None` when the server listens on this machine only.
    phone_url: Option<String>,
    /// The local authority's name; `None` with `--tls-cert` or `--http`,
    /// where the phone has nothing to install.
    local_ca: Option<String>,
}

/// `GET /api/install`
#[handler]
pub async fn info(depot: &mut Depot) -> AppResult<Json<InstallInfo>> {
    let state = state(depot)?;
    let local_ca = match state.ca_cert {
        Some(_) => Some(read_ca(state).await?.name),
        None => None,
    };
    Ok(Json(InstallInfo { phone_url: state.phone_url.clone(), local_ca }))
}

/// `GET /api/install/qr.svg`: the phone address as a QR code.
#[handler]
pub async fn qr(depot: &mut Depot, res: &mut Response) -> AppResult<()> {
    let state = state(depot)?;
    let url =
        state.phone_url.as_deref().ok_or_else(|| AppError::not_found("This server listens on this machine only"))?;
    let svg = crate::lan::qr_svg(url).ok_or_else(|| AppError::internal(format!("{url} does not fit a QR code")))?;
    let headers = res.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("image/svg+xml"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    let _ = res.write_body(svg.into_bytes());
    Ok(())
}

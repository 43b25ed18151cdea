//! The local certificate authority, offered for download so that phones can
//! trust the server. Only the certificate: its key never leaves the data
//! directory.

use salvo::http::header::{self, HeaderValue};
use salvo::prelude::*;

use super::ca_profile::ios_profile;
use super::error::{AppError, AppResult};
use super::state::{AppState, state};

/// `GET /ca.crt`: DER, the form Android's certificate installer opens (and
/// iOS too, though the profile below names it better).
#[handler]
pub async fn ca_der(depot: &mut Depot, res: &mut Response) -> AppResult<()> {
    let authority = read_ca(state(depot)?).await?;
    send(res, "application/x-x509-ca-cert", "debrief-ca.crt", authority.der);
    Ok(())
}

/// `GET /ca.pem`: the same certificate as PEM, for desktops and tools.
#[handler]
pub async fn ca_pem(depot: &mut Depot, res: &mut Response) -> AppResult<()> {
    let authority = read_ca(state(depot)?).await?;
    send(res, "application/x-pem-file", "debrief-ca.pem", authority.pem.into_bytes());
    Ok(())
}

/// `GET /ca.mobileconfig`: the certificate in a configuration profile, the
/// one form an iPhone installs a root certificate from.
#[handler]
pub async fn ca_mobileconfig(depot: &mut Depot, res: &mut Response) -> AppResult<()> {
    let authority = read_ca(state(depot)?).await?;
    let profile = ios_profile(&authority.der, &authority.name);
    send(res, "application/x-apple-aspen-config", "debrief-ca.mobileconfig", profile.into_bytes());
    Ok(())
}

pub(super) struct Authority {
    pub pem: String,
    pub der: Vec<u8>,
    /// Its subject's common name, as phones list it among trusted certificates.
    pub name: String,
}

pub(super) async fn read_ca(state: &AppState) -> AppResult<Authority> {
    let path = state
        .ca_cert
        .clone()
        .ok_or_else(|| AppError::not_found("This server does not use a local certificate authority"))?;
    let pem = tokio::fs::read_to_string(&path)
        .await
        .map_err(|e| AppError::internal(format!("reading {}: {e}", path.display())))?;
    let (_, block) = x509_parser::pem::parse_x509_pem(pem.as_bytes()).map_err(AppError::internal)?;
    let cert = block.parse_x509().map_err(AppError::internal)?;
    let name = cert
        .subject()
        .iter_common_name()
        .next()
        .and_then(|cn| cn.as_str().ok())
        .unwrap_or("Debrief local CA")
        .to_owned();
    Ok(Authority { der: block.contents.clone(), pem, name })
}

fn send(res: &mut Response, content_type: &'static str, file_name: &str, body: Vec<u8>) {
    let headers = res.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{file_name}\"")) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    let _ = res.write_body(body);
}

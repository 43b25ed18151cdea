//! The local certificate authority, offered for download so that phones can
//! trust the server. Only the certificate: its key never leaves the data
//! directory.

use salvo::http::header::{self, HeaderValue};
use salvo::prelude::*;

use super::state::state;
use super::error::{AppError, AppResult};

/// `GET /ca.crt`: DER, the form Android's certificate installer and iOS's
/// profile download both open.
#[handler]
pub async fn ca_der(depot: &mut Depot, res: &mut Response) -> AppResult<()> {
    let pem = read_ca(depot).await?;
    let (_, parsed) = x509_parser::pem::parse_x509_pem(pem.as_bytes()).map_err(AppError::internal)?;
    send(res, "application/x-x509-ca-cert", "debrief-ca.crt", parsed.contents);
    Ok(())
}

/// `GET /ca.pem`: the same certificate as PEM, for desktops and tools.
#[handler]
pub async fn ca_pem(depot: &mut Depot, res: &mut Response) -> AppResult<()> {
    let pem = read_ca(depot).await?;
    send(res, "application/x-pem-file", "debrief-ca.pem", pem.into_bytes());
    Ok(())
}

async fn read_ca(depot: &Depot) -> AppResult<String> {
    let state = state(depot)?;
    let path = state.ca_cert.clone().ok_or_else(|| AppError::not_found("This server does not use a local certificate authority"))?;
    tokio::fs::read_to_string(&path).await.map_err(|e| AppError::internal(format!("reading {}: {e}", path.display())))
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

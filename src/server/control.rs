//! What the running server answers on the control socket.

use std::time::{Duration, Instant};

use crate::control::{ControlHandler, Request, Response, ServerStatus};
use crate::lan::Urls;
use crate::store::Store;

pub(super) struct ControlSource {
    store: Store,
    public_url: String,
    reset_ttl: Duration,
    url: String,
    lan_urls: Vec<String>,
    tls: String,
    started: Instant,
}

impl ControlSource {
    pub(super) fn new(store: Store, urls: &Urls, tls: String, public_url: String, reset_ttl: Duration) -> Self {
        Self { store, public_url, reset_ttl, url: urls.local.clone(), lan_urls: urls.lan.clone(), tls, started: Instant::now() }
    }
}

impl ControlHandler for ControlSource {
    async fn handle(&self, request: Request) -> Response {
        match request {
            Request::Status => match self.store.run(|s| s.schema_version()).await {
                Ok(schema_version) => Response::Status(ServerStatus {
                    pid: std::process::id(),
                    version: env!("CARGO_PKG_VERSION").to_owned(),
                    url: self.url.clone(),
                    lan_urls: self.lan_urls.clone(),
                    tls: self.tls.clone(),
                    schema_version,
                    uptime_secs: self.started.elapsed().as_secs(),
                }),
                Err(e) => Response::Error { message: e.to_string() },
            },
            Request::ResetLink { email } => {
                let (base, ttl) = (self.public_url.clone(), self.reset_ttl);
                match self.store.run(move |s| crate::ops::reset_link(s, &email, &base, ttl)).await {
                    Ok(found) => Response::ResetLink { link: found.map(|(_, link)| link) },
                    Err(e) => Response::Error { message: e.to_string() },
                }
            }
        }
    }
}

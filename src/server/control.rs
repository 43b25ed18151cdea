//! What the running server answers on the control socket.

use std::time::Instant;

use crate::control::{ControlHandler, Request, Response, ServerStatus};
use crate::lan::Urls;
use crate::store::Store;

pub(super) struct StatusSource {
    store: Store,
    url: String,
    lan_urls: Vec<String>,
    tls: String,
    started: Instant,
}

impl StatusSource {
    pub(super) fn new(store: Store, urls: &Urls, tls: String) -> Self {
        Self { store, url: urls.local.clone(), lan_urls: urls.lan.clone(), tls, started: Instant::now() }
    }
}

impl ControlHandler for StatusSource {
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
        }
    }
}

//! What the running server answers on the control socket: its status, and
//! every other request through the same operations the CLI runs itself
//! when no server is running.

use std::time::Instant;

use crate::control::Context;
use crate::control::{ControlHandler, Request, Response, ServerStatus};
use crate::jobs::Jobs;
use crate::lan::Urls;
use crate::mail::Sender;
use crate::store::Store;

pub(super) struct ControlSource {
    store: Store,
    jobs: Jobs,
    context: std::sync::Arc<Context>,
    url: String,
    lan_urls: Vec<String>,
    tls: String,
    sender: Sender,
    started: Instant,
}

impl ControlSource {
    pub(super) fn new(store: Store, jobs: Jobs, urls: &Urls, tls: String, sender: Sender, context: Context) -> Self {
        Self {
            store,
            jobs,
            context: std::sync::Arc::new(context),
            url: urls.local.clone(),
            lan_urls: urls.lan.clone(),
            tls,
            sender,
            started: Instant::now(),
        }
    }
}

impl ControlHandler for ControlSource {
    async fn handle(&self, request: Request) -> Response {
        if let Request::Status = request {
            return match self.store.run(|s| s.schema_version()).await {
                Ok(schema_version) => Response::Status(ServerStatus {
                    pid: std::process::id(),
                    version: env!("CARGO_PKG_VERSION").to_owned(),
                    url: self.url.clone(),
                    lan_urls: self.lan_urls.clone(),
                    tls: self.tls.clone(),
                    schema_version,
                    uptime_secs: self.started.elapsed().as_secs(),
                    mail_from: self.sender.address.clone(),
                    mail_warning: self.sender.warning.clone(),
                }),
                Err(e) => Response::Error { message: e.to_string() },
            };
        }
        if let Request::ModelsChanged = request {
            let jobs = self.jobs.clone();
            return match tokio::task::spawn_blocking(move || jobs.models_changed()).await {
                Ok(Ok(requeued)) => Response::Done {
                    message: format!("the server uses the installed models now ({requeued} waiting jobs resumed)"),
                },
                Ok(Err(e)) => Response::Error { message: e.to_string() },
                Err(e) => Response::Error { message: e.to_string() },
            };
        }
        let queues_work = matches!(request, Request::JobRetry { .. } | Request::JobRetranscribe { .. });
        let context = self.context.clone();
        // Operations hash passwords and write: off the async executor.
        let answer = self.store.run(move |s| Ok(crate::control::answer(s, &context, request))).await;
        let answer = answer.unwrap_or_else(|e| Response::Error { message: e.to_string() });
        if queues_work && !matches!(answer, Response::Error { .. }) {
            self.jobs.nudge();
        }
        answer
    }
}

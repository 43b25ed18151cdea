//! `GET /api/clients/{id}/events`: the job's progress and results as
//! server-sent events, so the client page updates without a reload.
//!
//! `job` carries the job as `GET /api/clients/{id}` shows it, first on
//! connect and then on every change; `client` carries the whole client when
//! results were written. The stream ends when the server shuts down; the
//! browser's EventSource reconnects by itself.

use std::collections::VecDeque;
use std::convert::Infallible;

use salvo::prelude::*;
use salvo::sse::{SseEvent, SseKeepAlive};
use tokio::sync::broadcast::error::RecvError;

use super::clients::{client_id, not_found_as_client};
use super::error::AppResult;
use super::session::signed_in;
use super::state::{AppState, state};
use crate::domain::client::Client;
use crate::domain::ids::{ClientId, UserId};
use crate::jobs::JobEvent;

#[handler]
pub async fn events(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<()> {
    let state = state(depot)?.clone();
    let owner = signed_in(depot)?.user.id;
    let id = client_id(req)?;
    // Subscribed before the first read, so no change falls in between.
    let receiver = state.jobs.subscribe();
    let closing = state.jobs.closing();
    state.store.run(move |s| s.client(owner, id)).await.map_err(not_found_as_client)?;
    let first = current_job(&state, owner, id).await?;
    let watch = Watch { state, owner, id, receiver, closing, queued: VecDeque::from([first]) };
    let stream = futures_util::stream::unfold(watch, |mut watch| async move {
        let event = watch.next().await?;
        Some((Ok::<_, Infallible>(event), watch))
    });
    res.headers_mut().insert("x-accel-buffering", salvo::http::HeaderValue::from_static("no"));
    SseKeepAlive::new(stream).stream(res);
    Ok(())
}

struct Watch {
    state: AppState,
    owner: UserId,
    id: ClientId,
    receiver: tokio::sync::broadcast::Receiver<JobEvent>,
    closing: tokio::sync::watch::Receiver<bool>,
    queued: VecDeque<SseEvent>,
}

impl Watch {
    async fn next(&mut self) -> Option<SseEvent> {
        loop {
            if let Some(event) = self.queued.pop_front() {
                return Some(event);
            }
            let received = tokio::select! {
                received = self.receiver.recv() => received,
                _ = self.closing.wait_for(|closing| *closing) => return None,
            };
            match received {
                Ok(event) if event.client() == self.id => self.queue(event),
                Ok(_) => {}
                // Fell behind: what counts is the state now.
                Err(RecvError::Lagged(_)) => {
                    self.queued.push_back(current_job(&self.state, self.owner, self.id).await.ok()?)
                }
                Err(RecvError::Closed) => return None,
            }
        }
    }

    fn queue(&mut self, event: JobEvent) {
        match event {
            JobEvent::Changed { job, progress } => self.queued.push_back(job_event(Some(job.view(progress)))),
            JobEvent::Saved { client, job } => {
                let view = job.view(100);
                let client = Client::from(&client).with_job(Some(view.clone()));
                self.queued.push_back(SseEvent::default().name("client").json(client).unwrap_or_default());
                self.queued.push_back(job_event(Some(view)));
            }
        }
    }
}

async fn current_job(state: &AppState, owner: UserId, id: ClientId) -> AppResult<SseEvent> {
    let job = state.store.run(move |s| s.job(owner, id)).await?;
    Ok(job_event(job.map(|j| j.view(state.jobs.progress(id)))))
}

fn job_event(job: Option<crate::domain::job::JobView>) -> SseEvent {
    // Serialising these plain structs cannot fail.
    SseEvent::default().name("job").json(job).unwrap_or_default()
}

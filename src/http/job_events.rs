//! `GET /api/clients/{id}/events`: the job's progress and results as
//! server-sent events, so the client page updates without a reload.
//!
//! `job` carries the job as `GET /api/clients/{id}` shows it, first on
//! connect and then on every change; `client` carries the whole client when
//! results were written. The stream ends when the server shuts down or
//! within [`SESSION_CHECK`] of its session ending (a sign-out, a password
//! change elsewhere); the browser's EventSource reconnects by itself, and a
//! reconnect without a session is refused.

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use salvo::prelude::*;
use salvo::sse::{SseEvent, SseKeepAlive};
use tokio::sync::broadcast::error::RecvError;

use super::client_route::ClientRoute;
use super::error::{AppError, AppResult};
use crate::clock::now_ms;
use crate::domain::ids::TokenHash;
use crate::domain::job::{JobStatus, JobView};
use crate::jobs::JobEvent;

/// How often an open stream asks whether its session still lives.
const SESSION_CHECK: Duration = Duration::from_millis(500);

/// Event streams one session may hold open at once. A phone shows one
/// client page at a time and a laptop a few tabs; without a cap one session
/// held 10,000 streams and 280 MB. Past it the new stream is refused (429):
/// refusing keeps the pages already open live, where closing the oldest
/// would silence a page someone may be watching.
pub const STREAMS_PER_SESSION: usize = 8;

/// The event streams open, by session.
#[derive(Default)]
pub struct OpenStreams(Mutex<HashMap<TokenHash, usize>>);

impl OpenStreams {
    /// Counts a stream for `session` while the guard lives, if under the cap.
    fn open(self: &Arc<Self>, session: &TokenHash) -> Option<StreamCount> {
        let mut open = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let count = open.entry(*session).or_default();
        if *count >= STREAMS_PER_SESSION {
            return None;
        }
        *count += 1;
        Some(StreamCount { streams: self.clone(), session: *session })
    }
}

/// One open stream, counted until it ends.
struct StreamCount {
    streams: Arc<OpenStreams>,
    session: TokenHash,
}

impl Drop for StreamCount {
    fn drop(&mut self) {
        let mut open = self.streams.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = open.get_mut(&self.session) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.session);
            }
        }
    }
}

#[handler]
pub async fn events(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<()> {
    let route = ClientRoute::of(req, depot)?;
    let counted = route.state.open_streams.open(&route.me.token).ok_or_else(|| {
        AppError::too_many(format!(
            "Too many live pages for this sign-in ({STREAMS_PER_SESSION} at most): close some and reload this one"
        ))
    })?;
    // Subscribed before the first read, so no change falls in between.
    let receiver = route.state.jobs.subscribe();
    let closing = route.state.jobs.closing();
    route.run(|mine, id| mine.client(id)).await?;
    let first = current_job(&route).await?;
    let mut session_check = tokio::time::interval(SESSION_CHECK);
    session_check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut watch =
        Watch { route, receiver, closing, session_check, queued: VecDeque::new(), shown: None, _counted: counted };
    watch.push_job(first);
    let stream = futures_util::stream::unfold(watch, |mut watch| async move {
        let event = watch.next().await?;
        Some((Ok::<_, Infallible>(event), watch))
    });
    res.headers_mut().insert("x-accel-buffering", salvo::http::HeaderValue::from_static("no"));
    SseKeepAlive::new(stream).stream(res);
    // The events carry the client's data: no cache keeps them (the stream
    // helper says only `no-cache`).
    res.headers_mut().insert(salvo::http::header::CACHE_CONTROL, salvo::http::HeaderValue::from_static("no-store"));
    Ok(())
}

struct Watch {
    route: ClientRoute,
    receiver: tokio::sync::broadcast::Receiver<JobEvent>,
    closing: tokio::sync::watch::Receiver<bool>,
    session_check: tokio::time::Interval,
    queued: VecDeque<SseEvent>,
    /// The stage and progress last sent: the changes queued while the first
    /// state was read can be older than it, and a bar never goes back.
    shown: Option<(JobStatus, u8)>,
    _counted: StreamCount,
}

impl Watch {
    async fn next(&mut self) -> Option<SseEvent> {
        loop {
            if let Some(event) = self.queued.pop_front() {
                return Some(event);
            }
            let received = tokio::select! {
                received = self.receiver.recv() => Some(received),
                _ = self.closing.wait_for(|closing| *closing) => return None,
                _ = self.session_check.tick() => None,
            };
            let Some(received) = received else {
                if self.session_ended() {
                    return None;
                }
                continue;
            };
            match received {
                Ok(event) if event.client() == self.route.id => self.queue(event),
                Ok(_) => {}
                // Fell behind: what counts is the state now.
                Err(RecvError::Lagged(_)) => {
                    let now = current_job(&self.route).await.ok()?;
                    self.push_job(now);
                }
                Err(RecvError::Closed) => return None,
            }
        }
    }

    /// The session is gone or its lookup fails: either way the stream stops.
    fn session_ended(&self) -> bool {
        !matches!(self.route.state.store.session(&self.route.me.token, now_ms()), Ok(Some(_)))
    }

    fn queue(&mut self, event: JobEvent) {
        match event {
            JobEvent::Changed { job, progress } => self.push_job(Some(job.view(progress))),
            JobEvent::Saved { client, job } => {
                let view = job.view(100);
                let client = client.view().with_job(Some(view.clone()));
                self.queued.push_back(SseEvent::default().name("client").json(client).unwrap_or_default());
                self.push_job(Some(view));
            }
        }
    }

    /// Queues the job's state, unless it is the stage already shown at a
    /// lower percentage (a change that was on its way before the first read).
    fn push_job(&mut self, job: Option<JobView>) {
        if let (Some(view), Some((status, progress))) = (&job, self.shown)
            && view.status == status
            && view.progress < progress
        {
            return;
        }
        self.shown = job.as_ref().map(|view| (view.status, view.progress));
        self.queued.push_back(job_event(job));
    }
}

async fn current_job(route: &ClientRoute) -> AppResult<Option<JobView>> {
    let job = route.run(|mine, id| mine.job(id)).await?;
    Ok(job.map(|j| j.view(route.state.jobs.progress(route.id))))
}

fn job_event(job: Option<JobView>) -> SseEvent {
    // Serialising these plain structs cannot fail.
    SseEvent::default().name("job").json(job).unwrap_or_default()
}

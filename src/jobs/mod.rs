//! Turns recordings into transcripts, summaries and next steps on worker
//! threads of their own (never the async executor: the engines keep cores
//! busy for minutes). The queue is the database's `jobs` table, so a restart
//! resumes where the last run stopped; progress and results are broadcast
//! to the pages that watch them.

mod engines;
mod events;
mod stages;
mod worker;

use std::collections::HashSet;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

use anyhow::Context as _;

pub use engines::EngineChoice;
pub use events::JobEvent;

use crate::clock::now_ms;
use crate::domain::ids::ClientId;
use crate::store::{Store, StoreResult};
use events::Live;

/// The handle the server keeps; cheap to clone.
#[derive(Clone)]
pub struct Jobs {
    shared: Arc<Shared>,
}

struct Shared {
    store: Store,
    engines: EngineChoice,
    live: Live,
    /// Clients whose job a worker is running now.
    busy: Mutex<HashSet<ClientId>>,
    /// Set when there may be work; workers sleep on it.
    wake: (Mutex<Wake>, Condvar),
    /// Turns true when the server shuts down, ending the event streams.
    closing: tokio::sync::watch::Sender<bool>,
}

#[derive(Default)]
struct Wake {
    pending: bool,
    stopping: bool,
}

/// The worker threads; stopping waits for the jobs they run to reach a
/// point where they can stop.
pub struct Workers {
    jobs: Jobs,
    threads: Vec<JoinHandle<()>>,
}

impl Jobs {
    /// Queues again what the last run left running, and what waited for a
    /// model (one may have come while the server was stopped, or another
    /// `--models-dir` been given), and starts `count` worker threads.
    pub fn start(store: Store, engines: EngineChoice, count: usize) -> anyhow::Result<(Jobs, Workers)> {
        let now = now_ms();
        let resumed = store.as_worker().requeue_interrupted_jobs(now).context("cannot read the job queue")?;
        if resumed > 0 {
            tracing::info!(resumed, "resuming jobs the last run did not finish");
        }
        let waiting = store.as_worker().requeue_waiting_jobs(now).context("cannot read the job queue")?;
        if waiting > 0 {
            tracing::info!(waiting, "jobs waiting for a model try again");
        }
        let jobs = Jobs {
            shared: Arc::new(Shared {
                store,
                engines,
                live: Live::default(),
                busy: Mutex::default(),
                wake: (Mutex::new(Wake { pending: true, stopping: false }), Condvar::new()),
                closing: tokio::sync::watch::channel(false).0,
            }),
        };
        let mut workers = Workers { jobs: jobs.clone(), threads: Vec::new() };
        for n in 0..count.max(1) {
            let worker_jobs = jobs.clone();
            let thread =
                std::thread::Builder::new().name(format!("job-worker-{n}")).spawn(move || worker::run(&worker_jobs));
            match thread {
                Ok(thread) => workers.threads.push(thread),
                Err(e) => {
                    // Stops the workers already started before giving up.
                    workers.stop(std::time::Duration::ZERO);
                    return Err(anyhow::anyhow!("cannot start a job worker thread: {e}"));
                }
            }
        }
        Ok((jobs, workers))
    }

    /// There may be new work (a job queued, retried, or a model installed).
    pub fn nudge(&self) {
        let (lock, condvar) = &self.shared.wake;
        lock.lock().unwrap_or_else(|e| e.into_inner()).pending = true;
        condvar.notify_all();
    }

    /// Jobs waiting for a model try again (after an install or import).
    pub fn models_changed(&self) -> StoreResult<usize> {
        let requeued = self.shared.store.as_worker().requeue_waiting_jobs(now_ms())?;
        self.nudge();
        Ok(requeued)
    }

    /// Progress and results, as they happen.
    pub fn subscribe(&self) -> tokio::sync::broadcast::Receiver<JobEvent> {
        self.shared.live.subscribe()
    }

    /// The running stage's progress of a client's job (0 when none runs).
    pub fn progress(&self, client: ClientId) -> u8 {
        self.shared.live.progress(client)
    }

    /// Becomes true when the server shuts down.
    pub fn closing(&self) -> tokio::sync::watch::Receiver<bool> {
        self.shared.closing.subscribe()
    }

    /// Ends every event stream, so a graceful shutdown need not wait for
    /// pages that watch a job.
    pub fn close_streams(&self) {
        self.shared.closing.send_replace(true);
    }

    /// Tells a job's watchers that its record changed outside the workers
    /// (queued again by a retry, for example).
    pub fn announce(&self, job: &crate::domain::job::JobRecord) {
        self.shared.live.changed(job.clone(), 0);
    }
}

impl Workers {
    /// Asks the workers to stop and gives them `grace` to finish the stage
    /// they run. A stage still running then is put back in the queue without
    /// counting the attempt (a shutdown is not the job's fault); the process
    /// ends and the next start resumes it.
    pub fn stop(self, grace: std::time::Duration) {
        let shared = &self.jobs.shared;
        {
            let (lock, condvar) = &shared.wake;
            lock.lock().unwrap_or_else(|e| e.into_inner()).stopping = true;
            condvar.notify_all();
        }
        let deadline = std::time::Instant::now() + grace;
        while self.threads.iter().any(|t| !t.is_finished()) && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let running: Vec<ClientId> = shared.busy.lock().unwrap_or_else(|e| e.into_inner()).iter().copied().collect();
        if !running.is_empty() {
            match shared.store.as_worker().release_jobs(&running, now_ms()) {
                Ok(()) => tracing::info!(jobs = running.len(), "stopped during a job; it resumes at the next start"),
                Err(e) => tracing::error!(error = %e, "cannot put the running jobs back in the queue"),
            }
        }
    }
}

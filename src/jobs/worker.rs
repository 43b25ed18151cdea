//! One worker thread: sleep until there is work, claim a job, run it.

use std::time::Duration;

use super::{Jobs, Shared, engines, stages};
use crate::clock::now_ms;

/// How often a sleeping worker looks whether a model was installed by hand
/// (copied into the models folder rather than installed through debrief).
const MODEL_POLL: Duration = Duration::from_secs(10);

pub(super) fn run(jobs: &Jobs) {
    let shared = &*jobs.shared;
    let mut loaded = engines::Loaded::default();
    let mut installed = engines::fingerprint(&shared.engines.models);
    while wait_for_work(shared, &mut installed) {
        while let Some(job) = claim(shared) {
            let client = job.client;
            stages::run(shared, &mut loaded, job);
            shared.busy.lock().unwrap_or_else(|e| e.into_inner()).remove(&client);
            if stopping(shared) {
                return;
            }
        }
    }
}

/// Takes the next job, holding the busy set so two workers never take the same.
fn claim(shared: &Shared) -> Option<crate::domain::job::JobRecord> {
    let mut busy = shared.busy.lock().unwrap_or_else(|e| e.into_inner());
    let claim = match shared.store.as_worker().claim_job(&busy, now_ms()) {
        Ok(claim) => claim,
        Err(e) => {
            tracing::error!(error = %e, "cannot read the job queue");
            return None;
        }
    };
    for job in claim.given_up {
        tracing::warn!(client = %job.client, "a job was interrupted too often and stops");
        shared.live.changed(job, 0);
    }
    let job = claim.job?;
    busy.insert(job.client);
    shared.live.changed(job.clone(), 0);
    Some(job)
}

/// Sleeps until nudged; false when the server stops.
fn wait_for_work(shared: &Shared, installed: &mut String) -> bool {
    let (lock, condvar) = &shared.wake;
    let mut wake = lock.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        if wake.stopping {
            return false;
        }
        if wake.pending {
            wake.pending = false;
            return true;
        }
        let (guard, timeout) = condvar.wait_timeout(wake, MODEL_POLL).unwrap_or_else(|e| e.into_inner());
        wake = guard;
        if timeout.timed_out() {
            let now = engines::fingerprint(&shared.engines.models);
            if now != *installed {
                *installed = now;
                match shared.store.as_worker().requeue_waiting_jobs(now_ms()) {
                    Ok(0) => {}
                    Ok(requeued) => {
                        tracing::info!(requeued, "models changed: jobs waiting for one try again");
                        wake.pending = true;
                    }
                    Err(e) => tracing::error!(error = %e, "cannot requeue the jobs waiting for a model"),
                }
            }
        }
    }
}

fn stopping(shared: &Shared) -> bool {
    shared.wake.0.lock().unwrap_or_else(|e| e.into_inner()).stopping
}

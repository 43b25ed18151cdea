//! Live state of running jobs: the progress of each (kept in memory only:
//! it changes many times a second and is worthless after a restart) and a
//! broadcast of every change for the pages that watch.

use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::broadcast;

use crate::domain::client::ClientWithSteps;
use crate::domain::ids::ClientId;
use crate::domain::job::JobRecord;

#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant, reason = "a few events per job; boxing would save nothing that matters")]
pub enum JobEvent {
    /// The job's state or progress changed.
    Changed { job: JobRecord, progress: u8 },
    /// Results were written to the client: transcript, summary, next steps.
    Saved { client: ClientWithSteps, job: JobRecord },
}

impl JobEvent {
    pub fn client(&self) -> ClientId {
        match self {
            JobEvent::Changed { job, .. } | JobEvent::Saved { job, .. } => job.client,
        }
    }
}

pub(super) struct Live {
    progress: Mutex<HashMap<ClientId, u8>>,
    events: broadcast::Sender<JobEvent>,
}

impl Default for Live {
    fn default() -> Self {
        // Watchers that fall this far behind re-read the job from the store.
        Self { progress: Mutex::default(), events: broadcast::channel(256).0 }
    }
}

impl Live {
    pub(super) fn subscribe(&self) -> broadcast::Receiver<JobEvent> {
        self.events.subscribe()
    }

    pub(super) fn progress(&self, client: ClientId) -> u8 {
        self.progress.lock().unwrap_or_else(|e| e.into_inner()).get(&client).copied().unwrap_or(0)
    }

    /// Records the running stage's progress; tells watchers only when the
    /// whole percentage changes.
    pub(super) fn report(&self, job: &JobRecord, percent: u8) {
        let percent = percent.min(100);
        let changed = {
            let mut map = self.progress.lock().unwrap_or_else(|e| e.into_inner());
            let previous = map.insert(job.client, percent);
            previous != Some(percent)
        };
        if changed {
            let _ = self.events.send(JobEvent::Changed { job: job.clone(), progress: percent });
        }
    }

    /// A new state of the job: its progress starts again from 0.
    pub(super) fn changed(&self, job: JobRecord, progress: u8) {
        self.progress.lock().unwrap_or_else(|e| e.into_inner()).insert(job.client, progress);
        let _ = self.events.send(JobEvent::Changed { job, progress });
    }

    pub(super) fn saved(&self, client: ClientWithSteps, job: JobRecord) {
        self.progress.lock().unwrap_or_else(|e| e.into_inner()).remove(&job.client);
        let _ = self.events.send(JobEvent::Saved { client, job });
    }
}

//! The processing of a client's recording: transcribe, then summarise. One
//! job per client; it lives in the database so a restart resumes it.

use serde::{Deserialize, Serialize};

use super::ids::{ClientId, UserId};
use super::user::iso_time;

/// A stage that was cut off this many times other than by a clean shutdown
/// (the process was killed, or died: a recording that takes the server down
/// would otherwise take it down at every start) is not run again: it fails
/// with a reason. Two: once may be a power cut, twice is the recording.
pub const MAX_ATTEMPTS: u32 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    Transcribe,
    Summarise,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JobState {
    Queued,
    Running,
    /// The engine or model the stage needs is not installed; the job
    /// continues once it is.
    WaitingForModel,
    Done,
    Failed,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobRecord {
    pub client: ClientId,
    pub owner: UserId,
    pub stage: Stage,
    pub state: JobState,
    /// Times the current stage was started.
    pub attempts: u32,
    /// Why it failed, or what it waits for: text a user can act on.
    pub error: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// What the browser and the CLI show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JobStatus {
    Queued,
    Transcribing,
    Summarising,
    WaitingForModel,
    Done,
    Failed,
}

impl JobStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            JobStatus::Queued => "queued",
            JobStatus::Transcribing => "transcribing",
            JobStatus::Summarising => "summarising",
            JobStatus::WaitingForModel => "waiting_for_model",
            JobStatus::Done => "done",
            JobStatus::Failed => "failed",
        }
    }
}

impl JobRecord {
    /// A fresh job for a newly attached recording.
    pub fn new(client: ClientId, owner: UserId, now: i64) -> Self {
        Self {
            client,
            owner,
            stage: Stage::Transcribe,
            state: JobState::Queued,
            attempts: 0,
            error: None,
            created_at: now,
            updated_at: now,
        }
    }

    pub fn status(&self) -> JobStatus {
        match (self.state, self.stage) {
            (JobState::Queued, _) => JobStatus::Queued,
            (JobState::Running, Stage::Transcribe) => JobStatus::Transcribing,
            (JobState::Running, Stage::Summarise) => JobStatus::Summarising,
            (JobState::WaitingForModel, _) => JobStatus::WaitingForModel,
            (JobState::Done, _) => JobStatus::Done,
            (JobState::Failed, _) => JobStatus::Failed,
        }
    }

    /// Still to finish: queued, running or waiting for a model.
    pub fn is_active(&self) -> bool {
        matches!(self.state, JobState::Queued | JobState::Running | JobState::WaitingForModel)
    }

    pub fn view(&self, progress: u8) -> JobView {
        let progress = match self.state {
            JobState::Running => progress.min(100),
            JobState::Done => 100,
            _ => 0,
        };
        JobView { status: self.status(), progress, error: self.error.clone(), updated_at: iso_time(self.updated_at) }
    }
}

/// A job as the browser sees it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobView {
    pub status: JobStatus,
    /// 0–100 within the running stage.
    pub progress: u8,
    pub error: Option<String>,
    pub updated_at: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_running_job_reports_its_stage_and_a_waiting_one_no_progress() {
        let mut job = JobRecord::new(ClientId::from_key(1), UserId::from_key(2), 0);
        assert_eq!(job.status(), JobStatus::Queued);
        job.state = JobState::Running;
        assert_eq!(job.view(42).status, JobStatus::Transcribing);
        assert_eq!(job.view(42).progress, 42);
        job.stage = Stage::Summarise;
        assert_eq!(job.status(), JobStatus::Summarising);
        job.state = JobState::WaitingForModel;
        assert_eq!(job.view(42).progress, 0);
        assert!(job.is_active());
        job.state = JobState::Done;
        assert_eq!(job.view(0).progress, 100);
        assert!(!job.is_active());
        assert_eq!(serde_json::to_value(job.view(0)).unwrap()["status"], "done");
    }
}

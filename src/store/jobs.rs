//! The job of each client's recording. The worker's view addresses jobs by
//! client id alone (it is not acting for a user); the owner's view checks
//! the owner like every client call.

use std::collections::HashSet;

use redb::{ReadableTable, WriteTransaction};

use super::action_items;
use super::blobs::Blob;
use super::codec::{decode, encode};
use super::records::{owned, put_client, put_job, read_job};
use super::tables::JOBS;
use super::transcripts::{corrected, put_transcript};
use super::views::{AdminView, OwnerView, WorkerView};
use super::{StoreError, StoreResult};
use crate::domain::action_item::ActionItem;
use crate::domain::client::{ClientRecord, ClientWithSteps, Recording, SummarySource};
use crate::domain::ids::ClientId;
use crate::domain::job::{JobRecord, JobState, MAX_ATTEMPTS, Stage};
use crate::domain::transcript::TranscriptRecord;

/// What [`WorkerView::claim_job`] found.
#[derive(Debug, Default)]
pub struct Claim {
    /// The job to run now, its stage marked running.
    pub job: Option<JobRecord>,
    /// Jobs that were interrupted too often and now fail instead.
    pub given_up: Vec<JobRecord>,
}

impl OwnerView<'_> {
    /// The job of the owner's client, if it has one.
    pub fn job(&self, client: ClientId) -> StoreResult<Option<JobRecord>> {
        let tx = self.store.read()?;
        let found: Option<JobRecord> =
            tx.open_table(JOBS)?.get(client.key())?.map(|v| decode(v.value())).transpose()?;
        Ok(found.filter(|j| j.owner == self.owner))
    }

    /// Runs a failed job again from the stage that failed.
    pub fn retry_job(&self, client: ClientId, now: i64) -> StoreResult<JobRecord> {
        self.restart_job(client, now, |job, record, _| {
            if job.state != JobState::Failed {
                return Err(StoreError::Conflict("Only a failed job can be retried"));
            }
            let removed = record.recording.as_ref().is_some_and(|r| r.removed_at.is_some());
            if job.stage == Stage::Transcribe && removed {
                return Err(StoreError::Conflict("The audio was removed by the retention policy"));
            }
            Ok(job.stage)
        })
    }

    /// Summarises the kept transcript again (for example with a better model).
    pub fn regenerate_summary(&self, client: ClientId, now: i64) -> StoreResult<JobRecord> {
        self.restart_job(client, now, |job, record, _| {
            if job.is_active() {
                return Err(StoreError::Conflict("The recording is still being processed"));
            }
            if record.transcription.as_deref().is_none_or(|t| t.trim().is_empty()) {
                return Err(StoreError::Conflict("There is no transcript to summarise yet"));
            }
            Ok(Stage::Summarise)
        })
    }

    /// Transcribes the kept audio again, then summarises again as
    /// Regenerate does (the owner's edited and ticked steps stay). Refused
    /// while the job runs, when retention removed the audio, and, unless
    /// `force`, when the owner corrected the transcript.
    pub fn retranscribe(&self, client: ClientId, force: bool, now: i64) -> StoreResult<JobRecord> {
        self.restart_job(client, now, |job, record, tx| {
            if job.is_active() {
                return Err(StoreError::Conflict("The recording is still being processed"));
            }
            if record.recording.as_ref().is_none_or(|r| r.removed_at.is_some()) {
                return Err(StoreError::Conflict("The audio was removed by the retention policy"));
            }
            if !force && corrected(tx, record)? {
                return Err(StoreError::Conflict("The owner corrected the transcript (--force replaces it)"));
            }
            Ok(Stage::Transcribe)
        })
    }

    fn restart_job(
        &self,
        client: ClientId,
        now: i64,
        stage: impl FnOnce(&JobRecord, &ClientRecord, &WriteTransaction) -> StoreResult<Stage>,
    ) -> StoreResult<JobRecord> {
        let tx = self.store.write()?;
        let record = owned(&tx, self.owner, client)?;
        let mut job = read_job(&tx, client)?.ok_or(StoreError::Conflict("This client has no recording to process"))?;
        job.stage = stage(&job, &record, &tx)?;
        job.state = JobState::Queued;
        job.attempts = 0;
        job.error = None;
        job.updated_at = now;
        put_job(&tx, &job)?;
        tx.commit()?;
        Ok(job)
    }
}

impl AdminView<'_> {
    /// Every job, oldest client first.
    pub fn all_jobs(&self) -> StoreResult<Vec<JobRecord>> {
        let tx = self.store.read()?;
        let table = tx.open_table(JOBS)?;
        let mut jobs = Vec::new();
        for entry in table.iter()? {
            jobs.push(decode::<JobRecord>(entry?.1.value())?);
        }
        Ok(jobs)
    }
}

impl WorkerView<'_> {
    /// The client of `job`, for its transcript.
    pub fn client(&self, job: &JobRecord) -> StoreResult<ClientRecord> {
        self.job_owner(job).client(job.client)
    }

    /// The recording of `job`'s client; `None` when it has none.
    pub fn recording(&self, job: &JobRecord) -> StoreResult<Option<Blob>> {
        self.job_owner(job).client_file(job.client, |c| c.recording.as_ref().and_then(Recording::audio))
    }

    /// At start-up: a job marked running was cut off by the last stop, so it
    /// is queued again (its attempts still count).
    pub fn requeue_interrupted_jobs(&self, now: i64) -> StoreResult<usize> {
        self.change_jobs(|job| job.state == JobState::Running, |job| job.state = JobState::Queued, now)
    }

    /// Jobs waiting for a model are queued again (a model was installed).
    pub fn requeue_waiting_jobs(&self, now: i64) -> StoreResult<usize> {
        self.change_jobs(|job| job.state == JobState::WaitingForModel, |job| job.state = JobState::Queued, now)
    }

    /// Puts jobs cut off by a shutdown back in the queue, not counting the
    /// attempt that was cut off.
    pub fn release_jobs(&self, clients: &[ClientId], now: i64) -> StoreResult<()> {
        self.change_jobs(
            |job| job.state == JobState::Running && clients.contains(&job.client),
            |job| {
                job.state = JobState::Queued;
                job.attempts = job.attempts.saturating_sub(1);
            },
            now,
        )?;
        Ok(())
    }

    /// Takes the oldest queued job not in `busy` and marks its stage running,
    /// counting the attempt before the work starts, so a stage that kills
    /// the process cannot loop forever.
    pub fn claim_job(&self, busy: &HashSet<ClientId>, now: i64) -> StoreResult<Claim> {
        let tx = self.store.write()?;
        let mut claim = Claim::default();
        {
            let mut table = tx.open_table(JOBS)?;
            let mut queued: Vec<JobRecord> = Vec::new();
            for entry in table.iter()? {
                let job: JobRecord = decode(entry?.1.value())?;
                if job.state == JobState::Queued && !busy.contains(&job.client) {
                    queued.push(job);
                }
            }
            queued.sort_by_key(|j| (j.updated_at, j.client));
            for mut job in queued {
                job.updated_at = now;
                if job.attempts >= MAX_ATTEMPTS {
                    job.state = JobState::Failed;
                    job.error = Some(format!(
                        "Processing stopped: {} was cut off {} times because the server stopped while it ran. Retry to try again; if it stops again, the server log has the details.",
                        stage_name(job.stage),
                        job.attempts
                    ));
                    table.insert(job.client.key(), encode(&job)?.as_slice())?;
                    claim.given_up.push(job);
                    continue;
                }
                job.state = JobState::Running;
                job.attempts += 1;
                job.error = None;
                table.insert(job.client.key(), encode(&job)?.as_slice())?;
                claim.job = Some(job);
                break;
            }
        }
        tx.commit()?;
        Ok(claim)
    }

    /// The job cannot run until a model is installed; `why` says which.
    pub fn job_waiting(&self, client: ClientId, why: String, now: i64) -> StoreResult<Option<JobRecord>> {
        self.change_job(client, now, |job, _| {
            job.state = JobState::WaitingForModel;
            job.attempts = job.attempts.saturating_sub(1);
            job.error = Some(why);
            Ok(())
        })
    }

    pub fn job_failed(&self, client: ClientId, why: String, now: i64) -> StoreResult<Option<JobRecord>> {
        self.change_job(client, now, |job, _| {
            job.state = JobState::Failed;
            job.error = Some(why);
            Ok(())
        })
    }

    /// Keeps the transcript and moves the job on to summarising, in one
    /// transaction, so a restart never transcribes twice.
    pub fn save_transcription(
        &self,
        client: ClientId,
        transcript: TranscriptRecord,
        now: i64,
    ) -> StoreResult<Option<JobRecord>> {
        self.change_job(client, now, |job, tx| {
            let mut record = owned(tx, job.owner, client)?;
            record.transcription = Some(transcript.text());
            put_client(tx, &record)?;
            put_transcript(tx, client, &transcript)?;
            job.stage = Stage::Summarise;
            job.attempts = 1;
            Ok(())
        })
    }

    /// Keeps the summary and the next steps (see
    /// [`action_items::save_extracted`]) and ends the job.
    pub fn save_summary(
        &self,
        client: ClientId,
        summary: String,
        source: SummarySource,
        items: Vec<ActionItem>,
        now: i64,
    ) -> StoreResult<Option<(ClientWithSteps, JobRecord)>> {
        let mut saved = None;
        let job = self.change_job(client, now, |job, tx| {
            let mut record = owned(tx, job.owner, client)?;
            record.summary_source = (!summary.is_empty()).then_some(source);
            record.summary = (!summary.is_empty()).then_some(summary);
            let items = action_items::save_extracted(tx, &mut record, items)?;
            put_client(tx, &record)?;
            job.state = JobState::Done;
            job.error = None;
            saved = Some(ClientWithSteps { record, items });
            Ok(())
        })?;
        Ok(job.zip(saved).map(|(job, client)| (client, job)))
    }

    /// Applies `change` to the job of `client` if it still exists (the
    /// client may have been deleted while its job ran).
    fn change_job(
        &self,
        client: ClientId,
        now: i64,
        change: impl FnOnce(&mut JobRecord, &WriteTransaction) -> StoreResult<()>,
    ) -> StoreResult<Option<JobRecord>> {
        let tx = self.store.write()?;
        let Some(mut job) = read_job(&tx, client)? else {
            return Ok(None);
        };
        change(&mut job, &tx)?;
        job.updated_at = now;
        put_job(&tx, &job)?;
        tx.commit()?;
        Ok(Some(job))
    }

    fn change_jobs(
        &self,
        matches: impl Fn(&JobRecord) -> bool,
        change: impl Fn(&mut JobRecord),
        now: i64,
    ) -> StoreResult<usize> {
        let tx = self.store.write()?;
        let mut changed = Vec::new();
        for entry in tx.open_table(JOBS)?.iter()? {
            let mut job: JobRecord = decode(entry?.1.value())?;
            if matches(&job) {
                change(&mut job);
                job.updated_at = now;
                changed.push(job);
            }
        }
        for job in &changed {
            put_job(&tx, job)?;
        }
        tx.commit()?;
        Ok(changed.len())
    }
}

fn stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::Transcribe => "transcribing",
        Stage::Summarise => "summarising",
    }
}

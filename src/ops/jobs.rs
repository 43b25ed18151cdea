//! `debrief jobs list|retry|retranscribe|export`: the processing of every recording, and
//! what it wrote, for the operator of the box.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::{OpError, OpResult};
use crate::clock::now_ms;
use crate::domain::ids::{ClientId, UserId};
use crate::domain::job::{JobRecord, JobStatus};
use crate::domain::transcript::Export;
use crate::domain::user::iso_time;
use crate::store::{AdminView, StoreError};

/// A job as `debrief jobs list` prints it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct JobLine {
    pub client: ClientId,
    pub client_name: String,
    pub owner_email: String,
    pub status: JobStatus,
    pub attempts: u32,
    pub error: Option<String>,
    pub updated_at: String,
}

/// Every job, the active ones first, then the latest changed.
pub fn list(admin: &AdminView<'_>) -> OpResult<Vec<JobLine>> {
    let emails: HashMap<UserId, String> = admin.users()?.into_iter().map(|u| (u.id, u.email)).collect();
    let names: HashMap<ClientId, String> =
        admin.all_clients()?.into_iter().map(|c| (c.record.id, c.record.name)).collect();
    let mut jobs = admin.all_jobs()?;
    jobs.sort_by_key(|j| (!j.is_active(), std::cmp::Reverse(j.updated_at)));
    Ok(jobs
        .into_iter()
        .map(|job| JobLine {
            client: job.client,
            client_name: names.get(&job.client).cloned().unwrap_or_default(),
            owner_email: emails.get(&job.owner).cloned().unwrap_or_default(),
            status: job.status(),
            attempts: job.attempts,
            error: job.error,
            updated_at: iso_time(job.updated_at),
        })
        .collect())
}

/// Runs a failed job again; the owner is looked up, the rule is the owner's.
pub fn retry(admin: &AdminView<'_>, client: ClientId) -> OpResult<JobRecord> {
    let owner = admin.for_owner_of(client).map_err(OpError::or_store(|| format!("no client has id {client}")))?;
    Ok(owner.retry_job(client, now_ms())?)
}

/// What `debrief jobs retranscribe` did.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Retranscribed {
    pub queued: Vec<ClientId>,
    /// Each client left as it was, with why.
    pub skipped: Vec<(ClientId, String)>,
}

impl std::fmt::Display for Retranscribed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ids =
            |ids: &mut dyn Iterator<Item = &ClientId>| ids.map(ToString::to_string).collect::<Vec<_>>().join(", ");
        match self.queued.len() {
            0 => write!(f, "no recording is queued to be transcribed again")?,
            1 => write!(f, "1 recording is queued to be transcribed again (client {})", ids(&mut self.queued.iter()))?,
            n => write!(
                f,
                "{n} recordings are queued to be transcribed again (clients {})",
                ids(&mut self.queued.iter())
            )?,
        }
        for (client, why) in &self.skipped {
            write!(f, "\nskipped client {client}: {why}")?;
        }
        Ok(())
    }
}

/// Transcribes recordings again from their kept audio (`None`: every
/// client's), then summarises them again keeping the owners' step edits
/// and ticks. With every client, those that cannot be (no audio, a
/// correction without `force`, still running) are skipped and listed.
pub fn retranscribe(admin: &AdminView<'_>, client: Option<ClientId>, force: bool) -> OpResult<Retranscribed> {
    let mut done = Retranscribed::default();
    let Some(client) = client else {
        for job in admin.all_jobs()? {
            match admin.for_owner_of(job.client)?.retranscribe(job.client, force, now_ms()) {
                Ok(_) => done.queued.push(job.client),
                Err(StoreError::Conflict(why)) => done.skipped.push((job.client, why.to_owned())),
                Err(e) => return Err(e.into()),
            }
        }
        return Ok(done);
    };
    let owner = admin.for_owner_of(client).map_err(OpError::or_store(|| format!("no client has id {client}")))?;
    owner.retranscribe(client, force, now_ms())?;
    done.queued.push(client);
    Ok(done)
}

/// Client `client`'s transcript in `format` (txt, srt or vtt).
pub fn export(admin: &AdminView<'_>, client: ClientId, format: &str) -> OpResult<String> {
    let format = Export::parse(format).ok_or_else(|| OpError::Failed("the format must be txt, srt or vtt".into()))?;
    let owner = admin.for_owner_of(client).map_err(OpError::or_store(|| format!("no client has id {client}")))?;
    let (_, transcript) = owner.transcript(client)?;
    let transcript = transcript.ok_or_else(|| OpError::Failed(format!("client {client} has no transcript yet")))?;
    Ok(format.render(&transcript.segments))
}

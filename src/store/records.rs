//! One record read or written inside the caller's write transaction: the
//! pieces of the calls that change several tables at once (a recording and
//! its job, a user and their sessions).

use redb::{ReadableTable, WriteTransaction};
use serde::{Deserialize, Serialize};

use super::codec::{decode, encode};
use super::tables::{CLIENTS, JOBS, RESET_TOKENS, USERS};
use super::{StoreError, StoreResult, calendar_feeds, sessions};
use crate::domain::client::ClientRecord;
use crate::domain::ids::{ClientId, TokenHash, UserId};
use crate::domain::job::JobRecord;
use crate::domain::user::UserRecord;

/// The client `id` if `owner` owns it; `NotFound` otherwise.
pub(super) fn owned(tx: &WriteTransaction, owner: UserId, id: ClientId) -> StoreResult<ClientRecord> {
    let found: Option<ClientRecord> = tx.open_table(CLIENTS)?.get(id.key())?.map(|v| decode(v.value())).transpose()?;
    found.filter(|c| c.owner == owner).ok_or(StoreError::NotFound)
}

pub(super) fn put_client(tx: &WriteTransaction, client: &ClientRecord) -> StoreResult<()> {
    tx.open_table(CLIENTS)?.insert(client.id.key(), encode(client)?.as_slice())?;
    Ok(())
}

pub(super) fn get_user(tx: &WriteTransaction, id: UserId) -> StoreResult<UserRecord> {
    let table = tx.open_table(USERS)?;
    let found = table.get(id.key())?.map(|v| decode(v.value())).transpose()?;
    found.ok_or(StoreError::NotFound)
}

pub(super) fn put_user(tx: &WriteTransaction, user: &UserRecord) -> StoreResult<()> {
    tx.open_table(USERS)?.insert(user.id.key(), encode(user)?.as_slice())?;
    Ok(())
}

/// A pending password reset: the user it is for and when it expires.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct ResetRecord {
    pub(super) user_id: UserId,
    pub(super) expire: i64,
}

pub(super) fn delete_resets_of(tx: &WriteTransaction, user: UserId) -> StoreResult<()> {
    tx.open_table(RESET_TOKENS)?.retain(|_, v| decode::<ResetRecord>(v).is_ok_and(|r| r.user_id != user))?;
    Ok(())
}

/// What proved the old password or reached the old e-mail address stops
/// working: every session but `keep`, the calendar feed (a link made from
/// a stolen session must not outlive it), and every pending reset link.
pub(super) fn end_credentials(tx: &WriteTransaction, user: UserId, keep: Option<&TokenHash>) -> StoreResult<()> {
    sessions::revoke_user_sessions(tx, user, keep)?;
    calendar_feeds::revoke_calendar_feed_in(tx, user)?;
    delete_resets_of(tx, user)
}

/// Sets a new password hash and signs the user out everywhere but `keep`.
pub(super) fn set_password_in(
    tx: &WriteTransaction,
    id: UserId,
    password_hash: String,
    keep: Option<&TokenHash>,
) -> StoreResult<()> {
    let mut user = get_user(tx, id)?;
    user.password_hash = password_hash;
    put_user(tx, &user)?;
    end_credentials(tx, id, keep)
}

/// Queues a fresh job for a client's new recording, inside the transaction
/// that attaches it, so a recording never lacks its job.
pub(super) fn queue_job(tx: &WriteTransaction, client: &ClientRecord, now: i64) -> StoreResult<()> {
    put_job(tx, &JobRecord::new(client.id, client.owner, now))
}

pub(super) fn remove_job(tx: &WriteTransaction, client: ClientId) -> StoreResult<()> {
    tx.open_table(JOBS)?.remove(client.key())?;
    Ok(())
}

pub(super) fn read_job(tx: &WriteTransaction, client: ClientId) -> StoreResult<Option<JobRecord>> {
    tx.open_table(JOBS)?.get(client.key())?.map(|v| decode(v.value())).transpose()
}

pub(super) fn put_job(tx: &WriteTransaction, job: &JobRecord) -> StoreResult<()> {
    tx.open_table(JOBS)?.insert(job.client.key(), encode(job)?.as_slice())?;
    Ok(())
}

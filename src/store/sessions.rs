use std::sync::Arc;

use redb::{ReadableMultimapTable, ReadableTable, WriteTransaction};
use serde::{Deserialize, Serialize};

use super::codec::{decode, encode};
use super::tables::{SESSIONS, SESSIONS_BY_USER, USERS};
use super::views::Owner;
use super::{Store, StoreResult};
use crate::domain::ids::{TokenHash, UserId};
use crate::domain::user::UserRecord;

/// A signed-in browser. Stored under the hash of its cookie's token.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SessionRecord {
    pub user_id: UserId,
    /// Unix milliseconds after which the session is void.
    pub expire: i64,
    pub created_at: i64,
}

/// A live session: its record, its user, and the proof that lets the user
/// act on their own data.
#[derive(Debug, Clone)]
pub struct LiveSession {
    pub record: SessionRecord,
    pub user: Arc<UserRecord>,
    pub owner: Owner,
}

impl Store {
    pub fn create_session(&self, token: &TokenHash, session: &SessionRecord) -> StoreResult<()> {
        let tx = self.write()?;
        tx.open_table(SESSIONS)?.insert(token.as_slice(), encode(session)?.as_slice())?;
        tx.open_multimap_table(SESSIONS_BY_USER)?.insert(session.user_id.key(), token.as_slice())?;
        tx.commit()?;
        Ok(())
    }

    /// The session and its user, unless it expired (at `now`) or the user
    /// is gone. Every signed-in request asks, so what was read is kept until
    /// the next write (which any sign-out or revocation is).
    pub fn session(&self, token: &TokenHash, now: i64) -> StoreResult<Option<LiveSession>> {
        let changes = self.changes();
        let found = match self.sessions.get(token, changes) {
            Some(found) => Some(found),
            None => {
                let found = self.read_session(token)?;
                if let Some(found) = &found {
                    self.sessions.keep(*token, changes, found.clone());
                }
                found
            }
        };
        Ok(found.filter(|session| session.record.expire > now))
    }

    fn read_session(&self, token: &TokenHash) -> StoreResult<Option<LiveSession>> {
        let tx = self.read()?;
        let found: Option<SessionRecord> =
            tx.open_table(SESSIONS)?.get(token.as_slice())?.map(|v| decode(v.value())).transpose()?;
        let Some(session) = found else { return Ok(None) };
        let user: Option<UserRecord> =
            tx.open_table(USERS)?.get(session.user_id.key())?.map(|v| decode(v.value())).transpose()?;
        Ok(user.map(|user| LiveSession { owner: Owner::of_session(user.id), user: Arc::new(user), record: session }))
    }

    /// Moves a sliding session's expiry forward.
    pub fn extend_session(&self, token: &TokenHash, expire: i64) -> StoreResult<()> {
        let tx = self.write()?;
        {
            let mut table = tx.open_table(SESSIONS)?;
            let found: Option<SessionRecord> = table.get(token.as_slice())?.map(|v| decode(v.value())).transpose()?;
            if let Some(mut session) = found {
                session.expire = expire;
                table.insert(token.as_slice(), encode(&session)?.as_slice())?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    pub fn delete_session(&self, token: &TokenHash) -> StoreResult<()> {
        let tx = self.write()?;
        delete_session_in(&tx, token)?;
        tx.commit()?;
        Ok(())
    }

    /// Removes expired sessions; returns how many.
    pub fn sweep_sessions(&self, now: i64) -> StoreResult<usize> {
        let expired: Vec<Vec<u8>> = {
            let tx = self.read()?;
            let table = tx.open_table(SESSIONS)?;
            let mut keys = Vec::new();
            for entry in table.iter()? {
                let (key, value) = entry?;
                let session: SessionRecord = decode(value.value())?;
                if session.expire <= now {
                    keys.push(key.value().to_vec());
                }
            }
            keys
        };
        if expired.is_empty() {
            return Ok(0);
        }
        let tx = self.write()?;
        for key in &expired {
            if let Ok(token) = TokenHash::try_from(key.as_slice()) {
                delete_session_in(&tx, &token)?;
            }
        }
        tx.commit()?;
        Ok(expired.len())
    }
}

fn delete_session_in(tx: &WriteTransaction, token: &TokenHash) -> StoreResult<()> {
    let removed: Option<SessionRecord> =
        tx.open_table(SESSIONS)?.remove(token.as_slice())?.map(|v| decode(v.value())).transpose()?;
    if let Some(session) = removed {
        tx.open_multimap_table(SESSIONS_BY_USER)?.remove(session.user_id.key(), token.as_slice())?;
    }
    Ok(())
}

/// Signs a user out of every browser but `keep`.
pub(super) fn revoke_user_sessions(tx: &WriteTransaction, user: UserId, keep: Option<&TokenHash>) -> StoreResult<()> {
    let tokens: Vec<Vec<u8>> = {
        let index = tx.open_multimap_table(SESSIONS_BY_USER)?;
        let mut tokens = Vec::new();
        for token in index.get(user.key())? {
            tokens.push(token?.value().to_vec());
        }
        tokens
    };
    let mut sessions = tx.open_table(SESSIONS)?;
    let mut index = tx.open_multimap_table(SESSIONS_BY_USER)?;
    for token in tokens.iter().filter(|t| keep.is_none_or(|k| k.as_slice() != t.as_slice())) {
        sessions.remove(token.as_slice())?;
        index.remove(user.key(), token.as_slice())?;
    }
    Ok(())
}

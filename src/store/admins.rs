//! Administrators: accounts of their own (never users with a flag), and
//! their sessions, which end after a short idle time and a few hours at most.

use redb::{ReadableTable, ReadableTableMetadata, WriteTransaction};
use serde::{Deserialize, Serialize};

use super::codec::{decode, encode};
use super::tables::{ADMIN_SESSIONS, ADMINS};
use super::views::{Admin, AdminView};
use super::{Store, StoreError, StoreResult};
use crate::domain::ids::TokenHash;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AdminRecord {
    pub username: String,
    pub password_hash: String,
    pub created_at: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AdminSessionRecord {
    pub username: String,
    /// Void after this (Unix ms), however active.
    pub hard_expire: i64,
    /// Void after this unless used again (Unix ms).
    pub idle_expire: i64,
}

/// The accounts of administrators, which the person at the console manages.
impl AdminView<'_> {
    pub fn create_admin(&self, record: &AdminRecord) -> StoreResult<()> {
        let tx = self.store.write()?;
        {
            let mut admins = tx.open_table(ADMINS)?;
            if admins.get(record.username.as_str())?.is_some() {
                return Err(StoreError::Exists(format!("an admin named {} exists already", record.username)));
            }
            admins.insert(record.username.as_str(), encode(record)?.as_slice())?;
        }
        tx.commit()?;
        Ok(())
    }

    pub fn admins(&self) -> StoreResult<Vec<AdminRecord>> {
        let tx = self.store.read()?;
        let table = tx.open_table(ADMINS)?;
        let mut admins = Vec::new();
        for entry in table.iter()? {
            admins.push(decode(entry?.1.value())?);
        }
        Ok(admins)
    }

    /// A new password; every session of that admin ends.
    pub fn set_admin_password(&self, username: &str, password_hash: String) -> StoreResult<()> {
        let tx = self.store.write()?;
        let mut admin: AdminRecord = tx
            .open_table(ADMINS)?
            .get(username)?
            .map(|v| decode(v.value()))
            .transpose()?
            .ok_or(StoreError::NotFound)?;
        admin.password_hash = password_hash;
        tx.open_table(ADMINS)?.insert(username, encode(&admin)?.as_slice())?;
        end_admin_sessions(&tx, username)?;
        tx.commit()?;
        Ok(())
    }

    /// Removes the admin; their sessions stop working at once.
    pub fn delete_admin(&self, username: &str) -> StoreResult<()> {
        let tx = self.store.write()?;
        if tx.open_table(ADMINS)?.remove(username)?.is_none() {
            return Err(StoreError::NotFound);
        }
        end_admin_sessions(&tx, username)?;
        tx.commit()?;
        Ok(())
    }
}

impl Store {
    /// The admin named `username`, to check a password.
    pub fn admin(&self, username: &str) -> StoreResult<Option<AdminRecord>> {
        let tx = self.read()?;
        let table = tx.open_table(ADMINS)?;
        table.get(username)?.map(|v| decode(v.value())).transpose()
    }

    /// Whether anyone can sign in as an administrator yet.
    pub fn has_admin(&self) -> StoreResult<bool> {
        let tx = self.read()?;
        Ok(!tx.open_table(ADMINS)?.is_empty()?)
    }

    pub fn create_admin_session(&self, token: &TokenHash, session: &AdminSessionRecord) -> StoreResult<()> {
        let tx = self.write()?;
        tx.open_table(ADMIN_SESSIONS)?.insert(token.as_slice(), encode(session)?.as_slice())?;
        tx.commit()?;
        Ok(())
    }

    /// The live session of a still existing admin, its idle time renewed
    /// to `idle_expire`, with the proof that opens the admin view.
    pub fn admin_session(
        &self,
        token: &TokenHash,
        now: i64,
        idle_expire: i64,
    ) -> StoreResult<Option<(AdminRecord, Admin)>> {
        let tx = self.write()?;
        let found: Option<AdminSessionRecord> =
            tx.open_table(ADMIN_SESSIONS)?.get(token.as_slice())?.map(|v| decode(v.value())).transpose()?;
        let Some(mut session) = found else { return Ok(None) };
        let admin: Option<AdminRecord> =
            tx.open_table(ADMINS)?.get(session.username.as_str())?.map(|v| decode(v.value())).transpose()?;
        let live = session.hard_expire > now && session.idle_expire > now;
        let result = match admin {
            Some(admin) if live => {
                session.idle_expire = idle_expire.min(session.hard_expire);
                tx.open_table(ADMIN_SESSIONS)?.insert(token.as_slice(), encode(&session)?.as_slice())?;
                Some((admin, Admin::of_session()))
            }
            _ => {
                tx.open_table(ADMIN_SESSIONS)?.remove(token.as_slice())?;
                None
            }
        };
        tx.commit()?;
        Ok(result)
    }

    pub fn delete_admin_session(&self, token: &TokenHash) -> StoreResult<()> {
        let tx = self.write()?;
        tx.open_table(ADMIN_SESSIONS)?.remove(token.as_slice())?;
        tx.commit()?;
        Ok(())
    }

    /// Removes admin sessions past either expiry.
    pub fn sweep_admin_sessions(&self, now: i64) -> StoreResult<()> {
        let tx = self.write()?;
        tx.open_table(ADMIN_SESSIONS)?
            .retain(|_, v| decode::<AdminSessionRecord>(v).is_ok_and(|s| s.hard_expire > now && s.idle_expire > now))?;
        tx.commit()?;
        Ok(())
    }
}

fn end_admin_sessions(tx: &WriteTransaction, username: &str) -> StoreResult<()> {
    tx.open_table(ADMIN_SESSIONS)?
        .retain(|_, v| decode::<AdminSessionRecord>(v).is_ok_and(|s| s.username != username))?;
    Ok(())
}

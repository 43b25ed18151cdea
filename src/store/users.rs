//! Accounts: created at signup, changed by their user (or an administrator
//! acting for them), removed by an administrator with everything of theirs.

use redb::{ReadableTable, WriteTransaction};

use super::blobs::{Blob, delete_blob, put_blob, read_blob};
use super::codec::decode;
use super::records::{end_credentials, get_user, put_user, set_password_in};
use super::tables::{USERS, USERS_BY_EMAIL};
use super::views::{AdminView, OwnerView, WorkerView};
use super::{Store, StoreError, StoreResult, clients, confirmations, meta};
use crate::domain::ids::{TokenHash, UserId};
use crate::domain::job::JobRecord;
use crate::domain::user::{NewUser, ProfileUpdate, UserRecord};

impl Store {
    /// Adds an account; `EmailTaken` when the email has one already.
    /// Adds an account; `unconfirmed` when its address waits for the link
    /// that confirms it (sign-up by domain).
    pub fn create_user(
        &self,
        new: NewUser,
        password_hash: String,
        now: i64,
        unconfirmed: bool,
    ) -> StoreResult<UserRecord> {
        let tx = self.write()?;
        let mut record = insert_user(&tx, new, password_hash, now)?;
        if unconfirmed {
            record.email_unconfirmed = true;
            put_user(&tx, &record)?;
        }
        tx.commit()?;
        Ok(record)
    }

    /// The account with `email`, to check a password or send a reset link.
    pub fn user_by_email(&self, email: &str) -> StoreResult<Option<UserRecord>> {
        let tx = self.read()?;
        let Some(id) = tx.open_table(USERS_BY_EMAIL)?.get(email)?.map(|v| v.value()) else { return Ok(None) };
        tx.open_table(USERS)?.get(id)?.map(|v| decode(v.value())).transpose()
    }
}

impl OwnerView<'_> {
    /// Changes the profile. A changed email must be free, and signs the
    /// user out everywhere but `keep` (the session making the change).
    pub fn update_profile(&self, update: ProfileUpdate, keep: Option<&TokenHash>) -> StoreResult<UserRecord> {
        self.change_profile(keep, |_| Ok(update))
    }

    /// Applies the profile `change` makes of the stored record, read and
    /// written in one transaction, so a field it carries over from the
    /// record cannot undo a change made meanwhile. A changed email signs
    /// the user out everywhere but `keep`.
    pub fn change_profile<E: From<StoreError>>(
        &self,
        keep: Option<&TokenHash>,
        change: impl FnOnce(&UserRecord) -> Result<ProfileUpdate, E>,
    ) -> Result<UserRecord, E> {
        let tx = self.store.write()?;
        let user = get_user(&tx, self.owner)?;
        let update = change(&user)?;
        let user = apply_profile(&tx, user, update, keep)?;
        tx.commit().map_err(StoreError::from)?;
        Ok(user)
    }

    /// Sets a new password hash and signs the user out everywhere but
    /// `keep` (the session that made the change, if any).
    pub fn set_password(&self, password_hash: String, keep: Option<&TokenHash>) -> StoreResult<()> {
        let tx = self.store.write()?;
        set_password_in(&tx, self.owner, password_hash, keep)?;
        tx.commit()?;
        Ok(())
    }

    /// Replaces the profile picture (`None` removes it).
    pub fn set_avatar(&self, picture: Option<(&str, &[u8])>) -> StoreResult<UserRecord> {
        let tx = self.store.write()?;
        let mut user = get_user(&tx, self.owner)?;
        if let Some(old) = user.avatar.take() {
            delete_blob(&tx, old)?;
        }
        if let Some((content_type, bytes)) = picture {
            user.avatar = Some(put_blob(&tx, &*self.store.files, content_type, bytes)?);
        }
        put_user(&tx, &user)?;
        tx.commit()?;
        Ok(user)
    }

    /// The profile picture; `None` without one (or without the account).
    pub fn avatar(&self) -> StoreResult<Option<Blob>> {
        let tx = self.store.read()?;
        let user: Option<UserRecord> =
            tx.open_table(USERS)?.get(self.owner.key())?.map(|v| decode(v.value())).transpose()?;
        user.and_then(|u| u.avatar).map(|blob| read_blob(&tx, blob)).transpose()
    }
}

impl WorkerView<'_> {
    /// Who `job` works for, whose name tells the summary which side is
    /// "me"; `None` once the account is gone.
    pub fn owner(&self, job: &JobRecord) -> StoreResult<Option<UserRecord>> {
        let tx = self.store.read()?;
        tx.open_table(USERS)?.get(job.owner.key())?.map(|v| decode(v.value())).transpose()
    }
}

impl AdminView<'_> {
    /// Every account, by id.
    pub fn users(&self) -> StoreResult<Vec<UserRecord>> {
        let tx = self.store.read()?;
        let table = tx.open_table(USERS)?;
        let mut users = Vec::new();
        for entry in table.iter()? {
            users.push(decode(entry?.1.value())?);
        }
        Ok(users)
    }

    /// Removes an account with everything that is theirs: clients with
    /// their photos and recordings, profile picture, sessions and reset
    /// links, in one transaction.
    pub fn delete_user(&self, id: UserId) -> StoreResult<UserRecord> {
        let tx = self.store.write()?;
        let user = get_user(&tx, id)?;
        clients::delete_clients_of(&tx, id)?;
        if let Some(avatar) = user.avatar {
            delete_blob(&tx, avatar)?;
        }
        end_credentials(&tx, id, None)?;
        confirmations::delete_confirmations_of(&tx, id)?;
        tx.open_table(USERS_BY_EMAIL)?.remove(user.email.as_str())?;
        tx.open_table(USERS)?.remove(id.key())?;
        tx.commit()?;
        Ok(user)
    }
}

/// Adds an account inside `tx`; `EmailTaken` when the email has one already.
pub(super) fn insert_user(
    tx: &WriteTransaction,
    new: NewUser,
    password_hash: String,
    now: i64,
) -> StoreResult<UserRecord> {
    if tx.open_table(USERS_BY_EMAIL)?.get(new.email())?.is_some() {
        return Err(StoreError::EmailTaken);
    }
    let record = UserRecord::new(UserId::from_key(meta::next_id(tx, "users")?), new, password_hash, now);
    put_user(tx, &record)?;
    tx.open_table(USERS_BY_EMAIL)?.insert(record.email.as_str(), record.id.key())?;
    Ok(record)
}

fn apply_profile(
    tx: &WriteTransaction,
    mut user: UserRecord,
    update: ProfileUpdate,
    keep: Option<&TokenHash>,
) -> StoreResult<UserRecord> {
    if update.email() != user.email {
        user = move_email(tx, user, update.email(), keep)?;
    }
    update.apply_to(&mut user);
    put_user(tx, &user)?;
    Ok(user)
}

/// Gives `user` the address `email` in the index (`EmailTaken` when another
/// account has it) and signs them out everywhere but `keep`: whoever held
/// the old address's mailbox loses the sessions it may have opened.
pub(super) fn move_email(
    tx: &WriteTransaction,
    mut user: UserRecord,
    email: &str,
    keep: Option<&TokenHash>,
) -> StoreResult<UserRecord> {
    let mut by_email = tx.open_table(USERS_BY_EMAIL)?;
    if by_email.get(email)?.is_some() {
        return Err(StoreError::EmailTaken);
    }
    by_email.remove(user.email.as_str())?;
    by_email.insert(email, user.id.key())?;
    drop(by_email);
    end_credentials(tx, user.id, keep)?;
    confirmations::delete_confirmations_of(tx, user.id)?;
    user.email = email.to_owned();
    Ok(user)
}

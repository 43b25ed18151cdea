//! Links that confirm an e-mail address: one for a new account under
//! sign-up by domain, one for a change of address in the profile.

use redb::ReadableTable;
use serde::{Deserialize, Serialize};

use super::codec::{decode, encode};
use super::records::{get_user, put_user};
use super::tables::{EMAIL_CONFIRMATIONS, USERS_BY_EMAIL};
use super::users::move_email;
use super::views::{AdminView, OwnerView};
use super::{Store, StoreError, StoreResult};
use crate::domain::ids::{TokenHash, UserId};
use crate::domain::user::{ProfileUpdate, UserRecord};

/// A pending confirmation: whose, of which address, until when.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct ConfirmationRecord {
    pub(super) user_id: UserId,
    pub(super) email: String,
    pub(super) expire: i64,
}

impl Store {
    pub fn create_email_confirmation(
        &self,
        token: &TokenHash,
        user_id: UserId,
        email: &str,
        expire: i64,
    ) -> StoreResult<()> {
        let tx = self.write()?;
        let record = ConfirmationRecord { user_id, email: email.to_owned(), expire };
        tx.open_table(EMAIL_CONFIRMATIONS)?.insert(token.as_slice(), encode(&record)?.as_slice())?;
        tx.commit()?;
        Ok(())
    }

    /// Uses a confirmation link up: the account's own address becomes
    /// confirmed, or the address it asked to move to becomes its address
    /// (signing it out everywhere but `keep`). `NotFound` for an unknown,
    /// used or expired link, or one for an address the account no longer
    /// has or asks for; `EmailTaken` when another account took the address
    /// meanwhile.
    pub fn confirm_email(&self, token: &TokenHash, now: i64, keep: Option<&TokenHash>) -> StoreResult<UserRecord> {
        let tx = self.write()?;
        let record: Option<ConfirmationRecord> =
            tx.open_table(EMAIL_CONFIRMATIONS)?.remove(token.as_slice())?.map(|v| decode(v.value())).transpose()?;
        let Some(record) = record.filter(|r| r.expire > now) else {
            tx.commit()?;
            return Err(StoreError::NotFound);
        };
        let mut user = get_user(&tx, record.user_id)?;
        if record.email == user.email {
            user.email_unconfirmed = false;
        } else if user.pending_email.as_deref() == Some(record.email.as_str()) {
            user = move_email(&tx, user, &record.email, keep)?;
            user.pending_email = None;
            user.email_unconfirmed = false;
        } else {
            tx.commit()?;
            return Err(StoreError::NotFound);
        }
        put_user(&tx, &user)?;
        tx.commit()?;
        Ok(user)
    }

    /// Removes expired confirmation links.
    pub fn sweep_email_confirmations(&self, now: i64) -> StoreResult<()> {
        let tx = self.write()?;
        tx.open_table(EMAIL_CONFIRMATIONS)?
            .retain(|_, value| decode::<ConfirmationRecord>(value).is_ok_and(|r| r.expire > now))?;
        tx.commit()?;
        Ok(())
    }
}

impl OwnerView<'_> {
    /// Changes the profile but the address: the one asked for waits as
    /// `pending_email` until its link is opened. `EmailTaken` when it
    /// already has an account.
    pub fn update_profile_awaiting_email(&self, update: ProfileUpdate) -> StoreResult<UserRecord> {
        let tx = self.store.write()?;
        let mut user = get_user(&tx, self.owner)?;
        let (update, asked) = update.deferring_email(&user.email);
        if asked != user.email && tx.open_table(USERS_BY_EMAIL)?.get(asked.as_str())?.is_some() {
            return Err(StoreError::EmailTaken);
        }
        update.apply_to(&mut user);
        user.pending_email = (asked != user.email).then_some(asked);
        put_user(&tx, &user)?;
        tx.commit()?;
        Ok(user)
    }
}

impl AdminView<'_> {
    /// Takes the account's address as confirmed and drops a change waiting
    /// for its link: the administrator vouches for the address.
    pub fn vouch_for_email(&self, id: UserId) -> StoreResult<UserRecord> {
        let tx = self.store.write()?;
        let mut user = get_user(&tx, id)?;
        user.email_unconfirmed = false;
        user.pending_email = None;
        put_user(&tx, &user)?;
        delete_confirmations_of(&tx, id)?;
        tx.commit()?;
        Ok(user)
    }
}

pub(super) fn delete_confirmations_of(tx: &redb::WriteTransaction, user: UserId) -> StoreResult<()> {
    tx.open_table(EMAIL_CONFIRMATIONS)?
        .retain(|_, v| decode::<ConfirmationRecord>(v).is_ok_and(|r| r.user_id != user))?;
    Ok(())
}

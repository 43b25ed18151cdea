//! The sign-up policy and the invitations that let someone sign up.

use super::codec::{decode, encode};
use super::tables::{INVITATIONS, SETTINGS};
use super::users::insert_user;
use super::views::AdminView;
use super::{Store, StoreError, StoreResult};
use crate::domain::ids::TokenHash;
use crate::domain::signup::{InvitationRecord, SignupPolicy};
use crate::domain::user::{NewUser, UserRecord};

const POLICY: &str = "signup_policy";

impl Store {
    /// The admin's sign-up policy; open until one is set.
    pub fn signup_policy(&self) -> StoreResult<SignupPolicy> {
        let tx = self.read()?;
        let stored = tx.open_table(SETTINGS)?.get(POLICY)?.map(|v| decode(v.value())).transpose()?;
        Ok(stored.unwrap_or_default())
    }

    /// Adds the account of an invited person and uses the invitation up, in
    /// one transaction: an address already taken keeps the invitation, and
    /// two sign-ups with one link make one account. `NotFound` for an
    /// unknown, used or expired invitation, or one for another address.
    pub fn create_invited_user(
        &self,
        invitation: &TokenHash,
        new: NewUser,
        password_hash: String,
        now: i64,
    ) -> StoreResult<UserRecord> {
        let tx = self.write()?;
        let record: Option<InvitationRecord> =
            tx.open_table(INVITATIONS)?.remove(invitation.as_slice())?.map(|v| decode(v.value())).transpose()?;
        if !record.is_some_and(|r| r.admits(new.email(), now)) {
            return Err(StoreError::NotFound);
        }
        let user = insert_user(&tx, new, password_hash, now)?;
        tx.commit()?;
        Ok(user)
    }

    /// Removes expired invitations.
    pub fn sweep_invitations(&self, now: i64) -> StoreResult<()> {
        let tx = self.write()?;
        tx.open_table(INVITATIONS)?.retain(|_, v| decode::<InvitationRecord>(v).is_ok_and(|r| r.expire > now))?;
        tx.commit()?;
        Ok(())
    }
}

impl AdminView<'_> {
    pub fn signup_policy(&self) -> StoreResult<SignupPolicy> {
        self.store.signup_policy()
    }

    pub fn set_signup_policy(&self, policy: &SignupPolicy) -> StoreResult<()> {
        let tx = self.store.write()?;
        tx.open_table(SETTINGS)?.insert(POLICY, encode(policy)?.as_slice())?;
        tx.commit()?;
        Ok(())
    }

    pub fn create_invitation(&self, token: &TokenHash, record: &InvitationRecord) -> StoreResult<()> {
        let tx = self.store.write()?;
        tx.open_table(INVITATIONS)?.insert(token.as_slice(), encode(record)?.as_slice())?;
        tx.commit()?;
        Ok(())
    }
}

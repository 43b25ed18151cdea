use super::codec::{decode, encode};
use super::records::{ResetRecord, get_user, set_password_in};
use super::tables::RESET_TOKENS;
use super::{Store, StoreError, StoreResult};
use crate::domain::ids::{TokenHash, UserId};
use crate::domain::user::UserRecord;

impl Store {
    pub fn create_reset_token(&self, token: &TokenHash, user_id: UserId, expire: i64) -> StoreResult<()> {
        let tx = self.write()?;
        tx.open_table(RESET_TOKENS)?.insert(token.as_slice(), encode(&ResetRecord { user_id, expire })?.as_slice())?;
        tx.commit()?;
        Ok(())
    }

    /// Uses up a reset token to set a new password and sign the user out
    /// everywhere, in one transaction. `NotFound` for an unknown, used or
    /// expired token.
    pub fn reset_password(&self, token: &TokenHash, password_hash: String, now: i64) -> StoreResult<UserRecord> {
        let tx = self.write()?;
        let record: Option<ResetRecord> =
            tx.open_table(RESET_TOKENS)?.remove(token.as_slice())?.map(|v| decode(v.value())).transpose()?;
        let Some(record) = record.filter(|r| r.expire > now) else {
            // An expired token is removed all the same.
            tx.commit()?;
            return Err(StoreError::NotFound);
        };
        set_password_in(&tx, record.user_id, password_hash, None)?;
        let user = get_user(&tx, record.user_id)?;
        tx.commit()?;
        Ok(user)
    }

    /// Removes expired reset tokens.
    pub fn sweep_reset_tokens(&self, now: i64) -> StoreResult<()> {
        let tx = self.write()?;
        tx.open_table(RESET_TOKENS)?.retain(|_, value| decode::<ResetRecord>(value).is_ok_and(|r| r.expire > now))?;
        tx.commit()?;
        Ok(())
    }
}

//! Operations that the HTTP handlers, the control socket and the CLI share,
//! each one function over the store so there is never a second copy.

use std::time::Duration;

use crate::auth::Token;
use crate::clock::now_ms;
use crate::domain::user::UserRecord;
use crate::store::{Store, StoreResult};

/// A single-use password-reset link for the account with `email`
/// (normalised), valid for `ttl`; `None` when no account has that email.
pub fn reset_link(store: &Store, email: &str, base_url: &str, ttl: Duration) -> StoreResult<Option<(UserRecord, String)>> {
    let Some(user) = store.user_by_email(email)? else { return Ok(None) };
    let token = Token::generate();
    store.create_reset_token(&token.hash(), user.id, now_ms() + ttl.as_millis() as i64)?;
    let link = format!("{base_url}/reset-password?token={}", token.as_str());
    Ok(Some((user, link)))
}

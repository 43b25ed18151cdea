//! User accounts, as administrators and the CLI handle them.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{OpError, OpResult};
use crate::auth::Token;
use crate::clock::now_ms;
use crate::domain::ids::UserId;
use crate::domain::text::normalise_email;
use crate::domain::user::{ProfileInput, UserRecord};
use crate::store::{AdminView, Store, StoreResult};

/// A user as `debrief user list` prints it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct UserLine {
    pub id: UserId,
    pub email: String,
    pub name: String,
    pub clients: usize,
}

/// A single-use password-reset link for the account with `email`
/// (normalised), valid for `ttl`; `None` when no account has that email.
pub fn reset_link(
    store: &Store,
    email: &str,
    base_url: &str,
    ttl: Duration,
) -> StoreResult<Option<(UserRecord, String)>> {
    let Some(user) = store.user_by_email(email)? else { return Ok(None) };
    let token = Token::generate();
    store.create_reset_token(&token.hash(), user.id, now_ms() + ttl.as_millis() as i64)?;
    let link = format!("{base_url}/reset-password?token={}", token.as_str());
    Ok(Some((user, link)))
}

/// How long a link that confirms an address stays valid.
pub const CONFIRMATION_TTL: Duration = Duration::from_secs(7 * 24 * 3600);

/// A single-use link that confirms `email` for the account `user_id`: its
/// own address, or the one it asked to move to.
pub fn confirmation_link(store: &Store, user_id: UserId, email: &str, base_url: &str) -> StoreResult<String> {
    let token = Token::generate();
    let expire = now_ms() + CONFIRMATION_TTL.as_millis() as i64;
    store.create_email_confirmation(&token.hash(), user_id, email, expire)?;
    Ok(format!("{base_url}/confirm-email?token={}", token.as_str()))
}

/// Takes the address of the account with `email` as confirmed (the CLI's
/// `user confirm-email`): the administrator vouches for it.
pub fn vouch_by_email(store: &Store, admin: &AdminView<'_>, email: &str) -> OpResult<UserRecord> {
    let user = store
        .user_by_email(&normalise_email(email))?
        .ok_or_else(|| OpError::Failed(format!("no account has the email {email}")))?;
    let user = admin.vouch_for_email(user.id)?;
    tracing::info!(user = %user.id, email = %user.email, "an administrator confirmed the address of an account");
    Ok(user)
}

/// Every account with its number of clients.
pub fn list(admin: &AdminView<'_>) -> OpResult<Vec<UserLine>> {
    let users = admin.users()?;
    let mut lines = Vec::with_capacity(users.len());
    for user in &users {
        let clients = admin.for_user(user.id).clients()?.len();
        let name = format!("{} {}", user.first_name, user.last_name);
        lines.push(UserLine { id: user.id, email: user.email.clone(), name, clients });
    }
    Ok(lines)
}

pub fn delete_by_email(store: &Store, admin: &AdminView<'_>, email: &str) -> OpResult<UserRecord> {
    let user = store
        .user_by_email(&normalise_email(email))?
        .ok_or_else(|| OpError::Failed(format!("no account has the email {email}")))?;
    Ok(admin.delete_user(user.id)?)
}

/// An administrator's edit, validated like the user's own profile form; the
/// LinkedIn address is kept. A changed email signs the user out everywhere.
/// The address the administrator leaves or sets is taken as confirmed, with
/// a log line: sign-up by domain asks users for a link, not administrators.
pub fn update_by_admin(admin: &AdminView<'_>, id: UserId, mut input: ProfileInput) -> OpResult<UserRecord> {
    let user = admin.for_user(id).change_profile(None, |current| {
        input.linkedin_url = current.linkedin_url.clone();
        input.parse().map_err(OpError::Invalid)
    })?;
    if !user.email_unconfirmed && user.pending_email.is_none() {
        return Ok(user);
    }
    let user = admin.vouch_for_email(id)?;
    tracing::info!(user = %user.id, email = %user.email, "an administrator's edit confirmed the address of an account");
    Ok(user)
}

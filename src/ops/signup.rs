//! The sign-up policy and invitations, as the dashboard and the CLI set
//! them, and the check every sign-up passes.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{OpError, OpResult};
use crate::auth::Token;
use crate::clock::now_ms;
use crate::domain::signup::{InvitationRecord, SignupMode, SignupPolicy};
use crate::domain::text::{is_email, normalise_email};
use crate::domain::user::iso_time;
use crate::store::AdminView;

/// How long an invitation link works unless the admin says otherwise.
pub const INVITATION_TTL: Duration = Duration::from_secs(7 * 24 * 3600);

/// An invitation as handed to the admin: the link to pass on.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Invitation {
    pub link: String,
    pub email: Option<String>,
    /// RFC 3339, UTC.
    pub expires_at: String,
}

/// Parses and stores the policy the admin asked for.
pub fn set_policy(admin: &AdminView<'_>, mode: &str, domains: &[String]) -> OpResult<SignupPolicy> {
    let mode: SignupMode = mode.parse().map_err(OpError::Failed)?;
    let policy = SignupPolicy::parse(mode, domains).map_err(OpError::Failed)?;
    admin.set_signup_policy(&policy)?;
    Ok(policy)
}

/// A single-use sign-up link, for `email` alone when one is given.
pub fn invite(admin: &AdminView<'_>, email: Option<&str>, ttl: Duration, base_url: &str) -> OpResult<Invitation> {
    let email = email.map(normalise_email).filter(|e| !e.is_empty());
    if email.as_deref().is_some_and(|e| !is_email(e)) {
        return Err(OpError::Failed("the invitation's address is not an e-mail address".into()));
    }
    let token = Token::generate();
    let now = now_ms();
    let record = InvitationRecord { email: email.clone(), expire: now + ttl.as_millis() as i64, created_at: now };
    admin.create_invitation(&token.hash(), &record)?;
    let link = format!("{base_url}/signup?invitation={}", token.as_str());
    Ok(Invitation { link, email, expires_at: iso_time(record.expire) })
}

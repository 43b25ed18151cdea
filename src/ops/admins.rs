//! Administrator accounts: created from the CLI only, never by default.

use super::{OpError, OpResult};
use crate::auth::hash_blocking;
use crate::clock::now_ms;
use crate::domain::FieldErrors;
use crate::domain::user::PASSWORD_MIN;
use crate::store::{AdminRecord, AdminView};

/// Letters, digits, `.`, `_`, `-`; 3 to 64 characters.
pub fn check_username(username: &str) -> OpResult<()> {
    let mut e = FieldErrors::default();
    e.check(username.is_empty(), "username", "Username is required");
    let ok = (3..=64).contains(&username.chars().count())
        && username.chars().all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-'));
    e.check(!ok, "username", "Username must be 3 to 64 letters, digits, dots, underscores or hyphens");
    e.finish(|| ()).map_err(OpError::Invalid)
}

fn check_password(password: &str) -> OpResult<()> {
    let mut e = FieldErrors::default();
    // Admins guard everyone's data: a longer minimum than users'.
    e.check(
        password.chars().count() < PASSWORD_MIN + 4,
        "password",
        "An admin password must be at least 12 characters",
    );
    e.check(password.chars().count() > 128, "password", "Password must be at most 128 characters");
    e.finish(|| ()).map_err(OpError::Invalid)
}

pub fn create(admin: &AdminView<'_>, username: &str, password: &str) -> OpResult<()> {
    check_username(username)?;
    check_password(password)?;
    let password_hash = hash_blocking(password).map_err(|e| OpError::Failed(e.to_string()))?;
    admin.create_admin(&AdminRecord { username: username.to_owned(), password_hash, created_at: now_ms() })?;
    Ok(())
}

pub fn list(admin: &AdminView<'_>) -> OpResult<Vec<String>> {
    Ok(admin.admins()?.into_iter().map(|a| a.username).collect())
}

pub fn set_password(admin: &AdminView<'_>, username: &str, password: &str) -> OpResult<()> {
    check_password(password)?;
    let password_hash = hash_blocking(password).map_err(|e| OpError::Failed(e.to_string()))?;
    admin.set_admin_password(username, password_hash).map_err(OpError::or_store(|| no_admin(username)))
}

pub fn delete(admin: &AdminView<'_>, username: &str) -> OpResult<()> {
    admin.delete_admin(username).map_err(OpError::or_store(|| no_admin(username)))
}

fn no_admin(username: &str) -> String {
    format!("no admin is named {username}")
}

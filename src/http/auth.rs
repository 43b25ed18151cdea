//! Signing up, in and out, and the session check.

use salvo::prelude::*;
use serde::Serialize;

use super::body::{SMALL, json};
use super::error::{AppError, AppResult};
use super::session::{self, SignedIn};
use super::state::state;
use crate::auth::{Token, address_key};
use crate::clock::now_ms;
use crate::domain::user::{LoginInput, User};
use crate::store::SessionRecord;

#[derive(Serialize)]
pub struct Message {
    pub message: &'static str,
}

/// `GET /api/auth/me`: the signed-in user, or 401.
#[handler]
pub async fn me(depot: &mut Depot) -> AppResult<Json<User>> {
    Ok(Json(User::from(&*session::signed_in(depot)?.user)))
}

/// `GET /api/auth/session`: `{"user": …}` with the signed-in user, or
/// `{"user": null}`, always 200. The app's first-load check asks this,
/// since browsers log every 401 as an error in the console, and nobody
/// signed in is the expected answer there, not a failure.
#[handler]
pub async fn session_probe(depot: &mut Depot) -> Json<SessionProbe> {
    let user = session::signed_in(depot).ok().map(|signed_in| User::from(&*signed_in.user));
    Json(SessionProbe { user })
}

#[derive(Serialize)]
pub struct SessionProbe {
    user: Option<User>,
}

/// `POST /api/auth/login`: a new session (never the one the browser had).
#[handler]
pub async fn login(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<Json<User>> {
    let state = state(depot)?.clone();
    let credentials = json::<LoginInput>(req, SMALL).await?.parse().map_err(AppError::invalid)?;
    let (address, account) = sign_in_keys(req, credentials.email());
    // Counted before the password is checked, so that concurrent guesses
    // cannot all pass the check; taken back when the password is right.
    let attempt = state.login_throttle.attempt(&[&address, &account]).map_err(throttled)?;

    let email = credentials.email().to_owned();
    let user = state.store.run(move |s| s.user_by_email(&email)).await?;
    let hash = user.as_ref().map(|u| u.password_hash.clone());
    // An unknown email costs the same hash as a known one.
    let verified = state.passwords.verify(credentials.into_password(), hash).await?;
    let Some(user) = user.filter(|_| verified) else {
        return Err(AppError::unauthorized("Invalid email or password"));
    };
    attempt.succeeded();
    state.login_throttle.clear(&account);

    if let Some((old, _)) = session::from_cookie(req, &state).await? {
        state.store.run(move |s| s.delete_session(&old.token)).await?;
    }
    let token = Token::generate();
    let now = now_ms();
    let record = SessionRecord {
        user_id: user.id,
        expire: now + state.settings.session_ttl.as_millis() as i64,
        created_at: now,
    };
    let hash = token.hash();
    state.store.run(move |s| s.create_session(&hash, &record)).await?;
    session::set_cookie(res, &state, &token);
    Ok(Json(User::from(&user)))
}

/// The throttle keys a password guess counts against: the address it came
/// from and the account it is for.
pub(super) fn sign_in_keys(req: &Request, email: &str) -> (String, String) {
    (address_key(req.remote_addr().ip()), format!("account:{email}"))
}

pub(super) fn throttled(wait: std::time::Duration) -> AppError {
    let minutes = wait.as_secs().div_ceil(60).max(1);
    AppError::too_many(format!(
        "Too many failed sign-in attempts. Please try again in {minutes} minute{}.",
        if minutes == 1 { "" } else { "s" }
    ))
}

/// `POST /api/auth/logout`: ends the session on the server too, so a copied
/// cookie is worthless afterwards.
#[handler]
pub async fn logout(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<Json<Message>> {
    let state = state(depot)?.clone();
    if let Some((SignedIn { token, .. }, _)) = session::from_cookie(req, &state).await? {
        state.store.run(move |s| s.delete_session(&token)).await?;
    }
    session::clear_cookie(res, &state);
    Ok(Json(Message { message: "Logged out" }))
}

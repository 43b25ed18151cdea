//! The signed-in user of a request, from the session cookie.

use std::sync::Arc;
use std::time::Duration;

use salvo::http::cookie::{Cookie, SameSite};
use salvo::prelude::*;

use super::error::{AppError, AppResult};
use super::state::{AppState, state};
use crate::auth::Token;
use crate::clock::now_ms;
use crate::domain::ids::TokenHash;
use crate::domain::user::UserRecord;
use crate::store::{Owner, OwnerView, SessionRecord, Store, StoreResult};

pub const COOKIE: &str = "debrief_session";

/// A request's user, proven by a live session. Handlers behind
/// [`require_user`] get it with [`signed_in`].
#[derive(Clone)]
pub struct SignedIn {
    pub user: Arc<UserRecord>,
    pub token: TokenHash,
    owner: Owner,
}

impl SignedIn {
    /// Runs `f` on the user's own view of the store, off the async executor.
    pub async fn run<T, F>(&self, store: &Store, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce(OwnerView<'_>) -> StoreResult<T> + Send + 'static,
    {
        let owner = self.owner;
        store.run(move |s| f(s.as_owner(owner))).await
    }
}

/// The session of the request's cookie, if it is live.
pub async fn from_cookie(req: &Request, state: &AppState) -> AppResult<Option<(SignedIn, SessionRecord)>> {
    let Some(token) = req.cookie(COOKIE).and_then(|c| Token::from_client(c.value())) else { return Ok(None) };
    let hash = token.hash();
    let found = state.store.session(&hash, now_ms())?;
    Ok(found.map(|live| (SignedIn { user: live.user, token: hash, owner: live.owner }, live.record)))
}

/// Lets the request through only with a live session, and slides its
/// expiry forward.
#[handler]
pub async fn require_user(req: &mut Request, depot: &mut Depot, res: &mut Response, ctrl: &mut FlowCtrl) {
    match live_session(req, depot).await.and_then(|found| found.ok_or_else(not_signed_in)) {
        Ok(signed_in) => {
            depot.insert_typed(signed_in);
        }
        Err(e) => {
            res.render(e);
            ctrl.skip_rest();
        }
    }
}

/// Like [`require_user`], but lets a request without a session through
/// too: [`signed_in`] then says nobody is.
#[handler]
pub async fn probe_user(req: &mut Request, depot: &mut Depot, res: &mut Response, ctrl: &mut FlowCtrl) {
    match live_session(req, depot).await {
        Ok(found) => {
            if let Some(signed_in) = found {
                depot.insert_typed(signed_in);
            }
        }
        Err(e) => {
            res.render(e);
            ctrl.skip_rest();
        }
    }
}

/// The request's live session, its expiry slid forward (at most once an
/// hour, to spare the disk).
async fn live_session(req: &Request, depot: &Depot) -> AppResult<Option<SignedIn>> {
    let state = state(depot)?;
    let Some((signed_in, session)) = from_cookie(req, state).await? else { return Ok(None) };
    let ttl = state.settings.session_ttl.as_millis() as i64;
    let expire = now_ms() + ttl;
    if expire - session.expire > Duration::from_secs(3600).as_millis() as i64 {
        let token = signed_in.token;
        state.store.run(move |s| s.extend_session(&token, expire)).await?;
    }
    Ok(Some(signed_in))
}

pub fn not_signed_in() -> AppError {
    AppError::unauthorized("Not signed in")
}

/// The user [`require_user`] let through.
pub fn signed_in(depot: &Depot) -> AppResult<&SignedIn> {
    depot.get_typed::<SignedIn>().map_err(|_| not_signed_in())
}

pub fn set_cookie(res: &mut Response, state: &AppState, token: &Token) {
    let max_age = salvo::http::cookie::time::Duration::seconds(state.settings.session_ttl.as_secs() as i64);
    res.add_cookie(base_cookie(state, token.as_str().to_owned()).max_age(max_age).build());
}

pub fn clear_cookie(res: &mut Response, state: &AppState) {
    res.add_cookie(base_cookie(state, String::new()).max_age(salvo::http::cookie::time::Duration::ZERO).build());
}

fn base_cookie(state: &AppState, value: String) -> salvo::http::cookie::CookieBuilder<'static> {
    Cookie::build((COOKIE, value)).http_only(true).same_site(SameSite::Lax).path("/").secure(state.secure_cookies)
}

//! The administrator's API. Every route below `/api/admin` but the login
//! sits behind [`require_admin`], and each handler starts from
//! [`AdminSession`], which only that hoop creates. The store's reads across
//! users open only with the proof it carries: a handler cannot be reached,
//! or written, without an admin's live session.

mod clients;
mod insights;
mod login;
mod outbox;
mod signup;
mod storage;
mod template;
mod users;

use salvo::http::cookie::{Cookie, SameSite};
use salvo::prelude::*;

use super::error::{AppError, AppResult};
use super::state::{AppState, state};
use crate::auth::Token;
use crate::clock::now_ms;
use crate::store::{Admin, AdminView, Store, StoreResult};

pub const COOKIE: &str = "debrief_admin";

/// Proof of a live admin session, read from the store on this request (a
/// deleted admin's session stops working at once).
#[derive(Clone)]
pub struct AdminSession {
    username: String,
    admin: Admin,
}

impl AdminSession {
    /// The session [`require_admin`] established for this request.
    pub fn of(depot: &Depot) -> AppResult<&AdminSession> {
        depot.get_typed::<AdminSession>().map_err(|_| AppError::unauthorized("Admin sign-in required"))
    }

    pub fn username(&self) -> &str {
        &self.username
    }

    /// Runs `f` on the store's admin view, off the async executor.
    pub async fn run<T, F>(&self, store: &Store, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce(AdminView<'_>) -> StoreResult<T> + Send + 'static,
    {
        let admin = self.admin.clone();
        store.run(move |s| f(s.as_admin(&admin))).await
    }
}

pub fn router() -> Router {
    Router::with_path("admin")
        .push(Router::with_path("login").post(login::login))
        .push(Router::with_path("logout").post(login::logout))
        .push(
            Router::new()
                .hoop(require_admin)
                .push(Router::with_path("session").get(login::session))
                .push(Router::with_path("users").get(users::list))
                .push(Router::with_path("users/{id}").put(users::update).delete(users::delete))
                .push(Router::with_path("users/{id}/picture").get(users::picture))
                .push(Router::with_path("clients").get(clients::list))
                .push(Router::with_path("insights").get(insights::read))
                .push(Router::with_path("outbox").get(outbox::list))
                .push(Router::with_path("clients/{id}").put(clients::update).delete(clients::delete))
                .push(Router::with_path("email-template").get(template::read).put(template::update))
                .push(Router::with_path("signup-policy").get(signup::read).put(signup::update))
                .push(Router::with_path("storage").get(storage::read).put(storage::update))
                .push(Router::with_path("invitations").post(signup::create)),
        )
}

/// 401 without an admin session; 403 for a signed-in user who is no admin.
#[handler]
async fn require_admin(req: &mut Request, depot: &mut Depot, res: &mut Response, ctrl: &mut FlowCtrl) {
    match admin_of(req, depot).await {
        Ok(session) => {
            depot.insert_typed(session);
        }
        Err(e) => {
            res.render(e);
            ctrl.skip_rest();
        }
    }
}

async fn admin_of(req: &Request, depot: &Depot) -> AppResult<AdminSession> {
    let state = state(depot)?.clone();
    let token = req.cookie(COOKIE).and_then(|c| Token::from_client(c.value())).map(|t| t.hash());
    if let Some(token) = token {
        let idle = now_ms() + state.settings.admin_idle.as_millis() as i64;
        if let Some((record, admin)) = state.store.run(move |s| s.admin_session(&token, now_ms(), idle)).await? {
            return Ok(AdminSession { username: record.username, admin });
        }
    }
    if super::session::from_cookie(req, &state).await?.is_some() {
        return Err(AppError::forbidden("Administrators only"));
    }
    Err(AppError::unauthorized("Admin sign-in required"))
}

fn set_cookie(res: &mut Response, state: &AppState, token: &Token) {
    let max_age = salvo::http::cookie::time::Duration::seconds(state.settings.admin_max_age.as_secs() as i64);
    res.add_cookie(cookie(state, token.as_str().to_owned()).max_age(max_age).build());
}

fn clear_cookie(res: &mut Response, state: &AppState) {
    res.add_cookie(cookie(state, String::new()).max_age(salvo::http::cookie::time::Duration::ZERO).build());
}

/// Strict: the admin cookie never rides along a request started elsewhere.
fn cookie(state: &AppState, value: String) -> salvo::http::cookie::CookieBuilder<'static> {
    Cookie::build((COOKIE, value)).http_only(true).same_site(SameSite::Strict).path("/").secure(state.secure_cookies)
}

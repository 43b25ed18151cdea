use salvo::prelude::*;
use serde::{Deserialize, Serialize};

use super::{AdminSession, clear_cookie, set_cookie};
use crate::auth::{Token, address_key};
use crate::clock::now_ms;
use crate::domain::FieldErrors;
use crate::http::auth::Message;
use crate::http::body::{SMALL, json};
use crate::http::error::{AppError, AppResult};
use crate::http::state::state;
use crate::store::AdminSessionRecord;

#[derive(Deserialize)]
struct LoginInput {
    #[serde(default)]
    username: Option<String>,
    #[serde(default)]
    password: Option<String>,
}

#[derive(Serialize)]
pub struct AdminView {
    username: String,
}

/// `POST /api/admin/login` `{username, password}`: a new admin session.
#[handler]
pub async fn login(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<Json<AdminView>> {
    let state = state(depot)?.clone();
    let input: LoginInput = json(req, SMALL).await?;
    let (username, password) =
        (input.username.unwrap_or_default().trim().to_owned(), input.password.unwrap_or_default());
    let mut e = FieldErrors::default();
    e.check(username.is_empty(), "username", "Username is required");
    e.check(password.is_empty(), "password", "Password is required");
    e.check(password.chars().count() > 128, "password", "Password must be at most 128 characters");
    e.finish(|| ()).map_err(AppError::invalid)?;

    let address = format!("admin-{}", address_key(req.remote_addr().ip()));
    let account = format!("admin:{username}");
    let attempt = state
        .admin_throttle
        .attempt(&[&address, &account])
        .map_err(|_| AppError::too_many("Too many failed admin sign-in attempts. Please try again later."))?;
    let name = username.clone();
    let admin = state.store.run(move |s| s.admin(&name)).await?;
    let verified = state.passwords.verify(password, admin.as_ref().map(|a| a.password_hash.clone())).await?;
    let Some(admin) = admin.filter(|_| verified) else {
        return Err(AppError::unauthorized("Invalid username or password"));
    };
    attempt.succeeded();

    if let Some(old) = req.cookie(super::COOKIE).and_then(|c| Token::from_client(c.value())) {
        let old = old.hash();
        state.store.run(move |s| s.delete_admin_session(&old)).await?;
    }
    let token = Token::generate();
    let now = now_ms();
    let record = AdminSessionRecord {
        username: admin.username.clone(),
        hard_expire: now + state.settings.admin_max_age.as_millis() as i64,
        idle_expire: now + state.settings.admin_idle.as_millis() as i64,
    };
    let hash = token.hash();
    state.store.run(move |s| s.create_admin_session(&hash, &record)).await?;
    set_cookie(res, &state, &token);
    Ok(Json(AdminView { username: admin.username }))
}

/// `POST /api/admin/logout`: ends the admin session on the server.
#[handler]
pub async fn logout(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<Json<Message>> {
    let state = state(depot)?.clone();
    if let Some(token) = req.cookie(super::COOKIE).and_then(|c| Token::from_client(c.value())) {
        let hash = token.hash();
        state.store.run(move |s| s.delete_admin_session(&hash)).await?;
    }
    clear_cookie(res, &state);
    Ok(Json(Message { message: "Logged out" }))
}

/// `GET /api/admin/session`: who is signed in as admin.
#[handler]
pub async fn session(depot: &mut Depot) -> AppResult<Json<AdminView>> {
    let admin = AdminSession::of(depot)?;
    Ok(Json(AdminView { username: admin.username().to_owned() }))
}

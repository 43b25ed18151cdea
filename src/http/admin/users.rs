use salvo::prelude::*;

use super::AdminSession;
use crate::domain::user::{ProfileInput, User, UserId};
use crate::http::auth::Message;
use crate::http::body::{SMALL, json};
use crate::http::error::{AppError, AppResult};
use crate::http::state::state;

fn user_id(req: &Request) -> AppResult<UserId> {
    req.param::<UserId>("id").ok_or_else(|| AppError::not_found("User not found"))
}

/// `GET /api/admin/users`.
#[handler]
pub async fn list(depot: &mut Depot) -> AppResult<Json<Vec<User>>> {
    AdminSession::of(depot)?;
    let state = state(depot)?.clone();
    let users = state.store.run(|s| s.users()).await?;
    Ok(Json(users.iter().map(User::from).collect()))
}

/// `PUT /api/admin/users/{id}` `{firstName, lastName, email, company,
/// position}`: validated like the user's own profile.
#[handler]
pub async fn update(req: &mut Request, depot: &mut Depot) -> AppResult<Json<User>> {
    AdminSession::of(depot)?;
    let state = state(depot)?.clone();
    let id = user_id(req)?;
    let input: ProfileInput = json(req, SMALL).await?;
    let user = state.store.run(move |s| Ok(crate::ops::accounts::update_by_admin(s, id, input))).await??;
    Ok(Json(User::from(&user)))
}

/// `DELETE /api/admin/users/{id}`: the account and everything that is theirs.
#[handler]
pub async fn delete(req: &mut Request, depot: &mut Depot) -> AppResult<Json<Message>> {
    AdminSession::of(depot)?;
    let state = state(depot)?.clone();
    let id = user_id(req)?;
    state.store.run(move |s| s.delete_user(id)).await.map_err(|e| match e {
        crate::store::StoreError::NotFound => AppError::not_found("User not found"),
        other => other.into(),
    })?;
    Ok(Json(Message { message: "User deleted" }))
}

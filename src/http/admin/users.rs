use salvo::prelude::*;

use super::AdminSession;
use crate::domain::ids::UserId;
use crate::domain::user::{ProfileInput, User};
use crate::http::auth::Message;
use crate::http::body::{SMALL, json};
use crate::http::error::{AppError, AppResult};
use crate::http::state::state;

fn user_id(req: &Request) -> AppResult<UserId> {
    req.param::<UserId>("id").ok_or_else(|| AppError::not_found("User not found"))
}

/// `GET /api/admin/users`; profile pictures are linked through the admin
/// route, since `/api/profile/picture` is each user's own.
#[handler]
pub async fn list(depot: &mut Depot) -> AppResult<Json<Vec<User>>> {
    AdminSession::of(depot)?;
    let state = state(depot)?.clone();
    let users = state.store.run(|s| s.users()).await?;
    let view = |record: &crate::domain::user::UserRecord| User {
        profile_image_url: record.avatar.map(|blob| format!("/api/admin/users/{}/picture?v={blob}", record.id)),
        ..User::from(record)
    };
    Ok(Json(users.iter().map(view).collect()))
}

/// `GET /api/admin/users/{id}/picture`.
#[handler]
pub async fn picture(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<()> {
    AdminSession::of(depot)?;
    let state = state(depot)?.clone();
    let id = user_id(req)?;
    let no_picture = || AppError::not_found("No profile picture");
    let blob = state.store.run(move |s| s.user(id)).await?.and_then(|u| u.avatar).ok_or_else(no_picture)?;
    crate::http::blob::send(req, res, &state.store, blob, no_picture).await
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

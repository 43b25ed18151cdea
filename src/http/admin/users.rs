use salvo::prelude::*;

use super::AdminSession;
use crate::domain::ids::UserId;
use crate::domain::user::{ProfileInput, User, UserRecord};
use crate::http::auth::Message;
use crate::http::body::{SMALL, json};
use crate::http::error::{AppError, AppResult};
use crate::http::state::state;

fn user_id(req: &Request) -> AppResult<UserId> {
    req.param::<UserId>("id").ok_or_else(user_not_found)
}

fn user_not_found() -> AppError {
    AppError::not_found("User not found")
}

/// `GET /api/admin/users`; profile pictures are linked through the admin
/// route, since `/api/profile/picture` is each user's own.
#[handler]
pub async fn list(depot: &mut Depot) -> AppResult<Json<Vec<User>>> {
    let (admin, state) = (AdminSession::of(depot)?, state(depot)?);
    let users = admin.run(&state.store, |admin| admin.users()).await?;
    let view = |record: &UserRecord| User {
        profile_image_url: record.avatar.map(|blob| format!("/api/admin/users/{}/picture?v={blob}", record.id)),
        ..User::from(record)
    };
    Ok(Json(users.iter().map(view).collect()))
}

/// `GET /api/admin/users/{id}/picture`.
#[handler]
pub async fn picture(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<()> {
    let (admin, state) = (AdminSession::of(depot)?, state(depot)?);
    let id = user_id(req)?;
    let no_picture = || AppError::not_found("No profile picture");
    let blob = admin
        .run(&state.store, move |admin| admin.for_user(id).avatar())
        .await
        .map_err(AppError::or_store(no_picture))?;
    crate::http::blob::send(req, res, &state.store, blob.ok_or_else(no_picture)?)
}

/// `PUT /api/admin/users/{id}` `{firstName, lastName, email, company,
/// position}`: validated like the user's own profile.
#[handler]
pub async fn update(req: &mut Request, depot: &mut Depot) -> AppResult<Json<User>> {
    let (admin, state) = (AdminSession::of(depot)?.clone(), state(depot)?.clone());
    let id = user_id(req)?;
    let input: ProfileInput = json(req, SMALL).await?;
    let user =
        admin.run(&state.store, move |admin| Ok(crate::ops::accounts::update_by_admin(&admin, id, input))).await??;
    Ok(Json(User::from(&user)))
}

/// `DELETE /api/admin/users/{id}`: the account and everything that is theirs.
#[handler]
pub async fn delete(req: &mut Request, depot: &mut Depot) -> AppResult<Json<Message>> {
    let (admin, state) = (AdminSession::of(depot)?, state(depot)?);
    let id = user_id(req)?;
    admin.run(&state.store, move |admin| admin.delete_user(id)).await.map_err(AppError::or_store(user_not_found))?;
    Ok(Json(Message { message: "User deleted" }))
}

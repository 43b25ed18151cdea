//! The signed-in user's own profile, password and picture.

use salvo::prelude::*;
use serde::Deserialize;

use super::auth::{Message, sign_in_keys, throttled};
use super::body::{SMALL, json};
use super::error::{AppError, AppResult};
use super::session::signed_in;
use super::state::state;
use crate::domain::image::{self, ImageError};
use crate::domain::user::{NewPasswordInput, ProfileInput, User};

/// `PUT /api/profile`: a changed email must be free and signs the user's
/// other browsers out. Where the sign-up policy names domains, a new
/// address must be in one of them and takes effect only when the link
/// mailed to it is opened; the rest of the form is saved at once.
#[handler]
pub async fn update(req: &mut Request, depot: &mut Depot) -> AppResult<Json<User>> {
    let state = state(depot)?.clone();
    let me = signed_in(depot)?.clone();
    let changes = json::<ProfileInput>(req, SMALL).await?.parse().map_err(AppError::invalid)?;
    let token = me.token;
    if changes.email() == me.user.email.as_str() {
        let user = me.run(&state.store, move |mine| mine.update_profile(changes, Some(&token))).await?;
        return Ok(Json(User::from(&user)));
    }
    // The admin's sign-up domains hold for a changed address too: an account
    // admitted for firm.example cannot move its address out of it.
    let policy = state.store.run(|s| s.signup_policy()).await?;
    policy.admits_address(changes.email()).map_err(|refusal| {
        AppError::invalid(vec![crate::domain::FieldError { field: "email".into(), message: refusal.message() }])
    })?;
    if policy.domains().is_empty() {
        let user = me.run(&state.store, move |mine| mine.update_profile(changes, Some(&token))).await?;
        return Ok(Json(User::from(&user)));
    }
    let asked = changes.email().to_owned();
    let user = me.run(&state.store, move |mine| mine.update_profile_awaiting_email(changes)).await?;
    super::confirm_email::send_link_later(&state, &user, asked);
    Ok(Json(User::from(&user)))
}

/// `PUT /api/profile/password`: `{currentPassword, password,
/// confirmPassword}`; signs the user's other browsers out.
#[handler]
pub async fn change_password(req: &mut Request, depot: &mut Depot) -> AppResult<Json<Message>> {
    let state = state(depot)?.clone();
    let me = signed_in(depot)?.clone();
    let input = json::<NewPasswordInput>(req, SMALL).await?;
    let current = input.current_password.clone().unwrap_or_default();
    let password = input.parse().map_err(AppError::invalid)?;
    // The current password is a password guess like a sign-in: counted
    // against the same address and account, before it is checked.
    let (address, account) = sign_in_keys(req, me.user.email.as_str());
    let attempt = state.login_throttle.attempt(&[&address, &account]).map_err(throttled)?;
    if !state.passwords.verify(current, Some(me.user.password_hash.clone())).await? {
        return Err(AppError::invalid(vec![crate::domain::FieldError {
            field: "currentPassword".into(),
            message: "Current password is incorrect".into(),
        }]));
    }
    attempt.succeeded();
    let hash = state.passwords.hash(password).await?;
    let token = me.token;
    me.run(&state.store, move |mine| mine.set_password(hash, Some(&token))).await?;
    Ok(Json(Message { message: "Password changed" }))
}

#[derive(Deserialize)]
struct PictureInput {
    picture: String,
}

/// `POST /api/profile/picture`: `{picture: data URL}`, a JPEG, PNG or WebP
/// checked by its content.
#[handler]
pub async fn upload_picture(req: &mut Request, depot: &mut Depot) -> AppResult<Json<User>> {
    let state = state(depot)?.clone();
    let me = signed_in(depot)?.clone();
    state.ensure_room(image::DATA_URL_MAX as u64)?;
    let input: PictureInput = json(req, image::DATA_URL_MAX + 1024).await?;
    let (mime, bytes) = image::from_data_url(&input.picture).map_err(|e| match e {
        ImageError::TooLarge | ImageError::TooManyPixels => {
            AppError::too_large("Photo is too large. Please try a smaller image or take a new photo.")
        }
        ImageError::Malformed => AppError::bad_request("The picture is not a data URL"),
        ImageError::Unsupported => AppError::unsupported("The picture must be a JPEG, PNG or WebP image"),
        ImageError::Unreadable => AppError::unsupported("The picture cannot be read: its size is not in its header"),
    })?;
    let user = me.run(&state.store, move |mine| mine.set_avatar(Some((mime, &bytes)))).await?;
    Ok(Json(User::from(&user)))
}

/// `DELETE /api/profile/picture`.
#[handler]
pub async fn delete_picture(depot: &mut Depot) -> AppResult<Json<User>> {
    let state = state(depot)?.clone();
    let me = signed_in(depot)?.clone();
    let user = me.run(&state.store, |mine| mine.set_avatar(None)).await?;
    Ok(Json(User::from(&user)))
}

/// `GET /api/profile/picture?v=…`: the URL changes with the picture, so it
/// may be cached for good (privately: it is personal).
#[handler]
pub async fn picture(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<()> {
    let state = state(depot)?.clone();
    let blob =
        signed_in(depot)?.run(&state.store, |mine| mine.avatar()).await.map_err(AppError::or_store(no_picture))?;
    super::blob::send(req, res, &state.store, blob.ok_or_else(no_picture)?)
}

fn no_picture() -> AppError {
    AppError::not_found("No profile picture")
}

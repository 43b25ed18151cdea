//! Creating an account, as far as the admin's sign-up policy allows.

use salvo::prelude::*;

use super::auth::throttled;
use super::body::{SMALL, json};
use super::error::{AppError, AppResult};
use super::state::state;
use crate::auth::{Token, address_key};
use crate::clock::now_ms;
use crate::domain::FieldError;
use crate::domain::signup::{SignupPolicy, SignupRefusal};
use crate::domain::user::{SignupInput, User};
use crate::store::StoreError;

/// `GET /api/auth/signup-policy`: `{mode, domains}`, so the sign-up screen
/// can say before anyone types whether and with which address they can
/// sign up.
#[handler]
pub async fn policy(depot: &mut Depot) -> AppResult<Json<SignupPolicy>> {
    let state = state(depot)?.clone();
    Ok(Json(state.store.run(|s| s.signup_policy()).await?))
}

/// `POST /api/auth/signup`: creates the account; signing in is a separate
/// step. With sign-up by invitation, `invitation` carries the link's token.
#[handler]
pub async fn signup(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<Json<User>> {
    let state = state(depot)?.clone();
    let input = json::<SignupInput>(req, SMALL).await?;
    let new = input.parse().map_err(AppError::invalid)?;
    // An invitation counts only where the policy asks for one: a link that
    // outlived a switch to open sign-up does not stand in the way. A token
    // of the wrong shape is no invitation; one of the right shape is
    // checked when it is used up.
    let rules = state.store.run(|s| s.signup_policy()).await?;
    let invitation = match rules.admits(new.email(), false) {
        Ok(()) => None,
        Err(refusal) => {
            let Some(token) = input.invitation.as_deref().filter(|t| !t.is_empty()) else {
                return Err(refused(refusal));
            };
            let token = Token::from_client(token).ok_or_else(invalid_invitation)?;
            rules.admits(new.email(), true).map_err(refused)?;
            Some(token.hash())
        }
    };
    // "This email has an account" must be said to a person signing up, so
    // asking it counts against the address like a failed sign-in: probing
    // for accounts (or invitations) here costs as much as guessing passwords.
    let address = address_key(req.remote_addr().ip());
    let attempt = state.login_throttle.attempt(&[&address]).map_err(throttled)?;
    // Accounts made, counted per address (`--signups-per-hour`): each may
    // send follow-ups, so one machine cannot make a thousand.
    let made = state.signup_throttle.attempt(&[&address]).map_err(|wait| {
        let minutes = wait.as_secs().div_ceil(60).max(1);
        AppError::too_many(format!(
            "Too many accounts were created from this address. Please try again in {minutes} minute{}.",
            if minutes == 1 { "" } else { "s" }
        ))
        .retry_after(wait.as_secs().max(1))
    })?;
    let hash = state.passwords.hash(new.password().to_owned()).await?;
    let now = now_ms();
    // Where the policy names domains, the address must be shown to be the
    // signer's own before it sends anything: a link goes to it. An
    // invitation was mailed to its address by the admin, which shows it.
    let unconfirmed = invitation.is_none() && !rules.domains().is_empty();
    let created = match invitation {
        Some(token) => state.store.run(move |s| s.create_invited_user(&token, new, hash, now)).await,
        None => state.store.run(move |s| s.create_user(new, hash, now, unconfirmed)).await,
    };
    let user = match created {
        Err(e @ StoreError::EmailTaken) => return Err(e.into()),
        Err(StoreError::NotFound) => return Err(invalid_invitation()),
        other => other?,
    };
    attempt.succeeded();
    if unconfirmed {
        super::confirm_email::send_link_later(&state, &user, user.email.clone());
    }
    // Left unmarked, the attempt counts: the account was made.
    drop(made);
    res.status_code(StatusCode::CREATED);
    Ok(Json(User::from(&user)))
}

fn refused(refusal: SignupRefusal) -> AppError {
    match refusal {
        SignupRefusal::Domain(_) => {
            AppError::invalid(vec![FieldError { field: "email".into(), message: refusal.message() }])
        }
        SignupRefusal::Closed | SignupRefusal::InvitationNeeded => AppError::forbidden(refusal.message()),
    }
}

fn invalid_invitation() -> AppError {
    AppError::forbidden(
        "This invitation link is invalid, used, for another address or has expired. Ask your administrator for a new one.",
    )
}

//! Confirming an address by a link mailed to it, where the sign-up policy
//! names domains: whoever signs up as ceo@firm.example must read that
//! mailbox before their follow-ups go out with it as Reply-To.

use salvo::prelude::*;
use serde::Deserialize;

use super::auth::Message;
use super::body::{SMALL, json};
use super::error::{AppError, AppResult};
use super::session::{self, signed_in};
use super::state::{AppState, state};
use crate::auth::Token;
use crate::clock::now_ms;
use crate::domain::user::UserRecord;
use crate::mail::{Outgoing, Recipient};
use crate::ops::accounts::{CONFIRMATION_TTL, confirmation_link};
use crate::store::StoreError;

/// Mails `user` a link that confirms `email` (their address, or the one
/// they asked to move to), after the answer: a slow SMTP server does not
/// hold up sign-up.
pub fn send_link_later(state: &AppState, user: &UserRecord, email: String) {
    let (state, user) = (state.clone(), user.clone());
    tokio::spawn(async move {
        if let Err(e) = send_link(&state, &user, email).await {
            tracing::error!("sending an address-confirmation email: {e:#}");
        }
    });
}

async fn send_link(state: &AppState, user: &UserRecord, email: String) -> anyhow::Result<()> {
    let (base, id, to) = (state.public_url.clone(), user.id, email.clone());
    let link = state.store.run(move |s| confirmation_link(s, id, &to, &base)).await?;
    let days = CONFIRMATION_TTL.as_secs() / (24 * 3600);
    let text = format!(
        "Hello {},\n\nPlease confirm that {email} is your address for Debrief.\n\n\
         Until you do, Debrief sends no follow-up from your account. Open this link within {days} days:\n\n\
         {link}\n\nThe link works once. If you did not ask for this, ignore this email.\n",
        user.first_name
    );
    let mail = Outgoing {
        from_name: "Debrief".to_owned(),
        to: Recipient { name: Some(format!("{} {}", user.first_name, user.last_name)), email },
        reply_to: None,
        subject: "Confirm your email address for Debrief".to_owned(),
        text,
        html: None,
    };
    crate::ops::mail::send(&state.store, &state.mailer, mail).await?;
    Ok(())
}

#[derive(Deserialize)]
struct ConfirmInput {
    #[serde(default)]
    token: String,
}

/// `POST /api/auth/confirm-email`: `{token}` from the mailed link. Works
/// signed in or not; a changed address signs out every other browser.
#[handler]
pub async fn confirm(req: &mut Request, depot: &mut Depot) -> AppResult<Json<Message>> {
    let state = state(depot)?.clone();
    let input: ConfirmInput = json(req, SMALL).await?;
    let token = Token::from_client(&input.token).ok_or_else(invalid_link)?.hash();
    let keep = session::from_cookie(req, &state).await?.map(|(me, _)| me.token);
    let user =
        state.store.run(move |s| s.confirm_email(&token, now_ms(), keep.as_ref())).await.map_err(|e| match e {
            StoreError::EmailTaken => AppError::conflict("This email is already registered to another account."),
            e => AppError::or_store(invalid_link)(e),
        })?;
    tracing::info!(user = %user.id, "an address was confirmed by its link");
    Ok(Json(Message { message: "Your email address is confirmed." }))
}

/// `POST /api/profile/confirm-email`: mails the link again, for the
/// address waiting for it; at most a few an hour.
#[handler]
pub async fn resend(depot: &mut Depot) -> AppResult<Json<Message>> {
    let state = state(depot)?.clone();
    let me = signed_in(depot)?.clone();
    let user = me.user.as_ref();
    let email = match (&user.pending_email, user.email_unconfirmed) {
        (Some(pending), _) => pending.clone(),
        (None, true) => user.email.clone(),
        (None, false) => return Err(AppError::bad_request("Your email address is already confirmed.")),
    };
    let key = format!("confirm:{}", user.id);
    let _ = state.reset_throttle.attempt(&[&key]).map_err(|wait| {
        AppError::too_many("A confirmation link was just sent. Please check your inbox.")
            .retry_after(wait.as_secs().max(1))
    })?;
    send_link_later(&state, user, email);
    Ok(Json(Message { message: "We sent a confirmation link to your email address." }))
}

fn invalid_link() -> AppError {
    AppError::bad_request("This confirmation link is invalid, used or has expired. Sign in to ask for a new one.")
}

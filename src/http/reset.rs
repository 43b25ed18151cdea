//! Forgotten passwords: a link by email, a new password from the link.

use salvo::prelude::*;

use super::auth::Message;
use super::body::{SMALL, json};
use super::error::{AppError, AppResult};
use super::session;
use super::state::{AppState, state};
use crate::auth::Token;
use crate::clock::now_ms;
use crate::domain::user::{NewPasswordInput, ResetRequestInput};
use crate::mail::{Outgoing, Recipient};

/// `POST /api/auth/reset-password`: answers the same whether or not the
/// email has an account; the email (if any) is sent after answering.
#[handler]
pub async fn request(req: &mut Request, depot: &mut Depot) -> AppResult<Json<Message>> {
    let state = state(depot)?.clone();
    let email = json::<ResetRequestInput>(req, SMALL).await?.parse().map_err(AppError::invalid)?;
    let key = format!("reset:{email}");
    if state.reset_throttle.attempt(&[&key]).is_err() {
        // Same answer as ever: the limit must not tell whether the account exists.
        tracing::warn!("a password-reset email held back: too many asked for one address");
        return Ok(Json(Message { message: SENT }));
    }
    tokio::spawn(async move {
        if let Err(e) = send_reset_link(&state, email).await {
            tracing::error!("sending a password-reset email: {e:#}");
        }
    });
    Ok(Json(Message { message: SENT }))
}

const SENT: &str = "If an account with this email exists, you'll receive reset instructions.";

/// Reset emails one address can be sent while a link lives.
pub const EMAILS_PER_LINK_LIFETIME: usize = 3;

async fn send_reset_link(state: &AppState, email: String) -> anyhow::Result<()> {
    let (base, ttl) = (state.public_url.clone(), state.settings.reset_ttl);
    let Some((user, link)) = state.store.run(move |s| crate::ops::accounts::reset_link(s, &email, &base, ttl)).await?
    else {
        return Ok(());
    };
    let minutes = ttl.as_secs().div_ceil(60);
    let text = format!(
        "Hello {},\n\nSomeone asked to reset the password of your Debrief account ({}).\n\n\
         To choose a new password, open this link within {minutes} minutes:\n\n{link}\n\n\
         The link works once. If you did not ask for this, ignore this email: your password stays as it is.\n",
        user.first_name, user.email
    );
    let mail = Outgoing {
        from_name: "Debrief".to_owned(),
        to: Recipient { name: Some(format!("{} {}", user.first_name, user.last_name)), email: user.email.clone() },
        reply_to: None,
        subject: "Reset your Debrief password".to_owned(),
        text,
        html: None,
    };
    crate::ops::mail::send(&state.store, &state.mailer, mail).await?;
    Ok(())
}

fn invalid_link() -> AppError {
    AppError::bad_request("This reset link is invalid or has expired. Please request a new one.")
}

/// `POST /api/auth/reset-password/confirm`: `{token, password,
/// confirmPassword}`. Uses the token up, sets the password and signs the
/// user out everywhere, this browser included.
#[handler]
pub async fn confirm(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<Json<Message>> {
    let state = state(depot)?.clone();
    let input = json::<NewPasswordInput>(req, SMALL).await?;
    let token = input.token.as_deref().and_then(Token::from_client).ok_or_else(invalid_link)?;
    let password = input.parse().map_err(AppError::invalid)?;
    let hash = state.passwords.hash(password).await?;
    let token_hash = token.hash();
    state
        .store
        .run(move |s| s.reset_password(&token_hash, hash, now_ms()))
        .await
        .map_err(AppError::or_store(invalid_link))?;
    session::clear_cookie(res, &state);
    Ok(Json(Message { message: "Your password has been reset. Please sign in." }))
}

//! The sign-up policy and invitation links, from the dashboard.

use salvo::prelude::*;
use serde::{Deserialize, Serialize};

use super::AdminSession;
use crate::domain::signup::SignupPolicy;
use crate::http::body::{SMALL, json};
use crate::http::error::{AppError, AppResult};
use crate::http::state::{AppState, state};
use crate::mail::{Delivery, Outgoing, Recipient};
use crate::ops::signup::{self, INVITATION_TTL, Invitation};

/// `GET /api/admin/signup-policy`.
#[handler]
pub async fn read(depot: &mut Depot) -> AppResult<Json<SignupPolicy>> {
    let (admin, state) = (AdminSession::of(depot)?.clone(), state(depot)?.clone());
    Ok(Json(admin.run(&state.store, |admin| admin.signup_policy()).await?))
}

#[derive(Deserialize)]
struct PolicyInput {
    mode: String,
    #[serde(default)]
    domains: Vec<String>,
}

/// `PUT /api/admin/signup-policy`: `{mode: "open" | "invitation" | "closed", domains: [...]}`.
#[handler]
pub async fn update(req: &mut Request, depot: &mut Depot) -> AppResult<Json<SignupPolicy>> {
    let (admin, state) = (AdminSession::of(depot)?.clone(), state(depot)?.clone());
    let input: PolicyInput = json(req, SMALL).await?;
    let policy =
        admin.run(&state.store, move |admin| Ok(signup::set_policy(&admin, &input.mode, &input.domains))).await??;
    Ok(Json(policy))
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct InviteInput {
    email: Option<String>,
    /// E-mail the link to `email` as well.
    send: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Invited {
    #[serde(flatten)]
    invitation: Invitation,
    /// `sent`, `outbox` or absent when not e-mailed.
    #[serde(skip_serializing_if = "Option::is_none")]
    delivery: Option<&'static str>,
}

/// `POST /api/admin/invitations`: `{email?, send?}` → the single-use link,
/// e-mailed to `email` when `send` is true.
#[handler]
pub async fn create(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<Json<Invited>> {
    let (admin, state) = (AdminSession::of(depot)?.clone(), state(depot)?.clone());
    let input: InviteInput = json(req, SMALL).await?;
    if input.send && input.email.as_deref().is_none_or(|e| e.trim().is_empty()) {
        return Err(AppError::bad_request("An invitation can be e-mailed only to an address"));
    }
    let (email, base) = (input.email.clone(), state.public_url.clone());
    let invitation = admin
        .run(&state.store, move |admin| Ok(signup::invite(&admin, email.as_deref(), INVITATION_TTL, &base)))
        .await??;
    let delivery = if input.send { Some(send(&state, &invitation, admin.username()).await?) } else { None };
    res.status_code(StatusCode::CREATED);
    Ok(Json(Invited { invitation, delivery }))
}

async fn send(state: &AppState, invitation: &Invitation, admin: &str) -> AppResult<&'static str> {
    let Some(email) = invitation.email.clone() else { return Err(AppError::bad_request("No address to e-mail")) };
    let until = invitation.expires_at.get(..10).unwrap_or(&invitation.expires_at);
    let text = format!(
        "Hello,\n\n{admin} invited you to create an account on Debrief, the meeting follow-up app of your team.\n\n\
         To sign up, open this link:\n\n{}\n\nThe link works once, for {email}, until {until}.\n",
        invitation.link
    );
    let mail = Outgoing {
        from_name: "Debrief".to_owned(),
        to: Recipient { name: None, email },
        reply_to: None,
        subject: "You are invited to Debrief".to_owned(),
        text,
        html: None,
    };
    match crate::ops::mail::send(&state.store, &state.mailer, mail).await {
        Ok(Delivery::Sent) => Ok("sent"),
        Ok(Delivery::Outbox(_)) => Ok("outbox"),
        Err(e) => Err(AppError::bad_gateway("Failed to send email", e.to_string())),
    }
}

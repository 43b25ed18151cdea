//! The follow-up email of a client: previewed exactly as it will go out,
//! then sent (or filed in the outbox when no SMTP server is configured).

use salvo::http::header::{self, HeaderValue};
use salvo::prelude::*;
use serde::Serialize;

use super::client_route::ClientRoute;
use super::error::{AppError, AppResult};
use crate::clock::now_ms;
use crate::domain::action_item::ActionItem;
use crate::domain::client::ClientRecord;
use crate::domain::text::is_email;
use crate::mail::render::{FollowUp, Rendered};
use crate::mail::{Delivery, MailError, Outgoing, Recipient};

/// The preview page is shown in a sandboxed frame of the app: nothing in it
/// may run, load or navigate.
const PREVIEW_POLICY: &str =
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'; sandbox";

struct Prepared {
    client: ClientRecord,
    mail: Outgoing,
    rendered: Rendered,
}

/// Loads the signed-in user's client and renders the follow-up.
async fn prepare(route: &ClientRoute) -> AppResult<Prepared> {
    let me = &route.me;
    let (client, template) = route.run(|mine, id| Ok((mine.client_with_job(id)?.0, mine.template()?))).await?;
    let items: Vec<ActionItem> = client.items.iter().map(|i| i.item.clone()).collect();
    let client = client.record;
    let summary = client.summary.clone().filter(|s| !s.trim().is_empty());
    let Some(summary) = summary.filter(|_| is_email(&client.email)) else {
        return Err(AppError::bad_request("Cannot send email: Client email or summary is missing"));
    };
    let user_name = format!("{} {}", me.user.first_name, me.user.last_name);
    let next_steps = client.next_steps.clone().unwrap_or_default();
    let rendered = FollowUp {
        template: &template,
        client_name: &client.name,
        user_name: &user_name,
        summary: &summary,
        next_steps: &next_steps,
        items: &items,
    }
    .render();
    let mail = Outgoing {
        from_name: template.from_name.clone(),
        to: Recipient { name: Some(client.name.clone()), email: client.email.clone() },
        // The client's answer goes to the consultant, not to the box; not to
        // an address nobody has shown to be theirs.
        reply_to: (!me.user.email_unconfirmed)
            .then(|| Recipient { name: Some(user_name), email: me.user.email.clone() }),
        subject: rendered.subject.clone(),
        text: rendered.text.clone(),
        html: Some(rendered.html.clone()),
    };
    mail.check().map_err(|e| AppError::bad_request(format!("The email cannot be sent: {e}")))?;
    Ok(Prepared { client, mail, rendered })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Preview {
    from_name: String,
    to: String,
    reply_to: String,
    subject: String,
    text: String,
    html_url: String,
}

/// `GET /api/clients/{id}/email`: who, subject and text of the follow-up,
/// and where its HTML is.
#[handler]
pub async fn preview(req: &mut Request, depot: &mut Depot) -> AppResult<Json<Preview>> {
    let route = ClientRoute::of(req, depot)?;
    let p = prepare(&route).await?;
    Ok(Json(Preview {
        from_name: p.mail.from_name,
        to: p.mail.to.email,
        reply_to: p.mail.reply_to.map(|r| r.email).unwrap_or_default(),
        subject: p.rendered.subject,
        text: p.rendered.text,
        html_url: format!("/api/clients/{}/email/preview.html", p.client.id),
    }))
}

/// `GET /api/clients/{id}/email/preview.html`: the HTML part, under its own
/// content-security policy, for a sandboxed frame.
#[handler]
pub async fn preview_html(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<()> {
    let p = prepare(&ClientRoute::of(req, depot)?).await?;
    let headers = res.headers_mut();
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(PREVIEW_POLICY));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("SAMEORIGIN"));
    res.render(Text::Html(p.rendered.html));
    Ok(())
}

#[derive(Serialize)]
pub struct Sent {
    message: String,
    /// `sent`, or `outbox` when no SMTP server is configured.
    delivery: &'static str,
}

/// `POST /api/clients/{id}/send-email`. A second send of the same client
/// within the window is refused, so a double tap never mails twice.
#[handler]
pub async fn send(req: &mut Request, depot: &mut Depot) -> AppResult<Json<Sent>> {
    let route = ClientRoute::of(req, depot)?;
    let state = &route.state;
    if route.me.user.email_unconfirmed {
        return Err(AppError::forbidden(format!(
            "Please confirm your email address before sending follow-ups: open the link we sent to {}.",
            route.me.user.email
        )));
    }
    let p = prepare(&route).await?;
    let key = format!("client:{}", p.client.id);
    // Counted whatever happens next: the check and the count are one step,
    // so two taps at once cannot both pass.
    let _ = state.send_throttle.attempt(&[&key]).map_err(|_| {
        AppError::too_many("This follow-up was just sent. Please wait a minute before sending it again.")
    })?;
    let sender = format!("user:{}", route.me.user.id);
    let _ = state.hourly_send_throttle.attempt(&[&sender]).map_err(|wait| {
        let minutes = wait.as_secs().div_ceil(60).max(1);
        AppError::too_many(format!(
            "You have sent as many follow-ups in the last hour as this server allows ({}). Please try again in {minutes} minute{}.",
            state.settings.follow_ups_per_hour,
            if minutes == 1 { "" } else { "s" }
        ))
    })?;
    let to = p.mail.to.email.clone();
    let delivery = crate::ops::mail::send(&state.store, &state.mailer, p.mail).await.map_err(|e| match e {
        MailError::InvalidHeader(_) => AppError::bad_request(format!("The email cannot be sent: {e}")),
        MailError::Failed(reason) => AppError::bad_gateway("Failed to send email", reason),
    })?;
    if delivery == Delivery::Sent {
        // Filed in the outbox is not emailed: the client has not got it.
        route.run(|mine, id| mine.mark_emailed(id, now_ms())).await?;
    }
    Ok(Json(match delivery {
        Delivery::Sent => Sent { message: format!("Email sent to {to}"), delivery: "sent" },
        Delivery::Outbox(_) => {
            Sent { message: "Saved to outbox: email is not configured on this server".into(), delivery: "outbox" }
        }
    }))
}

//! HTTP handlers, one module per resource, and the route table.

mod admin;
pub mod assets;
mod auth;
mod bench_peers;
mod blob;
mod body;
mod body_rate;
mod ca;
mod ca_profile;
mod calendar;
mod calendar_feed;
mod cards;
mod client_lists;
mod client_photo;
mod client_route;
mod clients;
mod confirm_email;
mod connection;
pub mod error;
mod follow_up;
mod followed_up;
mod headers;
mod health;
mod insights;
mod install;
mod job_events;
mod jobs;
mod multipart;
mod next_steps;
mod origin;
mod owned_route;
mod profile;
mod range;
mod recording;
mod reset;
mod session;
mod signup;
mod state;
mod transcript;

use salvo::catcher::Catcher;
use salvo::http::ResBody;
use salvo::prelude::*;
use serde::Serialize;

pub use assets::AssetSource;
pub use client_lists::ClientLists;
pub use headers::strict_transport;
pub use reset::EMAILS_PER_LINK_LIFETIME as RESET_EMAILS_PER_LINK_LIFETIME;
pub use state::AppState;

/// The whole service: routes, middleware and the error catcher; with
/// `bench_peers`, also the bare routes the benchmark suite compares with.
pub fn service(state: AppState, assets: AssetSource, bench_peers: bool) -> Service {
    let signed_in = Router::new()
        .hoop(session::require_user)
        .push(Router::with_path("auth/me").get(auth::me))
        .push(Router::with_path("profile").put(profile::update))
        .push(Router::with_path("profile/password").put(profile::change_password))
        .push(Router::with_path("profile/confirm-email").post(confirm_email::resend))
        .push(
            Router::with_path("profile/picture")
                .get(profile::picture)
                .post(profile::upload_picture)
                .delete(profile::delete_picture),
        )
        .push(Router::with_path("business-card/scan").post(cards::scan))
        .push(Router::with_path("clients").get(clients::list).post(clients::create))
        .push(Router::with_path("clients/{id}").get(clients::read).patch(clients::update).delete(clients::delete))
        .push(Router::with_path("clients/{id}/photo").get(client_photo::read).post(client_photo::upload))
        .push(Router::with_path("clients/{id}/recording").get(recording::read).post(recording::upload))
        .push(Router::with_path("clients/{id}/events").get(job_events::events))
        .push(Router::with_path("clients/{id}/job/retry").post(jobs::retry))
        .push(Router::with_path("clients/{id}/summary/regenerate").post(jobs::regenerate_summary))
        .push(Router::with_path("clients/{id}/email").get(follow_up::preview))
        .push(Router::with_path("clients/{id}/email/preview.html").get(follow_up::preview_html))
        .push(Router::with_path("clients/{id}/send-email").post(follow_up::send))
        .push(Router::with_path("clients/{id}/transcript").get(transcript::read).put(transcript::correct))
        .push(Router::with_path("clients/{id}/transcript/corrections").delete(transcript::undo))
        .push(Router::with_path("clients/{id}/transcript/export").get(transcript::export))
        .push(Router::with_path("clients/{id}/followed-up").post(followed_up::mark).delete(followed_up::unmark))
        .push(Router::with_path("next-steps").get(next_steps::list))
        .push(Router::with_path("next-steps/{id}").patch(next_steps::update))
        .push(Router::with_path("next-steps/{id}/calendar.ics").get(calendar::step))
        .push(
            Router::with_path("profile/calendar-feed")
                .get(calendar_feed::read)
                .post(calendar_feed::create)
                .delete(calendar_feed::revoke),
        )
        .push(Router::with_path("insights").get(insights::read));
    let api = Router::with_path("api")
        .hoop(origin::same_origin_writes)
        .push(Router::with_path("health").get(health::health).head(health::health))
        .push(Router::with_path("auth/login").post(auth::login))
        .push(Router::with_path("auth/signup").post(signup::signup))
        .push(Router::with_path("auth/signup-policy").get(signup::policy))
        .push(Router::with_path("auth/logout").post(auth::logout))
        .push(Router::with_path("auth/session").hoop(session::probe_user).get(auth::session_probe))
        .push(Router::with_path("auth/reset-password").post(reset::request))
        .push(Router::with_path("auth/reset-password/confirm").post(reset::confirm))
        .push(Router::with_path("auth/confirm-email").post(confirm_email::confirm))
        .push(Router::with_path("install").get(install::info))
        .push(Router::with_path("install/qr.svg").get(install::qr))
        // Opened by its token, not a session: calendar apps send no cookie.
        .push(Router::with_path("next-steps.ics").get(calendar::feed))
        .push(admin::router())
        .push(signed_in);
    let api = if bench_peers { api.push(bench_peers::router()) } else { api };
    let api = api.push(Router::with_path("{**rest}").goal(api_not_found));
    let router = Router::new()
        .hoop(salvo::affix_state::inject(state).inject(assets))
        .push(api)
        .push(Router::with_path("robots.txt").get(assets::robots).head(assets::robots))
        .push(Router::with_path("ca.crt").get(ca::ca_der))
        .push(Router::with_path("ca.pem").get(ca::ca_pem))
        .push(Router::with_path("ca.mobileconfig").get(ca::ca_mobileconfig))
        .push(Router::with_path("{**path}").get(assets::serve_app).head(assets::serve_app));
    Service::new(router)
        .hoop(salvo::catch_panic::CatchPanic::new())
        .hoop(headers::security_headers)
        .hoop(connection::close_after_refused_body)
        .hoop(body_rate::min_rate)
        .hoop(salvo::logging::Logger::new())
        .catcher(Catcher::new(json_errors).hoop(headers::security_headers))
}

#[handler]
async fn api_not_found() -> error::AppResult<()> {
    Err(error::AppError::not_found("No such API endpoint"))
}

#[derive(Serialize)]
struct Message<'a> {
    message: &'a str,
}

/// Errors raised outside our handlers (no route for the method, a body over
/// the limit, a panic) get the same JSON shape as ours.
#[handler]
async fn json_errors(res: &mut Response, ctrl: &mut FlowCtrl) {
    let status = res.status_code.unwrap_or(StatusCode::NOT_FOUND);
    let unwritten = res.body.is_none() || matches!(res.body, ResBody::Error(_));
    if (status.is_client_error() || status.is_server_error()) && unwritten {
        let message = status.canonical_reason().unwrap_or("Error");
        res.render(Json(Message { message }));
        ctrl.skip_rest();
    }
}

//! HTTP handlers, one module per resource, and the route table.

pub mod assets;
mod auth;
mod ca;
pub mod error;
mod headers;
mod health;

use salvo::catcher::Catcher;
use salvo::http::ResBody;
use salvo::prelude::*;
use serde::Serialize;

pub use assets::AssetSource;
pub use headers::CONTENT_SECURITY_POLICY;

/// What every handler may need, injected into the depot.
#[derive(Clone)]
pub struct AppState {
    pub store: crate::store::Store,
    /// The local authority's certificate, when the server uses one.
    pub ca_cert: Option<std::path::PathBuf>,
}

/// The whole service: routes, middleware and the error catcher.
pub fn service(state: AppState, assets: AssetSource) -> Service {
    let router = Router::new()
        .hoop(salvo::affix_state::inject(state).inject(assets))
        .push(
            Router::with_path("api")
                .push(Router::with_path("health").get(health::health).head(health::health))
                .push(Router::with_path("auth/me").get(auth::me))
                .push(Router::with_path("{**rest}").goal(api_not_found)),
        )
        .push(Router::with_path("ca.crt").get(ca::ca_der))
        .push(Router::with_path("ca.pem").get(ca::ca_pem))
        .push(Router::with_path("{**path}").get(assets::serve_app).head(assets::serve_app));
    Service::new(router)
        .hoop(salvo::catch_panic::CatchPanic::new())
        .hoop(headers::security_headers)
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

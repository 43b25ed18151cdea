use salvo::prelude::*;
use serde::Serialize;

#[derive(Serialize)]
struct Health {
    status: &'static str,
    version: &'static str,
}

/// `GET /api/health`: answers as long as the server can serve requests.
#[handler]
pub async fn health(res: &mut Response) {
    res.render(Json(Health { status: "ok", version: env!("CARGO_PKG_VERSION") }));
}

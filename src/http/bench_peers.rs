//! Bare twins of the hottest API routes, mounted only by the hidden
//! `serve --bench-peers`, so the benchmark suite can set what the real
//! routes cost against what the server itself costs. They sit behind the
//! same middleware as the real routes but look up no session, open no
//! transaction and serialise nothing.
//!
//! One more route, `/api/bench-peers/panic`, fails on purpose: it is the
//! only way to prove from outside that a bug in a handler costs one 500,
//! not the server.

use std::sync::{Arc, PoisonError, RwLock};

use bytes::Bytes;
use salvo::http::Method;
use salvo::prelude::*;

use super::client_lists::send_json;
use super::error::{AppError, AppResult};

/// Largest body a peer keeps: a list of a few thousand clients.
const BODY_MAX: usize = 16 * 1024 * 1024;

/// Answers GET with the JSON body last PUT to it.
///
/// The benchmark copies the real route's answer in once, so the peer sends
/// the very bytes the real route sends. Rendering the body here instead
/// would tie the peer to a user, a session and the store, which is what it
/// exists to leave out; and a server starts before its clients are seeded.
#[derive(Clone, Default)]
struct Canned(Arc<RwLock<Bytes>>);

#[handler]
impl Canned {
    async fn handle(&self, req: &mut Request, res: &mut Response) -> AppResult<()> {
        if req.method() == Method::PUT {
            let body = req
                .payload_with_max_size(BODY_MAX)
                .await
                .map_err(|_| AppError::too_large("The body is too large"))?
                .clone();
            *self.0.write().unwrap_or_else(PoisonError::into_inner) = body;
            res.status_code(StatusCode::NO_CONTENT);
        } else {
            send_json(res, self.0.read().unwrap_or_else(PoisonError::into_inner).clone());
        }
        Ok(())
    }
}

/// Stands for any bug that panics inside a handler.
#[handler]
async fn deliberate_panic() {
    panic!("a deliberate panic, with details a client must never read");
}

/// `/api/bench-peers/clients` beside `GET /api/clients`, and
/// `/api/bench-peers/me` beside `GET /api/auth/me`.
pub fn router() -> Router {
    let peers = ["clients", "me"].into_iter().fold(Router::with_path("bench-peers"), |router, name| {
        let peer = Canned::default();
        router.push(Router::with_path(name).get(peer.clone()).put(peer))
    });
    peers.push(Router::with_path("panic").get(deliberate_panic))
}

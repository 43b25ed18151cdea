//! The route of one of the signed-in user's clients (`/api/clients/{id}…`).

use salvo::prelude::*;

use super::error::{AppError, AppResult};
use super::owned_route::{OwnedRoute, RouteId};
use crate::domain::ids::ClientId;

pub type ClientRoute = OwnedRoute<ClientId>;

impl RouteId for ClientId {
    fn not_found() -> AppError {
        client_not_found()
    }
}

/// The `{id}` of the route; a malformed one is as missing as an unknown one.
pub fn client_id(req: &Request) -> AppResult<ClientId> {
    req.param::<ClientId>("id").ok_or_else(client_not_found)
}

pub fn client_not_found() -> AppError {
    AppError::not_found("Client not found")
}

//! What every handler of one of the signed-in user's clients
//! (`/api/clients/{id}…`) starts from: the state, the user, the client of
//! the route, and the one way to reach that client in the store.

use salvo::prelude::*;

use super::error::{AppError, AppResult};
use super::session::{SignedIn, signed_in};
use super::state::{AppState, state};
use crate::domain::ids::ClientId;
use crate::store::{OwnerView, StoreResult};

pub struct ClientRoute {
    pub state: AppState,
    pub me: SignedIn,
    pub id: ClientId,
}

impl ClientRoute {
    pub fn of(req: &Request, depot: &Depot) -> AppResult<Self> {
        let (state, me) = (state(depot)?.clone(), signed_in(depot)?.clone());
        Ok(Self { state, me, id: client_id(req)? })
    }

    /// Runs `f` on the user's view, with the client's id, off the async
    /// executor. Another user's client is "Client not found", exactly like
    /// one that does not exist.
    pub async fn run<T, F>(&self, f: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(OwnerView<'_>, ClientId) -> StoreResult<T> + Send + 'static,
    {
        let id = self.id;
        self.me.run(&self.state.store, move |mine| f(mine, id)).await.map_err(AppError::or_store(client_not_found))
    }
}

/// The `{id}` of the route; a malformed one is as missing as an unknown one.
pub fn client_id(req: &Request) -> AppResult<ClientId> {
    req.param::<ClientId>("id").ok_or_else(client_not_found)
}

pub fn client_not_found() -> AppError {
    AppError::not_found("Client not found")
}

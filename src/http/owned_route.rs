//! What every handler of one of the signed-in user's records
//! (`/api/clients/{id}…`, `/api/next-steps/{id}…`) starts from: the state,
//! the user, the record's id, and the one way to reach it in the store.
//! Another user's record is "not found", exactly like one that does not
//! exist.

use salvo::prelude::*;
use serde::de::DeserializeOwned;

use super::error::{AppError, AppResult};
use super::session::{SignedIn, signed_in};
use super::state::{AppState, state};
use crate::store::{OwnerView, StoreResult};

/// The id of a route's record, and how its absence reads.
pub trait RouteId: DeserializeOwned + Copy + Send + 'static {
    fn not_found() -> AppError;
}

pub struct OwnedRoute<I> {
    pub state: AppState,
    pub me: SignedIn,
    pub id: I,
}

impl<I: RouteId> OwnedRoute<I> {
    /// A malformed `{id}` is as missing as an unknown one.
    pub fn of(req: &Request, depot: &Depot) -> AppResult<Self> {
        let (state, me) = (state(depot)?.clone(), signed_in(depot)?.clone());
        let id = req.param::<I>("id").ok_or_else(I::not_found)?;
        Ok(Self { state, me, id })
    }

    /// Runs `f` on the user's view, with the record's id, off the async
    /// executor.
    pub async fn run<T, F>(&self, f: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(OwnerView<'_>, I) -> StoreResult<T> + Send + 'static,
    {
        let id = self.id;
        self.me.run(&self.state.store, move |mine| f(mine, id)).await.map_err(AppError::or_store(I::not_found))
    }
}

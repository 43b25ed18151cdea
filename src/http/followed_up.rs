//! `/api/clients/{id}/followed-up`: the owner followed up another way (a
//! call, their own mail), so the client no longer waits for a follow-up;
//! `DELETE` takes that back.

use salvo::prelude::*;

use super::client_route::ClientRoute;
use super::clients::with_job;
use super::error::AppResult;
use crate::clock::now_ms;
use crate::domain::client::Client;

#[handler]
pub async fn mark(req: &mut Request, depot: &mut Depot) -> AppResult<Json<Client>> {
    set(ClientRoute::of(req, depot)?, Some(now_ms())).await
}

#[handler]
pub async fn unmark(req: &mut Request, depot: &mut Depot) -> AppResult<Json<Client>> {
    set(ClientRoute::of(req, depot)?, None).await
}

async fn set(route: ClientRoute, at: Option<i64>) -> AppResult<Json<Client>> {
    let found = route
        .run(move |mine, id| {
            mine.mark_followed_up(id, at)?;
            mine.client_with_job(id)
        })
        .await?;
    Ok(Json(with_job(&route.state, found)))
}

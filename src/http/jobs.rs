//! Running a client's job again: `POST /api/clients/{id}/job/retry` after a
//! failure, `POST /api/clients/{id}/summary/regenerate` to summarise the
//! kept transcript anew. Both answer 202 with the queued job.

use salvo::prelude::*;

use super::clients::{client_id, not_found_as_client};
use super::error::AppResult;
use super::session::signed_in;
use super::state::state;
use crate::clock::now_ms;
use crate::domain::ids::{ClientId, UserId};
use crate::domain::job::{JobRecord, JobView};
use crate::store::{Store, StoreResult};

#[handler]
pub async fn retry(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<Json<JobView>> {
    restart(req, depot, res, Store::retry_job).await
}

#[handler]
pub async fn regenerate_summary(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<Json<JobView>> {
    restart(req, depot, res, Store::regenerate_summary).await
}

async fn restart(
    req: &mut Request,
    depot: &mut Depot,
    res: &mut Response,
    change: fn(&Store, UserId, ClientId, i64) -> StoreResult<JobRecord>,
) -> AppResult<Json<JobView>> {
    let state = state(depot)?.clone();
    let owner = signed_in(depot)?.user.id;
    let id = client_id(req)?;
    let job = state.store.run(move |s| change(s, owner, id, now_ms())).await.map_err(not_found_as_client)?;
    state.jobs.announce(&job);
    state.jobs.nudge();
    res.status_code(StatusCode::ACCEPTED);
    Ok(Json(job.view(0)))
}

//! Running a client's job again: `POST /api/clients/{id}/job/retry` after a
//! failure, `POST /api/clients/{id}/summary/regenerate` to summarise the
//! kept transcript anew. Both answer 202 with the queued job.

use salvo::prelude::*;

use super::client_route::ClientRoute;
use super::error::AppResult;
use crate::clock::now_ms;
use crate::domain::ids::ClientId;
use crate::domain::job::{JobRecord, JobView};
use crate::store::{OwnerView, StoreResult};

#[handler]
pub async fn retry(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<Json<JobView>> {
    restart(req, depot, res, |mine, id, now| mine.retry_job(id, now)).await
}

#[handler]
pub async fn regenerate_summary(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<Json<JobView>> {
    restart(req, depot, res, |mine, id, now| mine.regenerate_summary(id, now)).await
}

async fn restart(
    req: &mut Request,
    depot: &mut Depot,
    res: &mut Response,
    change: fn(OwnerView<'_>, ClientId, i64) -> StoreResult<JobRecord>,
) -> AppResult<Json<JobView>> {
    let route = ClientRoute::of(req, depot)?;
    let job = route.run(move |mine, id| change(mine, id, now_ms())).await?;
    route.state.jobs.announce(&job);
    route.state.jobs.nudge();
    res.status_code(StatusCode::ACCEPTED);
    Ok(Json(job.view(0)))
}

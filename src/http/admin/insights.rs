//! `GET /api/admin/insights?today=YYYY-MM-DD`: the tracker's figures across
//! every user, counts only (no client, no step, no name).

use salvo::prelude::*;
use serde::Serialize;

use super::AdminSession;
use crate::domain::insights::Figures;
use crate::http::error::AppResult;
use crate::http::insights::today;
use crate::http::state::state;

#[derive(Serialize)]
pub struct AllInsights {
    #[serde(flatten)]
    figures: Figures,
    users: u64,
}

#[handler]
pub async fn read(req: &mut Request, depot: &mut Depot) -> AppResult<Json<AllInsights>> {
    let today = today(req)?;
    let (admin, state) = (AdminSession::of(depot)?, state(depot)?);
    let (figures, users) = admin.run(&state.store, move |admin| admin.insights(today)).await?;
    Ok(Json(AllInsights { figures, users }))
}

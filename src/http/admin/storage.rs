//! The dashboard's storage panel: the space used and left, and how long
//! recordings are kept.

use salvo::prelude::*;
use serde::Deserialize;

use super::AdminSession;
use crate::domain::retention::Retention;
use crate::http::body::{SMALL, json};
use crate::http::error::{AppError, AppResult};
use crate::http::state::state;
use crate::store::StorageUse;

/// `GET /api/admin/storage`.
#[handler]
pub async fn read(depot: &mut Depot) -> AppResult<Json<StorageUse>> {
    let (admin, state) = (AdminSession::of(depot)?.clone(), state(depot)?.clone());
    Ok(Json(admin.run(&state.store, |admin| admin.storage_use()).await?))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RetentionInput {
    /// `null` keeps recordings for good.
    retention_days: Option<i64>,
}

/// `PUT /api/admin/storage`: `{retentionDays: number | null}`.
#[handler]
pub async fn update(req: &mut Request, depot: &mut Depot) -> AppResult<Json<StorageUse>> {
    let (admin, state) = (AdminSession::of(depot)?.clone(), state(depot)?.clone());
    let input: RetentionInput = json(req, SMALL).await?;
    let retention = Retention::parse(input.retention_days).map_err(AppError::bad_request)?;
    let storage = admin
        .run(&state.store, move |admin| {
            admin.set_retention(retention)?;
            admin.storage_use()
        })
        .await?;
    tracing::info!(admin = admin.username(), days = ?retention.days(), "set the retention policy");
    Ok(Json(storage))
}

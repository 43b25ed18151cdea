//! The emails the server sent or filed, for the dashboard: without SMTP the
//! administrator passes on what lands in the outbox folder (confirmation
//! and reset links among them).

use salvo::prelude::*;
use serde::Serialize;

use super::AdminSession;
use crate::domain::user::iso_time;
use crate::http::error::AppResult;
use crate::http::state::state;

/// Entries the dashboard lists.
const SHOWN: usize = 100;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OutboxLine {
    to: String,
    subject: String,
    at: String,
    /// `sent`, `outbox: FILE` or `failed: REASON`.
    result: String,
}

/// `GET /api/admin/outbox`: the last 100 emails, newest first.
#[handler]
pub async fn list(depot: &mut Depot) -> AppResult<Json<Vec<OutboxLine>>> {
    let (admin, state) = (AdminSession::of(depot)?.clone(), state(depot)?.clone());
    let entries = admin.run(&state.store, |admin| admin.outbox(SHOWN)).await?;
    Ok(Json(
        entries
            .into_iter()
            .map(|e| OutboxLine { to: e.to, subject: e.subject, at: iso_time(e.at), result: e.result })
            .collect(),
    ))
}

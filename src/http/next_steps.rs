//! `GET /api/next-steps?status=open|done`: the signed-in user's next steps
//! across their clients, soonest due first, undated last.

use salvo::prelude::*;
use serde::Serialize;

use super::error::{AppError, AppResult};
use super::session::signed_in;
use super::state::state;
use crate::domain::action_item_record::ActionItemView;
use crate::domain::ids::ClientId;

/// A next step with the client it is for.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TrackedStep {
    #[serde(flatten)]
    item: ActionItemView,
    client_id: ClientId,
    client_name: String,
}

#[handler]
pub async fn list(req: &mut Request, depot: &mut Depot) -> AppResult<Json<Vec<TrackedStep>>> {
    let done = match req.query::<String>("status").as_deref() {
        None | Some("open") => false,
        Some("done") => true,
        Some(_) => return Err(AppError::bad_request("status must be open or done")),
    };
    let (state, me) = (state(depot)?.clone(), signed_in(depot)?.clone());
    let steps = me.run(&state.store, move |mine| mine.next_steps(done)).await?;
    Ok(Json(
        steps
            .into_iter()
            .map(|(item, client_name)| TrackedStep { item: item.view(), client_id: item.client, client_name })
            .collect(),
    ))
}

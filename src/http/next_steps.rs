//! `/api/next-steps`: the signed-in user's next steps across their clients
//! (soonest due first, undated last), and a change to one of them. Another
//! user's step is "Next step not found", exactly like one that does not
//! exist.

use salvo::prelude::*;
use serde::Serialize;

use super::body::{SMALL, json};
use super::error::{AppError, AppResult};
use super::owned_route::{OwnedRoute, RouteId};
use super::session::signed_in;
use super::state::state;
use crate::domain::action_item_record::{ActionItemView, StepChangeInput};
use crate::domain::ids::{ActionItemId, ClientId};
use crate::store::TrackedStep;

/// A next step with the client it is for, as the browser sees it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StepView {
    #[serde(flatten)]
    item: ActionItemView,
    client_id: ClientId,
    client_name: String,
}

impl From<TrackedStep> for StepView {
    fn from((item, client_name): TrackedStep) -> Self {
        Self { item: item.view(), client_id: item.client, client_name }
    }
}

/// `GET /api/next-steps?status=open|done`.
#[handler]
pub async fn list(req: &mut Request, depot: &mut Depot) -> AppResult<Json<Vec<StepView>>> {
    let done = match req.query::<String>("status").as_deref() {
        None | Some("open") => false,
        Some("done") => true,
        Some(_) => return Err(AppError::bad_request("status must be open or done")),
    };
    let (state, me) = (state(depot)?.clone(), signed_in(depot)?.clone());
    let steps = me.run(&state.store, move |mine| mine.next_steps(done)).await?;
    Ok(Json(steps.into_iter().map(StepView::from).collect()))
}

/// `PATCH /api/next-steps/{id}` with `done` and/or `dueDate`.
#[handler]
pub async fn update(req: &mut Request, depot: &mut Depot) -> AppResult<Json<StepView>> {
    let route = StepRoute::of(req, depot)?;
    let input: StepChangeInput = json(req, SMALL).await?;
    let change = input.parse().map_err(AppError::invalid)?;
    let step = route.run(move |mine, id| mine.change_next_step(id, change)).await?;
    Ok(Json(step.into()))
}

/// The route of one step (`/api/next-steps/{id}…`).
pub type StepRoute = OwnedRoute<ActionItemId>;

impl RouteId for ActionItemId {
    fn not_found() -> AppError {
        AppError::not_found("Next step not found")
    }
}

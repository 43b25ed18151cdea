//! `GET /api/insights?today=YYYY-MM-DD`: the tracker's figures over the
//! signed-in user's clients, and the clients still waiting for a follow-up.
//! `today` is the phone's day (the server's clock and zone are not the
//! user's); without it, the server's UTC day.

use salvo::prelude::*;
use serde::Serialize;
use time::{Date, OffsetDateTime};

use super::error::{AppError, AppResult};
use super::session::signed_in;
use super::state::state;
use crate::domain::action_item::parse_iso;
use crate::domain::client::ClientRecord;
use crate::domain::ids::ClientId;
use crate::domain::insights::Figures;
use crate::domain::user::iso_time;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Insights {
    #[serde(flatten)]
    figures: Figures,
    waiting: Vec<Waiting>,
}

/// A client whose summary has not gone out.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Waiting {
    id: ClientId,
    name: String,
    company: Option<String>,
    photo_url: Option<String>,
    meeting_at: String,
}

impl From<ClientRecord> for Waiting {
    fn from(client: ClientRecord) -> Self {
        Self {
            meeting_at: iso_time(client.meeting_at().unwrap_or(client.created_at)),
            photo_url: client.photo_url(),
            id: client.id,
            name: client.name,
            company: client.company,
        }
    }
}

#[handler]
pub async fn read(req: &mut Request, depot: &mut Depot) -> AppResult<Json<Insights>> {
    let today = today(req)?;
    let (state, me) = (state(depot)?.clone(), signed_in(depot)?.clone());
    let (figures, waiting) = me.run(&state.store, move |mine| mine.insights(today)).await?;
    Ok(Json(Insights { figures, waiting: waiting.into_iter().map(Waiting::from).collect() }))
}

/// The `today` of the query, or the server's UTC day.
pub fn today(req: &Request) -> AppResult<Date> {
    match req.query::<String>("today") {
        None => Ok(OffsetDateTime::now_utc().date()),
        Some(text) => parse_iso(&text).ok_or_else(|| AppError::bad_request("today must be a date (YYYY-MM-DD)")),
    }
}

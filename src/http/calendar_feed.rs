//! `/api/profile/calendar-feed`: the signed-in user's private calendar
//! feed link: whether there is one, a new one (shown this once: only its
//! hash is kept), or none any more.

use salvo::prelude::*;
use serde::Serialize;

use super::error::AppResult;
use super::session::signed_in;
use super::state::state;
use crate::auth::Token;
use crate::clock::now_ms;
use crate::domain::user::iso_time;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Feed {
    active: bool,
    created_at: Option<String>,
    /// The feed's path with its token, only in the answer that made it.
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<String>,
}

impl Feed {
    fn made_at(created_at: Option<i64>) -> Self {
        Self { active: created_at.is_some(), created_at: created_at.map(iso_time), path: None }
    }
}

/// `GET`: whether the user has a feed, and since when.
#[handler]
pub async fn read(depot: &mut Depot) -> AppResult<Json<Feed>> {
    let (state, me) = (state(depot)?.clone(), signed_in(depot)?.clone());
    let created_at = me.run(&state.store, |mine| mine.calendar_feed()).await?;
    Ok(Json(Feed::made_at(created_at)))
}

/// `POST`: a new feed link, which ends the one before.
#[handler]
pub async fn create(depot: &mut Depot, res: &mut Response) -> AppResult<Json<Feed>> {
    let (state, me) = (state(depot)?.clone(), signed_in(depot)?.clone());
    let (token, now) = (Token::generate(), now_ms());
    let hash = token.hash();
    me.run(&state.store, move |mine| mine.create_calendar_feed(&hash, now)).await?;
    res.status_code(StatusCode::CREATED);
    let path = Some(format!("/api/next-steps.ics?token={}", token.as_str()));
    Ok(Json(Feed { path, ..Feed::made_at(Some(now)) }))
}

/// `DELETE`: the feed stops answering at once.
#[handler]
pub async fn revoke(depot: &mut Depot) -> AppResult<Json<Feed>> {
    let (state, me) = (state(depot)?.clone(), signed_in(depot)?.clone());
    me.run(&state.store, |mine| mine.revoke_calendar_feed()).await?;
    Ok(Json(Feed::made_at(None)))
}

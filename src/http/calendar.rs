//! Next steps for calendar apps: one dated step as an `.ics` download, and
//! the private feed a calendar subscribes to, opened by the secret token in
//! its URL rather than a session (calendar apps send no cookie).

use salvo::http::header::{self, HeaderValue};
use salvo::prelude::*;

use super::error::{AppError, AppResult};
use super::next_steps::StepRoute;
use super::state::state;
use crate::auth::Token;
use crate::clock::now_ms;
use crate::domain::calendar::{DatedStep, calendar};

/// `GET /api/next-steps/{id}/calendar.ics`: an all-day event on the step's
/// due date, to add to a calendar.
#[handler]
pub async fn step(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<()> {
    let route = StepRoute::of(req, depot)?;
    let (item, client_name) = route.run(|mine, id| mine.next_step(id)).await?;
    if item.item.due_date.is_none() {
        return Err(AppError::conflict("This next step has no due date"));
    }
    let ics = calendar("Debrief", [DatedStep { item: &item, client_name: &client_name }], now_ms());
    let disposition = format!("attachment; filename=\"next-step-{}.ics\"", item.id);
    send(res, ics, Some(disposition));
    Ok(())
}

/// `GET /api/next-steps.ics?token=…`: the feed owner's open dated steps. A
/// token that is no feed, or no longer one, is "Calendar feed not found".
#[handler]
pub async fn feed(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<()> {
    let not_found = || AppError::not_found("Calendar feed not found");
    let token = req.query::<String>("token").and_then(|t| Token::from_client(&t)).ok_or_else(not_found)?;
    let hash = token.hash();
    let steps = state(depot)?.store.run(move |s| s.calendar_feed_steps(&hash)).await?.ok_or_else(not_found)?;
    let dated = steps.iter().map(|(item, client_name)| DatedStep { item, client_name });
    send(res, calendar("Debrief next steps", dated, now_ms()), None);
    Ok(())
}

fn send(res: &mut Response, ics: String, disposition: Option<String>) {
    let headers = res.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/calendar; charset=utf-8"));
    // Read fresh each time: a ticked step leaves the calendar at its next poll.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-cache"));
    if let Some(value) = disposition.and_then(|d| HeaderValue::from_str(&d).ok()) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    res.write_body(ics).ok();
}

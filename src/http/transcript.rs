//! `/api/clients/{id}/transcript`: the transcript as timed segments, the
//! owner's corrections of it (and their undoing), and its downloads as
//! plain text, SubRip and WebVTT. Another user's client is "Client not
//! found", as everywhere.

use salvo::http::header::{self, HeaderValue};
use salvo::prelude::*;

use super::body::{SMALL, json};
use super::client_route::ClientRoute;
use super::error::{AppError, AppResult};
use crate::domain::transcript::{Export, TranscriptInput, TranscriptView};

/// The largest correction: a long meeting's segments, each sent back whole.
const CORRECTION_MAX: usize = SMALL * 64;

fn no_transcript() -> AppError {
    AppError::not_found("There is no transcript yet")
}

/// `GET`: the segments with their times.
#[handler]
pub async fn read(req: &mut Request, depot: &mut Depot) -> AppResult<Json<TranscriptView>> {
    let route = ClientRoute::of(req, depot)?;
    let (_, transcript) = route.run(|mine, id| mine.transcript(id)).await?;
    Ok(Json(transcript.ok_or_else(no_transcript)?.view()))
}

/// `PUT` `{segments: [{text}]}`, one text per segment, in order.
#[handler]
pub async fn correct(req: &mut Request, depot: &mut Depot) -> AppResult<Json<TranscriptView>> {
    let route = ClientRoute::of(req, depot)?;
    let input: TranscriptInput = json(req, CORRECTION_MAX).await?;
    let (_, transcript) = route.run(|mine, id| mine.transcript(id)).await?;
    let count = transcript.ok_or_else(no_transcript)?.segments.len();
    let edit = input.parse(count).map_err(AppError::invalid)?;
    Ok(Json(route.run(move |mine, id| mine.correct_transcript(id, edit)).await?.view()))
}

/// `DELETE /corrections`: the recogniser's words again.
#[handler]
pub async fn undo(req: &mut Request, depot: &mut Depot) -> AppResult<Json<TranscriptView>> {
    let route = ClientRoute::of(req, depot)?;
    Ok(Json(route.run(|mine, id| mine.undo_transcript_corrections(id)).await?.view()))
}

/// `GET /export?format=txt|srt|vtt`: a download named after the client.
#[handler]
pub async fn export(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<()> {
    let route = ClientRoute::of(req, depot)?;
    let format = req.query::<String>("format").unwrap_or_else(|| "txt".into());
    let format = Export::parse(&format).ok_or_else(|| AppError::bad_request("format must be txt, srt or vtt"))?;
    let (client, transcript) = route.run(|mine, id| mine.transcript(id)).await?;
    let transcript = transcript.ok_or_else(no_transcript)?;
    let headers = res.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(format.content_type()));
    let name = format!("attachment; filename=\"transcript-{}.{}\"", client.id, format.extension());
    if let Ok(value) = HeaderValue::from_str(&name) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    res.write_body(format.render(&transcript.segments)).ok();
    Ok(())
}

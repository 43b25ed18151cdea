//! A client's recording: a WAV file streamed into the store in chunks (no
//! copy of the whole file anywhere), and served back with ranges.

use salvo::prelude::*;
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::client_route::ClientRoute;
use super::clients::send_file;
use super::error::{AppError, AppResult};
use super::multipart::{BETWEEN_PARTS, Part, Upload};
use super::state::AppState;
use crate::clock::now_ms;
use crate::domain::client::{RecordedAt, Recording};
use crate::domain::ids::BlobId;
use crate::domain::wav::WavHeader;
use crate::store::CHUNK;

/// Enough of the file to hold any ordinary WAV header.
const HEADER_WINDOW: usize = 64 * 1024;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Uploaded {
    size: u64,
    sha256: String,
    duration_ms: u64,
}

fn not_wav() -> AppError {
    AppError::unsupported("The recording must be a WAV file")
}

fn too_large(max: u64) -> AppError {
    AppError::too_large(format!("The recording is larger than this server accepts ({} MB)", max / 1_000_000))
}

/// `POST /api/clients/{id}/recording`, multipart with the file in the field
/// `recording` (other fields, such as `userId`, are ignored).
#[handler]
pub async fn upload(req: &mut Request, depot: &mut Depot) -> AppResult<Json<Uploaded>> {
    let route = ClientRoute::of(req, depot)?;
    route.run(|mine, id| mine.client(id)).await?;
    let state = &route.state;
    let max = state.settings.max_recording;
    let announced = req.header::<u64>("content-length");
    if announced.is_some_and(|len| len > max + BETWEEN_PARTS) {
        return Err(too_large(max));
    }
    state.ensure_room(announced.unwrap_or(max))?;
    let mut form = Upload::new(req, "Send the recording as multipart/form-data with a 'recording' field", || {
        AppError::too_large("The recording is larger than this server accepts")
    })?;
    let recorded = recorded_at(req)?;
    let Some(field) = form.field("recording", max).await? else {
        return Err(AppError::bad_request("The upload has no 'recording' file"));
    };
    let blob = state.store.run(|s| s.begin_blob()).await?;
    match store_recording(state, blob, field, max).await {
        Ok((mut recording, chunks)) => {
            recording.recorded = recorded;
            let uploaded =
                Uploaded { size: recording.size, sha256: recording.sha256.clone(), duration_ms: recording.duration_ms };
            let attached =
                route.run(move |mine, id| mine.attach_recording(id, recording, "audio/wav", chunks, now_ms())).await;
            if let Err(e) = attached {
                discard(state, blob).await;
                return Err(e);
            }
            state.jobs.nudge();
            Ok(Json(uploaded))
        }
        Err(e) => {
            discard(state, blob).await;
            Err(e)
        }
    }
}

/// When and in which time zone the browser recorded the meeting, if it said.
fn recorded_at(req: &Request) -> AppResult<Option<RecordedAt>> {
    match (req.header::<String>("x-recorded-at"), req.header::<String>("x-time-zone-offset")) {
        (Some(at), Some(offset)) => RecordedAt::parse(&at, &offset, now_ms()).map(Some).map_err(AppError::bad_request),
        (None, None) => Ok(None),
        _ => Err(AppError::bad_request("Send X-Recorded-At and X-Time-Zone-Offset together")),
    }
}

async fn discard(state: &AppState, blob: BlobId) {
    if let Err(e) = state.store.run(move |s| s.discard_chunks(blob)).await {
        tracing::error!("discarding the chunks of an abandoned upload: {e}");
    }
}

/// Streams the field into chunks of blob `blob`, checking the WAV header
/// on the way; returns the recording and its number of chunks.
async fn store_recording(state: &AppState, blob: BlobId, mut field: Part, max: u64) -> AppResult<(Recording, u32)> {
    let mut hasher = Sha256::new();
    let mut pending: Vec<u8> = Vec::with_capacity(CHUNK);
    let mut header: Option<WavHeader> = None;
    let (mut size, mut chunks) = (0u64, 0u32);
    loop {
        let piece = field.chunk().await?;
        let done = piece.is_none();
        if let Some(piece) = piece {
            size += piece.len() as u64;
            if size > max {
                return Err(too_large(max));
            }
            hasher.update(&piece);
            pending.extend_from_slice(&piece);
        }
        if header.is_none() && chunks == 0 && (pending.len() >= HEADER_WINDOW || done) {
            header = Some(WavHeader::parse(&pending[..pending.len().min(HEADER_WINDOW)]).ok_or_else(not_wav)?);
        }
        while pending.len() >= CHUNK || (done && !pending.is_empty()) {
            let rest = pending.split_off(pending.len().min(CHUNK));
            let full = std::mem::replace(&mut pending, rest);
            let index = chunks;
            state.store.run(move |s| s.put_chunk(blob, index, &full)).await?;
            chunks += 1;
        }
        if done {
            break;
        }
    }
    let header = header.ok_or_else(not_wav)?;
    if header.data_offset + header.data_len > size {
        return Err(AppError::bad_request("The recording is incomplete: the file is shorter than its header says"));
    }
    let sha256 = hasher.finalize().iter().map(|b| format!("{b:02x}")).collect();
    Ok((Recording { blob, size, sha256, duration_ms: header.duration_ms(), recorded: None }, chunks))
}

/// `GET /api/clients/{id}/recording`, with `Range` support.
#[handler]
pub async fn read(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<()> {
    send_file(req, depot, res, |client| client.recording.as_ref().map(|r| r.blob), "No recording").await
}

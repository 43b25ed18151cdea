//! A client's recording: a WAV file streamed into the blob store (no copy
//! of the whole file anywhere), and served back with ranges: as stored, or
//! decoded to WAV for a browser that cannot play Ogg Opus.

use std::time::Duration;

use salvo::prelude::*;
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::client_route::ClientRoute;
use super::error::{AppError, AppResult};
use super::multipart::{BETWEEN_PARTS, Part, Upload};
use super::state::AppState;
use crate::asr::audio;
use crate::clock::now_ms;
use crate::domain::client::{RecordedAt, Recording, WAV};
use crate::domain::ids::BlobId;
use crate::domain::wav::WavHeader;
use crate::store::{Blob, CHUNK, Store};

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

fn too_long(max: Duration) -> AppError {
    AppError::too_large(format!("The recording is longer than this server accepts ({})", spoken(max)))
}

/// A limit as a person reads it: "3 hours", "90 minutes", "45 seconds".
fn spoken(limit: Duration) -> String {
    let (n, unit) = match limit.as_secs() {
        s if s >= 3600 && s % 3600 == 0 => (s / 3600, "hour"),
        s if s >= 60 && s % 60 == 0 => (s / 60, "minute"),
        s => (s, "second"),
    };
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

/// What an upload may not exceed.
#[derive(Clone, Copy)]
struct Limits {
    bytes: u64,
    duration: Duration,
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
    let limits = Limits { bytes: max, duration: state.settings.max_recording_duration };
    match store_recording(state, blob, field, limits).await {
        Ok(mut recording) => {
            recording.recorded = recorded;
            let uploaded =
                Uploaded { size: recording.size, sha256: recording.sha256.clone(), duration_ms: recording.duration_ms };
            let attached = route.run(move |mine, id| mine.attach_recording(id, recording, now_ms())).await;
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
    if let Err(e) = state.store.run(move |s| s.discard_blob(blob)).await {
        tracing::error!("discarding the bytes of an abandoned upload: {e}");
    }
}

/// Streams the field into pending blob `blob`, a chunk at a time, checking
/// the WAV header on the way: a recording longer than allowed is refused
/// before any of it is written (a few bytes of header can announce hours).
async fn store_recording(state: &AppState, blob: BlobId, mut field: Part, limits: Limits) -> AppResult<Recording> {
    let max = limits.bytes;
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
            let parsed = WavHeader::parse(&pending[..pending.len().min(HEADER_WINDOW)]).ok_or_else(not_wav)?;
            if u128::from(parsed.duration_ms()) > limits.duration.as_millis() {
                return Err(too_long(limits.duration));
            }
            header = Some(parsed);
        }
        while pending.len() >= CHUNK || (done && !pending.is_empty()) {
            let rest = pending.split_off(pending.len().min(CHUNK));
            let full = std::mem::replace(&mut pending, rest);
            state.store.run(move |s| s.append_to_blob(blob, &full)).await?;
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
    Ok(Recording::uploaded(blob, size, sha256, header.duration_ms(), now_ms()))
}

/// `GET /api/clients/{id}/recording`, with `Range` support: the file as
/// stored, or with `as=wav` decoded to WAV (for a browser that cannot play
/// Ogg Opus, or learns no length for it and so cannot seek).
#[handler]
pub async fn read(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<()> {
    let route = ClientRoute::of(req, depot)?;
    // The address names its blob: a page opened before the recording was
    // compressed goes on playing the upload while it is kept, never the
    // compressed bytes under the upload's address.
    let named = req.query::<String>("v");
    let blob = route
        .run(move |mine, id| mine.client_file(id, |c| c.recording.as_ref()?.audio_named(named.as_deref())))
        .await?;
    let blob = blob.ok_or_else(|| AppError::not_found("No recording"))?;
    if req.query::<String>("as").as_deref() == Some("wav") {
        return read_as_wav(req, res, &route.state.store, blob).await;
    }
    super::blob::send(req, res, &route.state.store, blob)
}

/// The recording as WAV, decoded on each request: a fallback for the few
/// browsers that need it, not worth a second copy on disk. Only the span a
/// request asks for is decoded, from the Ogg page before it, and sent as it
/// is decoded: a range of a 3-hour meeting costs what the range costs.
async fn read_as_wav(req: &Request, res: &mut Response, store: &Store, blob: Blob) -> AppResult<()> {
    if blob.content_type() == WAV {
        return super::blob::send(req, res, store, blob);
    }
    // The compressed file is small (11 MB an hour); its samples are not.
    let ogg = store.run(move |s| s.blob_range(&blob, 0, blob.size())).await?;
    let corrupt = |e: audio::AudioError| AppError::internal(format!("a stored recording does not decode: {e}"));
    let samples = audio::opus::length(&ogg).map_err(corrupt)?;
    let header = audio::wav_header(samples);
    let size = (header.len() + samples * 2) as u64;
    super::blob::send_made(req, res, WAV, size, move |start, end| wav_span(ogg, header, start, end))
}

/// Bytes `start..end` of the WAV file of the Ogg Opus file `ogg`, whose
/// header is `header`, decoded on a blocking thread a piece at a time and
/// handed over through a short queue (the client's pace sets the decoder's).
fn wav_span(
    ogg: Vec<u8>,
    header: Vec<u8>,
    start: u64,
    end: u64,
) -> impl futures_util::Stream<Item = Result<bytes::Bytes, std::io::Error>> + Send + 'static {
    let (pieces, received) = tokio::sync::mpsc::channel::<Result<bytes::Bytes, std::io::Error>>(4);
    tokio::task::spawn_blocking(move || {
        let head_len = header.len() as u64;
        if start < head_len {
            let piece = bytes::Bytes::copy_from_slice(&header[start as usize..end.min(head_len) as usize]);
            if pieces.blocking_send(Ok(piece)).is_err() {
                return;
            }
        }
        if end <= head_len {
            return;
        }
        // Whole samples covering the span; the odd byte at either end is cut.
        let (from, to) = (start.max(head_len) - head_len, end - head_len);
        let first = (from / 2) as usize;
        let mut at = first as u64 * 2;
        let mut out = Vec::with_capacity(WAV_PIECE);
        let decoded = audio::opus::decode_span(&ogg, first..to.div_ceil(2) as usize, &mut |frame| {
            for &sample in frame {
                for byte in audio::pcm16(sample) {
                    if (from..to).contains(&at) {
                        out.push(byte);
                    }
                    at += 1;
                }
            }
            out.len() < WAV_PIECE || pieces.blocking_send(Ok(bytes::Bytes::from(std::mem::take(&mut out)))).is_ok()
        });
        let last = match decoded {
            Ok(()) => Ok(bytes::Bytes::from(out)),
            Err(e) => Err(std::io::Error::other(e.to_string())),
        };
        let _ = pieces.blocking_send(last);
    });
    futures_util::stream::unfold(received, |mut received| async move { received.recv().await.map(|p| (p, received)) })
}

/// Bytes of WAV sent at a time: a second of audio.
const WAV_PIECE: usize = 32 * 1024;

//! `POST /api/business-card/scan`: a photo of a card in, client fields out,
//! with `confidence` beside them (0–1 per field).

use std::io::Write;
use std::sync::Arc;

use salvo::prelude::*;

use super::error::{AppError, AppResult};
use super::multipart::{BETWEEN_PARTS, Upload};
use super::session::signed_in;
use super::state::state;
use crate::domain::image::sniff;
use crate::ocr::{OcrError, Scanned};

/// A phone photo at full resolution fits well within this.
pub const CARD_MAX: u64 = 15 * 1024 * 1024;

fn too_large() -> AppError {
    AppError::too_large("The photo is too large (15 MB at most)")
}

/// Multipart with the image in the field `businessCard`.
///
/// The photo is streamed to an unnamed file in the data directory and read
/// back only when its scan starts: memory holds the photo being scanned,
/// however many uploads arrive at once.
#[handler]
pub async fn scan(req: &mut Request, depot: &mut Depot) -> AppResult<Json<Scanned>> {
    let state = state(depot)?.clone();
    signed_in(depot)?;
    if req.header::<u64>("content-length").is_some_and(|len| len > CARD_MAX + BETWEEN_PARTS) {
        return Err(too_large());
    }
    // Refused before the photo is read: a full queue costs nobody an upload.
    if state.scanner.is_full() {
        return Err(busy(&state.scanner));
    }
    state.ensure_room(CARD_MAX)?;
    let mut upload = Upload::new(req, "Send the card as multipart/form-data with a 'businessCard' field", too_large)?;
    let mut part = upload
        .field("businessCard", CARD_MAX)
        .await?
        .ok_or_else(|| AppError::bad_request("The upload has no 'businessCard' image"))?;
    let file = Arc::new(tempfile::tempfile_in(&state.data_dir).map_err(AppError::internal)?);
    let (mut size, mut opening) = (0u64, Vec::new());
    while let Some(piece) = part.chunk().await? {
        size += piece.len() as u64;
        if size > CARD_MAX {
            return Err(too_large());
        }
        if opening.len() < OPENING {
            opening.extend_from_slice(&piece[..piece.len().min(OPENING - opening.len())]);
            if opening.len() == OPENING {
                check_type(&opening)?;
            }
        }
        let file = file.clone();
        tokio::task::spawn_blocking(move || (&*file).write_all(&piece))
            .await
            .map_err(AppError::internal)?
            .map_err(AppError::internal)?;
    }
    check_type(&opening)?;
    let file = Arc::try_unwrap(file).map_err(|_| AppError::internal("the photo's file is still shared"))?;
    let started = std::time::Instant::now();
    let fields = state.scanner.scan(file).await.map_err(|e| match e {
        OcrError::NotInstalled => AppError::unavailable(e.to_string()),
        OcrError::Unreadable(reason) => AppError::unsupported(reason),
        OcrError::TooLarge => AppError::too_large(e.to_string()),
        OcrError::Failed(reason) => AppError::internal(reason),
        OcrError::Busy => busy(&state.scanner),
        // Nobody reads this answer: its client left.
        OcrError::Abandoned => AppError::bad_request(e.to_string()),
    })?;
    tracing::info!(took_ms = started.elapsed().as_millis() as u64, "scanned a business card");
    Ok(Json(fields))
}

/// 503 with when to try again.
fn busy(scanner: &crate::ocr::Scanner) -> AppError {
    AppError::unavailable(OcrError::Busy.to_string()).retry_after(scanner.retry_after())
}

/// Enough of the file to tell its type.
const OPENING: usize = 16;

fn check_type(opening: &[u8]) -> AppResult<()> {
    if is_heic(opening) {
        return Err(AppError::unsupported(
            "HEIC photos cannot be read here yet: send a JPEG, or set the iPhone camera to 'Most Compatible'",
        ));
    }
    if sniff(opening).is_none() {
        return Err(AppError::unsupported("The business card must be a JPEG, PNG or WebP image"));
    }
    Ok(())
}

/// An ISO-BMFF file of the HEIF family (`ftypheic`, `ftypmif1`, …).
fn is_heic(bytes: &[u8]) -> bool {
    bytes.len() >= 12
        && &bytes[4..8] == b"ftyp"
        && matches!(&bytes[8..12], b"heic" | b"heix" | b"hevc" | b"heif" | b"mif1" | b"msf1")
}

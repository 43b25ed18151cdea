//! `POST /api/business-card/scan`: a photo of a card in, client fields out.

use salvo::prelude::*;

use super::error::{AppError, AppResult};
use super::session::signed_in;
use super::state::state;
use crate::domain::image::sniff;
use crate::ocr::{CardFields, OcrError};

/// A phone photo at full resolution fits well within this.
pub const CARD_MAX: usize = 15 * 1024 * 1024;

fn too_large() -> AppError {
    AppError::too_large("The photo is too large (15 MB at most)")
}

/// Multipart with the image in the field `businessCard`.
#[handler]
pub async fn scan(req: &mut Request, depot: &mut Depot) -> AppResult<Json<CardFields>> {
    let state = state(depot)?.clone();
    signed_in(depot)?;
    if req.header::<usize>("content-length").is_some_and(|len| len > CARD_MAX + 64 * 1024) {
        return Err(too_large());
    }
    let content_type = req.header::<String>("content-type").unwrap_or_default();
    let boundary = multer::parse_boundary(&content_type)
        .map_err(|_| AppError::unsupported("Send the card as multipart/form-data with a 'businessCard' field"))?;
    let constraints = multer::Constraints::new().size_limit(multer::SizeLimit::new().per_field(CARD_MAX as u64));
    let body = http_body_util::BodyExt::into_data_stream(req.take_body());
    let mut form = multer::Multipart::with_constraints(body, boundary, constraints);
    let mut image = None;
    while let Some(field) = form.next_field().await.map_err(upload_error)? {
        if field.name() == Some("businessCard") {
            image = Some(field.bytes().await.map_err(upload_error)?);
            break;
        }
    }
    let image = image.ok_or_else(|| AppError::bad_request("The upload has no 'businessCard' image"))?;
    if is_heic(&image) {
        return Err(AppError::unsupported(
            "HEIC photos cannot be read here yet: send a JPEG, or set the iPhone camera to 'Most Compatible'",
        ));
    }
    if sniff(&image).is_none() {
        return Err(AppError::unsupported("The business card must be a JPEG, PNG or WebP image"));
    }
    let _permit = state.scan_permits.acquire().await.map_err(AppError::internal)?;
    let started = std::time::Instant::now();
    let fields = tokio::task::spawn_blocking(move || crate::ocr::scan(&image))
        .await
        .map_err(AppError::internal)?
        .map_err(|e| match e {
            OcrError::NotInstalled => AppError::unavailable(e.to_string()),
            OcrError::Unreadable(reason) => AppError::unsupported(reason),
            OcrError::Failed(reason) => AppError::internal(reason),
        })?;
    tracing::info!(took_ms = started.elapsed().as_millis() as u64, "scanned a business card");
    Ok(Json(fields))
}

fn upload_error(e: multer::Error) -> AppError {
    match e {
        multer::Error::FieldSizeExceeded { .. } | multer::Error::StreamSizeExceeded { .. } => too_large(),
        _ => AppError::bad_request("The upload was cut off or malformed"),
    }
}

/// An ISO-BMFF file of the HEIF family (`ftypheic`, `ftypmif1`, …).
fn is_heic(bytes: &[u8]) -> bool {
    bytes.len() >= 12
        && &bytes[4..8] == b"ftyp"
        && matches!(&bytes[8..12], b"heic" | b"heix" | b"hevc" | b"heif" | b"mif1" | b"msf1")
}

use salvo::http::ParseError;
use salvo::http::header::{CONTENT_LENGTH, EXPECT};
use salvo::prelude::*;
use serde::de::DeserializeOwned;

use super::error::{AppError, AppResult};

/// The request's JSON body, within `max` bytes.
pub async fn json<T: DeserializeOwned>(req: &mut Request, max: usize) -> AppResult<T> {
    // A client waiting for "100 Continue" hears the answer before it sends a
    // byte of a body announced over the limit. Any other client is already
    // sending: answering without reading would cut it off mid-write, so it
    // would see a reset instead of the 413; its body is read up to the limit.
    if announced_over(req, max) && waits_for_continue(req) {
        return Err(too_large());
    }
    match req.parse_json_with_max_size::<T>(max).await {
        Ok(value) => Ok(value),
        Err(ParseError::PayloadTooLarge) => Err(too_large()),
        Err(_) => Err(AppError::bad_request("The request body is not valid JSON")),
    }
}

fn announced_over(req: &Request, max: usize) -> bool {
    req.headers().get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok()).is_some_and(|n| n > max as u64)
}

fn waits_for_continue(req: &Request) -> bool {
    req.headers().get(EXPECT).is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"100-continue"))
}

fn too_large() -> AppError {
    AppError::too_large("The request is too large")
}

/// Forms and small calls.
pub const SMALL: usize = 64 * 1024;

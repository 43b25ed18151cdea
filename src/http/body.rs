use salvo::http::ParseError;
use salvo::prelude::*;
use serde::de::DeserializeOwned;

use super::error::{AppError, AppResult};

/// The request's JSON body, within `max` bytes.
pub async fn json<T: DeserializeOwned>(req: &mut Request, max: usize) -> AppResult<T> {
    // A declared length over the limit is refused at once: reading (and
    // buffering) up to the limit first would only cost memory and time.
    if req.header::<u64>("content-length").is_some_and(|len| len > max as u64) {
        return Err(too_large());
    }
    match req.parse_json_with_max_size::<T>(max).await {
        Ok(value) => Ok(value),
        Err(ParseError::PayloadTooLarge) => Err(too_large()),
        Err(_) => Err(AppError::bad_request("The request body is not valid JSON")),
    }
}

fn too_large() -> AppError {
    AppError::too_large("The request is too large")
}

/// Forms and small calls.
pub const SMALL: usize = 64 * 1024;

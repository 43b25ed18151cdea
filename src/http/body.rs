use salvo::http::ParseError;
use salvo::prelude::*;
use serde::de::DeserializeOwned;

use super::error::{AppError, AppResult};

/// The request's JSON body, within `max` bytes.
pub async fn json<T: DeserializeOwned>(req: &mut Request, max: usize) -> AppResult<T> {
    match req.parse_json_with_max_size::<T>(max).await {
        Ok(value) => Ok(value),
        Err(ParseError::PayloadTooLarge) => Err(AppError::too_large("The request is too large")),
        Err(_) => Err(AppError::bad_request("The request body is not valid JSON")),
    }
}

/// Forms and small calls.
pub const SMALL: usize = 64 * 1024;

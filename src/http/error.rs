//! The one error type of the HTTP layer, and the one place it becomes a
//! response: `{ "message": …, "fieldErrors": [{ "field", "message" }] }`.
//!
//! An error carries what the user may read and, separately, what only the
//! log may read; internal details never reach the client.

use salvo::http::StatusCode;
use salvo::prelude::*;
use serde::Serialize;

use crate::domain::FieldError;
use crate::store::StoreError;

#[derive(Debug)]
pub struct AppError {
    status: StatusCode,
    message: String,
    field_errors: Vec<FieldError>,
    log: Option<String>,
    /// Seconds for a `Retry-After` header: when trying again may succeed.
    retry_after: Option<u64>,
}

impl AppError {
    fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self { status, message: message.into(), field_errors: Vec::new(), log: None, retry_after: None }
    }

    /// 400 with a message for each field that failed validation.
    pub fn invalid(field_errors: Vec<FieldError>) -> Self {
        let message = field_errors.first().map_or("Invalid input".to_owned(), |e| e.message.clone());
        Self { field_errors, ..Self::new(StatusCode::BAD_REQUEST, message) }
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, message)
    }

    /// 408: the request did not arrive in time.
    pub fn request_timeout(message: impl Into<String>) -> Self {
        Self::new(StatusCode::REQUEST_TIMEOUT, message)
    }

    pub fn too_large(message: impl Into<String>) -> Self {
        Self::new(StatusCode::PAYLOAD_TOO_LARGE, message)
    }

    pub fn unsupported(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, message)
    }

    /// An outside service (the mail server) failed; `log` says how.
    pub fn bad_gateway(message: impl Into<String>, log: impl std::fmt::Display) -> Self {
        Self { log: Some(log.to_string()), ..Self::new(StatusCode::BAD_GATEWAY, message) }
    }

    pub fn insufficient_storage(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INSUFFICIENT_STORAGE, message)
    }

    /// A needed engine or program is missing on the server.
    pub fn unavailable(message: impl Into<String>) -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }

    pub fn too_many(message: impl Into<String>) -> Self {
        Self::new(StatusCode::TOO_MANY_REQUESTS, message)
    }

    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, message)
    }

    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, message)
    }

    /// Something the server failed at. `log` is written to the log; the
    /// client reads only a generic sentence.
    pub fn internal(log: impl std::fmt::Display) -> Self {
        Self {
            log: Some(log.to_string()),
            ..Self::new(StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong on the server. Please try again.")
        }
    }

    /// The same error, telling the client to try again in `seconds`.
    pub fn retry_after(self, seconds: u64) -> Self {
        Self { retry_after: Some(seconds), ..self }
    }

    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The store's "no such record" as the route's own 404 (or other)
    /// `answer`; any other store error as [`From<StoreError>`] has it.
    pub fn or_store(answer: fn() -> AppError) -> impl Fn(StoreError) -> AppError {
        move |e| match e {
            StoreError::NotFound => answer(),
            other => other.into(),
        }
    }
}

/// What a user is told when the server's disk has no room for their file.
pub const DISK_FULL: &str = "The server's disk is nearly full. Free some space on the server and try again.";

impl From<StoreError> for AppError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::EmailTaken => Self::conflict("An account with this email already exists"),
            StoreError::NotFound => Self::not_found("Not found"),
            StoreError::Exists(message) => Self::conflict(message),
            StoreError::Conflict(message) => Self::conflict(message),
            StoreError::DiskFull(why) => {
                tracing::warn!("{why}: the disk is full");
                Self::insufficient_storage(DISK_FULL)
            }
            other => Self::internal(other),
        }
    }
}

impl From<crate::ops::OpError> for AppError {
    fn from(e: crate::ops::OpError) -> Self {
        match e {
            crate::ops::OpError::Invalid(errors) => Self::invalid(errors),
            crate::ops::OpError::Store(e) => e.into(),
            crate::ops::OpError::Failed(message) => Self::bad_request(message),
        }
    }
}

impl From<anyhow::Error> for AppError {
    fn from(e: anyhow::Error) -> Self {
        Self::internal(format!("{e:#}"))
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Body<'a> {
    message: &'a str,
    #[serde(skip_serializing_if = "<[FieldError]>::is_empty")]
    field_errors: &'a [FieldError],
}

impl Scribe for AppError {
    fn render(self, res: &mut Response) {
        if let Some(log) = &self.log {
            tracing::error!(status = self.status.as_u16(), "{log}");
        }
        res.status_code(self.status);
        if let Some(seconds) = self.retry_after {
            let _ = res.add_header("retry-after", seconds, true);
        }
        res.render(Json(Body { message: &self.message, field_errors: &self.field_errors }));
    }
}

pub type AppResult<T> = Result<T, AppError>;

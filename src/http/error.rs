//! The one error type of the HTTP layer, and the one place it becomes a
//! response: `{ "message": …, "fieldErrors": [{ "field", "message" }] }`.
//!
//! An error carries what the user may read and, separately, what only the
//! log may read; internal details never reach the client.

use salvo::http::StatusCode;
use salvo::prelude::*;
use serde::Serialize;

use crate::store::StoreError;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

#[derive(Debug)]
pub struct AppError {
    status: StatusCode,
    message: String,
    field_errors: Vec<FieldError>,
    log: Option<String>,
}

impl AppError {
    fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self { status, message: message.into(), field_errors: Vec::new(), log: None }
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
        Self { log: Some(log.to_string()), ..Self::new(StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong on the server. Please try again.") }
    }

    pub fn status(&self) -> StatusCode {
        self.status
    }
}

impl From<StoreError> for AppError {
    fn from(e: StoreError) -> Self {
        Self::internal(e)
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
        res.render(Json(Body { message: &self.message, field_errors: &self.field_errors }));
    }
}

pub type AppResult<T> = Result<T, AppError>;

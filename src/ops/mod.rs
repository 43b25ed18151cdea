//! Operations that the HTTP handlers, the control socket and the CLI share,
//! or that span the store and another part (mail): each is one function, so
//! there is never a second copy. A handler that is the only user of a store
//! call makes it itself, through the view it is handed.

pub mod accounts;
pub mod admins;
pub mod jobs;
pub mod mail;
pub mod signup;
pub mod templates;

use crate::domain::FieldError;
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum OpError {
    #[error("{}", .0.iter().map(|e| format!("{}: {}", e.field, e.message)).collect::<Vec<_>>().join("; "))]
    Invalid(Vec<FieldError>),
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("{0}")]
    Failed(String),
}

pub type OpResult<T> = Result<T, OpError>;

impl OpError {
    /// The store's "no such record" as `message`; any other store error as it is.
    pub fn or_store(message: impl Fn() -> String) -> impl Fn(StoreError) -> OpError {
        move |e| match e {
            StoreError::NotFound => OpError::Failed(message()),
            other => other.into(),
        }
    }
}

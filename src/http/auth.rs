use salvo::prelude::*;

use super::error::{AppError, AppResult};

/// `GET /api/auth/me`: the signed-in user, or 401.
#[handler]
pub async fn me() -> AppResult<()> {
    Err(AppError::unauthorized("Not signed in"))
}

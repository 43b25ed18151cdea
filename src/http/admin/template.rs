use salvo::prelude::*;

use super::AdminSession;
use crate::domain::template::{EmailTemplate, TemplateInput};
use crate::http::body::{SMALL, json};
use crate::http::error::AppResult;
use crate::http::state::state;

/// `GET /api/admin/email-template`.
#[handler]
pub async fn read(depot: &mut Depot) -> AppResult<Json<EmailTemplate>> {
    let admin = AdminSession::of(depot)?;
    let state = state(depot)?;
    Ok(Json(admin.run(&state.store, |admin| admin.template()).await?))
}

/// `PUT /api/admin/email-template`: merges the form's fields into the
/// stored template; it stays `default`.
#[handler]
pub async fn update(req: &mut Request, depot: &mut Depot) -> AppResult<Json<EmailTemplate>> {
    let (admin, state) = (AdminSession::of(depot)?.clone(), state(depot)?.clone());
    let input: TemplateInput = json(req, SMALL * 2).await?;
    Ok(Json(admin.run(&state.store, move |admin| Ok(crate::ops::templates::apply(&admin, input))).await??))
}

use salvo::prelude::*;
use serde::Serialize;

use super::AdminSession;
use crate::domain::client::{Client, ClientInput, Texts};
use crate::http::auth::Message;
use crate::http::body::{SMALL, json};
use crate::http::client_route::{client_id, client_not_found};
use crate::http::error::{AppError, AppResult};
use crate::http::state::state;

/// A client with the email of the user who created it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AdminClient {
    #[serde(flatten)]
    client: Client,
    created_by_email: Option<String>,
}

/// `GET /api/admin/clients`: every user's clients, newest first.
#[handler]
pub async fn list(depot: &mut Depot) -> AppResult<Json<Vec<AdminClient>>> {
    let (admin, state) = (AdminSession::of(depot)?, state(depot)?);
    let (clients, users) = admin.run(&state.store, |admin| Ok((admin.all_clients()?, admin.users()?))).await?;
    let email_of = |owner| users.iter().find(|u| u.id == owner).map(|u| u.email.clone());
    Ok(Json(
        clients.iter().map(|c| AdminClient { client: c.view(), created_by_email: email_of(c.record.owner) }).collect(),
    ))
}

/// `PUT /api/admin/clients/{id}` `{name, email, phone, company, position}`,
/// validated like the owner's form, through the owner-checked store call.
#[handler]
pub async fn update(req: &mut Request, depot: &mut Depot) -> AppResult<Json<Client>> {
    let (admin, state) = (AdminSession::of(depot)?.clone(), state(depot)?.clone());
    let id = client_id(req)?;
    let details = json::<ClientInput>(req, SMALL).await?.parse().map_err(AppError::invalid)?;
    let client = admin
        .run(&state.store, move |admin| admin.for_owner_of(id)?.update_client(id, details, Texts::default()))
        .await
        .map_err(AppError::or_store(client_not_found))?;
    Ok(Json(client.view()))
}

/// `DELETE /api/admin/clients/{id}`: with its photo and recording.
#[handler]
pub async fn delete(req: &mut Request, depot: &mut Depot) -> AppResult<Json<Message>> {
    let (admin, state) = (AdminSession::of(depot)?, state(depot)?);
    let id = client_id(req)?;
    admin
        .run(&state.store, move |admin| admin.for_owner_of(id)?.delete_client(id))
        .await
        .map_err(AppError::or_store(client_not_found))?;
    Ok(Json(Message { message: "Client deleted" }))
}

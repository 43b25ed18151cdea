//! A user's clients: create, list, read, change, delete. Every store call
//! takes the signed-in user as owner, so another user's client is a 404.

use bytes::Bytes;
use salvo::prelude::*;
use serde::Deserialize;

use super::auth::Message;
use super::body::{SMALL, json};
use super::client_lists::send_json;
use super::error::{AppError, AppResult};
use super::session::signed_in;
use super::state::{AppState, state};
use crate::clock::now_ms;
use crate::domain::client::{Client, ClientInput, ClientRecord, ClientRow, TextsInput};
use crate::domain::ids::{BlobId, ClientId};
use crate::domain::job::JobRecord;
use crate::store::IDEMPOTENCY_KEY_MAX;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CreateInput {
    client_data: ClientInput,
}

/// The `{id}` of the route; a malformed one is as missing as an unknown one.
pub fn client_id(req: &Request) -> AppResult<ClientId> {
    req.param::<ClientId>("id").ok_or_else(client_not_found)
}

pub fn client_not_found() -> AppError {
    AppError::not_found("Client not found")
}

/// Maps the store's "no such record" to the client's own message.
pub(super) fn not_found_as_client(e: crate::store::StoreError) -> AppError {
    match e {
        crate::store::StoreError::NotFound => client_not_found(),
        other => other.into(),
    }
}

/// `POST /api/clients` `{clientData: {…}}`. With an `Idempotency-Key`
/// header, a retry of the same create returns the first client (200)
/// instead of making a second one (201).
#[handler]
pub async fn create(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<Json<Client>> {
    let state = state(depot)?.clone();
    let owner = signed_in(depot)?.user.id;
    let key = req.header::<String>("idempotency-key");
    if key
        .as_ref()
        .is_some_and(|k| k.is_empty() || k.len() > IDEMPOTENCY_KEY_MAX || !k.chars().all(|c| c.is_ascii_graphic()))
    {
        return Err(AppError::bad_request("The Idempotency-Key header must be 1 to 200 visible ASCII characters"));
    }
    let input: CreateInput = json(req, SMALL).await?;
    let details = input.client_data.parse().map_err(AppError::invalid)?;
    let (client, created) = state.store.run(move |s| s.create_client(owner, details, key.as_deref(), now_ms())).await?;
    res.status_code(if created { StatusCode::CREATED } else { StatusCode::OK });
    Ok(Json(Client::from(&client)))
}

/// `GET /api/clients`: the user's clients, newest first. A `userId` in the
/// query is ignored: the list is always the signed-in user's. Rendered
/// once per change (see `client_lists.rs`).
#[handler]
pub async fn list(depot: &mut Depot, res: &mut Response) -> AppResult<()> {
    let state = state(depot)?.clone();
    let owner = signed_in(depot)?.user.id;
    // Read before the store is, so a write committed meanwhile makes this rendering stale.
    let changes = state.store.changes();
    let body = match state.client_lists.get(&owner, changes) {
        Some(body) => body,
        None => {
            // Rendered on the blocking pool too: a long list takes milliseconds.
            let rendered = state.store.run(move |s| Ok(render_list(&s.clients_with_jobs(owner)?))).await?;
            let body = Bytes::from(rendered.map_err(AppError::internal)?);
            state.client_lists.keep(owner, changes, body.clone());
            body
        }
    };
    send_json(res, body);
    Ok(())
}

fn render_list(clients: &[(ClientRecord, Option<JobRecord>)]) -> serde_json::Result<Vec<u8>> {
    let rows: Vec<ClientRow> = clients
        .iter()
        .map(|(c, job)| ClientRow::from(c).with_job_status(job.as_ref().map(JobRecord::status)))
        .collect();
    serde_json::to_vec(&rows)
}

/// `GET /api/clients/{id}`.
#[handler]
pub async fn read(req: &mut Request, depot: &mut Depot) -> AppResult<Json<Client>> {
    let state = state(depot)?.clone();
    let owner = signed_in(depot)?.user.id;
    let id = client_id(req)?;
    let client = state.store.run(move |s| s.client(owner, id)).await.map_err(not_found_as_client)?;
    Ok(Json(with_job(state, client).await?))
}

#[derive(Deserialize)]
struct PatchInput {
    #[serde(flatten)]
    contact: ClientInput,
    #[serde(flatten)]
    texts: TextsInput,
}

/// `PATCH /api/clients/{id}`: the contact details, validated like a new
/// client, and optionally the summary and next steps as corrected before
/// emailing them.
#[handler]
pub async fn update(req: &mut Request, depot: &mut Depot) -> AppResult<Json<Client>> {
    let state = state(depot)?.clone();
    let owner = signed_in(depot)?.user.id;
    let id = client_id(req)?;
    let input: PatchInput = json(req, SMALL * 4).await?;
    let (details, texts) = match (input.contact.parse(), input.texts.parse()) {
        (Ok(details), Ok(texts)) => (details, texts),
        (contact, texts) => {
            return Err(AppError::invalid([contact.err(), texts.err()].into_iter().flatten().flatten().collect()));
        }
    };
    let client =
        state.store.run(move |s| s.update_client(owner, id, details, texts)).await.map_err(not_found_as_client)?;
    Ok(Json(with_job(state, client).await?))
}

/// `DELETE /api/clients/{id}`: the client, its photo and its recording.
#[handler]
pub async fn delete(req: &mut Request, depot: &mut Depot) -> AppResult<Json<Message>> {
    let state = state(depot)?.clone();
    let owner = signed_in(depot)?.user.id;
    let id = client_id(req)?;
    state.store.run(move |s| s.delete_client(owner, id)).await.map_err(not_found_as_client)?;
    Ok(Json(Message { message: "Client deleted" }))
}

/// The client as its owner sees it, with the state of its job.
pub(super) async fn with_job(state: AppState, client: ClientRecord) -> AppResult<Client> {
    let (owner, id) = (client.owner, client.id);
    let job = state.store.run(move |s| s.job(owner, id)).await?;
    Ok(Client::from(&client).with_job(job.map(|j| j.view(state.jobs.progress(id)))))
}

/// Sends a file of one of the signed-in user's clients (its photo, its
/// recording), with ranges.
pub async fn send_file(
    req: &Request,
    depot: &Depot,
    res: &mut Response,
    file: fn(&ClientRecord) -> Option<BlobId>,
    missing: &'static str,
) -> AppResult<()> {
    let state = state(depot)?.clone();
    let owner = signed_in(depot)?.user.id;
    let id = client_id(req)?;
    let client = state.store.run(move |s| s.client(owner, id)).await.map_err(not_found_as_client)?;
    let blob = file(&client).ok_or_else(|| AppError::not_found(missing))?;
    super::blob::send(req, res, &state.store, blob, client_not_found).await
}

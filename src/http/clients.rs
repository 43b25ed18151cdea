//! A user's clients: create, list, read, change, delete. Every store call
//! takes the signed-in user as owner, so another user's client is a 404.

use bytes::Bytes;
use salvo::prelude::*;
use serde::Deserialize;

use super::auth::Message;
use super::body::{SMALL, json};
use super::client_lists::send_json;
use super::client_route::ClientRoute;
use super::error::{AppError, AppResult};
use super::session::signed_in;
use super::state::{AppState, state};
use crate::clock::now_ms;
use crate::domain::client::{Client, ClientInput, ClientRecord, ClientRow, ClientWithSteps, TextsInput};
use crate::domain::ids::BlobId;
use crate::domain::job::JobRecord;
use crate::store::IDEMPOTENCY_KEY_MAX;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CreateInput {
    client_data: ClientInput,
}

/// `POST /api/clients` `{clientData: {…}}`. With an `Idempotency-Key`
/// header, a retry of the same create returns the first client (200)
/// instead of making a second one (201).
#[handler]
pub async fn create(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<Json<Client>> {
    let state = state(depot)?.clone();
    let me = signed_in(depot)?.clone();
    let key = req.header::<String>("idempotency-key");
    if key
        .as_ref()
        .is_some_and(|k| k.is_empty() || k.len() > IDEMPOTENCY_KEY_MAX || !k.chars().all(|c| c.is_ascii_graphic()))
    {
        return Err(AppError::bad_request("The Idempotency-Key header must be 1 to 200 visible ASCII characters"));
    }
    let input: CreateInput = json(req, SMALL).await?;
    let details = input.client_data.parse().map_err(AppError::invalid)?;
    let (client, created) =
        me.run(&state.store, move |mine| mine.create_client(details, key.as_deref(), now_ms())).await?;
    res.status_code(if created { StatusCode::CREATED } else { StatusCode::OK });
    Ok(Json(ClientWithSteps { record: client, items: Vec::new() }.view()))
}

/// `GET /api/clients`: the user's clients, newest first. A `userId` in the
/// query is ignored: the list is always the signed-in user's. Rendered
/// once per change (see `client_lists.rs`).
#[handler]
pub async fn list(depot: &mut Depot, res: &mut Response) -> AppResult<()> {
    let state = state(depot)?.clone();
    let me = signed_in(depot)?.clone();
    let owner = me.user.id;
    // Read before the store is, so a write committed meanwhile makes this rendering stale.
    let changes = state.store.changes();
    let body = match state.client_lists.get(&owner, changes) {
        Some(body) => body,
        None => {
            // Rendered on the blocking pool too: a long list takes milliseconds.
            let rendered = me.run(&state.store, |mine| Ok(render_list(&mine.clients_with_jobs()?))).await?;
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
    let route = ClientRoute::of(req, depot)?;
    let found = route.run(|mine, id| mine.client_with_job(id)).await?;
    Ok(Json(with_job(&route.state, found)))
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
    let route = ClientRoute::of(req, depot)?;
    let input: PatchInput = json(req, SMALL * 4).await?;
    let (details, texts) = match (input.contact.parse(), input.texts.parse()) {
        (Ok(details), Ok(texts)) => (details, texts),
        (contact, texts) => {
            return Err(AppError::invalid([contact.err(), texts.err()].into_iter().flatten().flatten().collect()));
        }
    };
    let found = route.run(|mine, id| Ok((mine.update_client(id, details, texts)?, mine.job(id)?))).await?;
    Ok(Json(with_job(&route.state, found)))
}

/// `DELETE /api/clients/{id}`: the client, its photo and its recording.
#[handler]
pub async fn delete(req: &mut Request, depot: &mut Depot) -> AppResult<Json<Message>> {
    ClientRoute::of(req, depot)?.run(|mine, id| mine.delete_client(id)).await?;
    Ok(Json(Message { message: "Client deleted" }))
}

/// The client as its owner sees it, with the state of its job.
pub(super) fn with_job(state: &AppState, (client, job): (ClientWithSteps, Option<JobRecord>)) -> Client {
    client.view().with_job(job.map(|j| j.view(state.jobs.progress(client.record.id))))
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
    let route = ClientRoute::of(req, depot)?;
    let blob = route.run(move |mine, id| mine.client_file(id, file)).await?;
    super::blob::send(req, res, &route.state.store, blob.ok_or_else(|| AppError::not_found(missing))?)
}

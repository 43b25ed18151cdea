//! Clients, always read and written through their owner's view: a client
//! of another user is `NotFound`, exactly like one that does not exist.

use redb::{ReadTransaction, ReadableTable};

use super::action_items::{items_in, items_of, remove_items_of, save_edits};
use super::blobs::{Blob, delete_blob, put_blob, read_blob, seal_blob};
use super::changes::WriteTx;
use super::codec::decode;
use super::records::{owned, put_client, queue_job, remove_job};
use super::tables::{CLIENTS, CLIENTS_BY_OWNER, IDEMPOTENCY, JOBS};
use super::transcripts::remove_transcript;
use super::views::{AdminView, OwnerView};
use super::{StoreError, StoreResult, meta};
use crate::domain::client::{ClientRecord, ClientWithSteps, ContactDetails, Recording, Texts};
use crate::domain::ids::{BlobId, ClientId, UserId};
use crate::domain::job::JobRecord;

/// Longest `Idempotency-Key` kept.
pub const IDEMPOTENCY_KEY_MAX: usize = 200;

impl OwnerView<'_> {
    /// Adds a client. With an idempotency key already used by this owner,
    /// returns the client made the first time instead.
    pub fn create_client(
        &self,
        details: ContactDetails,
        idempotency_key: Option<&str>,
        now: i64,
    ) -> StoreResult<(ClientRecord, bool)> {
        let owner = self.owner;
        let tx = self.store.write()?;
        if let Some(key) = idempotency_key {
            let existing = tx.open_table(IDEMPOTENCY)?.get((owner.key(), key))?.map(|v| ClientId::from_key(v.value()));
            if let Some(id) = existing
                && let Ok(client) = owned(&tx, owner, id)
            {
                return Ok((client, false));
            }
        }
        let client = ClientRecord::new(ClientId::from_key(meta::next_id(&tx, "clients")?), owner, details, now);
        put_client(&tx, &client)?;
        tx.open_table(CLIENTS_BY_OWNER)?.insert((owner.key(), client.id.key()), ())?;
        if let Some(key) = idempotency_key {
            tx.open_table(IDEMPOTENCY)?.insert((owner.key(), key), client.id.key())?;
        }
        tx.commit()?;
        Ok((client, true))
    }

    pub fn client(&self, id: ClientId) -> StoreResult<ClientRecord> {
        read_owned(&self.store.read()?, self.owner, id)
    }

    /// Client `id` with its next steps and its job, in one read: the client's page.
    pub fn client_with_job(&self, id: ClientId) -> StoreResult<(ClientWithSteps, Option<JobRecord>)> {
        let tx = self.store.read()?;
        let record = read_owned(&tx, self.owner, id)?;
        let job: Option<JobRecord> = tx.open_table(JOBS)?.get(id.key())?.map(|v| decode(v.value())).transpose()?;
        Ok((ClientWithSteps { items: items_of(&tx, id)?, record }, job))
    }

    /// One file of client `id` (its photo, its recording), read with the
    /// client in one transaction; `None` when the client has no such file.
    pub fn client_file(
        &self,
        id: ClientId,
        file: impl FnOnce(&ClientRecord) -> Option<BlobId>,
    ) -> StoreResult<Option<Blob>> {
        let tx = self.store.read()?;
        file(&read_owned(&tx, self.owner, id)?).map(|blob| read_blob(&tx, blob)).transpose()
    }

    /// The owner's clients, newest first (then by id, descending).
    pub fn clients(&self) -> StoreResult<Vec<ClientRecord>> {
        clients_of(&self.store.read()?, self.owner)
    }

    /// [`OwnerView::clients`], each with its job: the client list, in one
    /// read that looks up only these clients' jobs.
    pub fn clients_with_jobs(&self) -> StoreResult<Vec<(ClientRecord, Option<JobRecord>)>> {
        let tx = self.store.read()?;
        let jobs = tx.open_table(JOBS)?;
        clients_of(&tx, self.owner)?
            .into_iter()
            .map(|client| {
                let job: Option<JobRecord> = jobs.get(client.id.key())?.map(|v| decode(v.value())).transpose()?;
                Ok((client, job.filter(|j| j.owner == self.owner)))
            })
            .collect()
    }

    /// Changes the contact details and, where given, the summary and next
    /// steps (an empty text clears it).
    pub fn update_client(&self, id: ClientId, details: ContactDetails, texts: Texts) -> StoreResult<ClientWithSteps> {
        let tx = self.store.write()?;
        let mut record = owned(&tx, self.owner, id)?;
        details.apply_to(&mut record);
        let items = match texts.apply_to(&mut record) {
            Some(steps) => save_edits(&tx, &mut record, steps)?,
            None => items_in(&tx, id)?,
        };
        put_client(&tx, &record)?;
        tx.commit()?;
        Ok(ClientWithSteps { record, items })
    }

    /// Notes that the follow-up went out (or was filed) at `at`.
    pub fn mark_emailed(&self, id: ClientId, at: i64) -> StoreResult<ClientRecord> {
        self.change_client(id, |client, _| {
            client.emailed_at = Some(at);
            Ok(())
        })
    }

    /// Notes that the owner followed up another way at `at`, or (`None`)
    /// takes that back.
    pub fn mark_followed_up(&self, id: ClientId, at: Option<i64>) -> StoreResult<ClientRecord> {
        self.change_client(id, |client, _| {
            client.followed_up_at = at;
            Ok(())
        })
    }

    /// Removes the client with its photo and recording.
    pub fn delete_client(&self, id: ClientId) -> StoreResult<()> {
        let (owner, tx) = (self.owner, self.store.write()?);
        let client = owned(&tx, owner, id)?;
        remove_client(&tx, &client)?;
        tx.open_table(IDEMPOTENCY)?.retain(|(key_owner, _), client| key_owner != owner.key() || client != id.key())?;
        tx.commit()?;
        Ok(())
    }

    /// Replaces the client's photo.
    pub fn set_client_photo(&self, id: ClientId, content_type: &str, bytes: &[u8]) -> StoreResult<ClientRecord> {
        let files = self.store.files.clone();
        self.change_client(id, |client, tx| {
            if let Some(old) = client.photo.take() {
                delete_blob(tx, old)?;
            }
            client.photo = Some(put_blob(tx, &*files, content_type, bytes)?);
            Ok(())
        })
    }

    /// Points the client at a recording whose bytes are already written
    /// (see [`super::Store::begin_blob`]), sealing them; the previous
    /// recording is removed. A fresh job to transcribe and summarise it is
    /// queued in the same transaction.
    pub fn attach_recording(&self, id: ClientId, recording: Recording, now: i64) -> StoreResult<ClientRecord> {
        let files = self.store.files.clone();
        self.change_client(id, |client, tx| {
            let (blob, size) = (recording.blob, recording.size);
            seal_blob(tx, &*files, blob, &recording.content_type, size, &recording.sha256)?;
            if let Some(old) = client.recording.take() {
                for blob in old.blobs() {
                    delete_blob(tx, blob)?;
                }
            }
            client.recording = Some(recording);
            // The old recording's times are no new recording's.
            remove_transcript(tx, client.id)?;
            queue_job(tx, client, now)
        })
    }

    fn change_client(
        &self,
        id: ClientId,
        change: impl FnOnce(&mut ClientRecord, &WriteTx) -> StoreResult<()>,
    ) -> StoreResult<ClientRecord> {
        let tx = self.store.write()?;
        let mut client = owned(&tx, self.owner, id)?;
        change(&mut client, &tx)?;
        put_client(&tx, &client)?;
        tx.commit()?;
        Ok(client)
    }
}

impl<'s> AdminView<'s> {
    /// Every client of every user with their next steps, newest first.
    pub fn all_clients(&self) -> StoreResult<Vec<ClientWithSteps>> {
        let tx = self.store.read()?;
        let table = tx.open_table(CLIENTS)?;
        let mut clients = Vec::new();
        for entry in table.iter()? {
            let record = decode::<ClientRecord>(entry?.1.value())?;
            clients.push(ClientWithSteps { items: items_of(&tx, record.id)?, record });
        }
        clients.sort_by(|a, b| b.record.created_at.cmp(&a.record.created_at).then(b.record.id.cmp(&a.record.id)));
        Ok(clients)
    }

    /// The view of whoever owns client `id`, so an administrator acts
    /// through the same owner-checked calls as the owner.
    pub fn for_owner_of(&self, id: ClientId) -> StoreResult<OwnerView<'s>> {
        let tx = self.store.read()?;
        let found: Option<ClientRecord> =
            tx.open_table(CLIENTS)?.get(id.key())?.map(|v| decode(v.value())).transpose()?;
        found.map(|c| self.for_user(c.owner)).ok_or(StoreError::NotFound)
    }
}

fn remove_client(tx: &WriteTx, client: &ClientRecord) -> StoreResult<()> {
    for blob in client.photo.into_iter().chain(client.recording.iter().flat_map(Recording::blobs)) {
        delete_blob(tx, blob)?;
    }
    tx.open_table(CLIENTS)?.remove(client.id.key())?;
    tx.open_table(CLIENTS_BY_OWNER)?.remove((client.owner.key(), client.id.key()))?;
    remove_items_of(tx, client.id)?;
    remove_transcript(tx, client.id)?;
    remove_job(tx, client.id)?;
    Ok(())
}

/// Removes every client of `owner`, inside the caller's transaction.
pub(super) fn delete_clients_of(tx: &WriteTx, owner: UserId) -> StoreResult<()> {
    let ids: Vec<ClientId> = {
        let index = tx.open_table(CLIENTS_BY_OWNER)?;
        let mut ids = Vec::new();
        for entry in index.range((owner.key(), 0)..=(owner.key(), u64::MAX))? {
            ids.push(ClientId::from_key(entry?.0.value().1));
        }
        ids
    };
    for id in ids {
        remove_client(tx, &owned(tx, owner, id)?)?;
    }
    tx.open_table(IDEMPOTENCY)?.retain(|(key_owner, _), _| key_owner != owner.key())?;
    Ok(())
}

pub(super) fn read_owned(tx: &ReadTransaction, owner: UserId, id: ClientId) -> StoreResult<ClientRecord> {
    let found: Option<ClientRecord> = tx.open_table(CLIENTS)?.get(id.key())?.map(|v| decode(v.value())).transpose()?;
    found.filter(|c| c.owner == owner).ok_or(StoreError::NotFound)
}

pub(super) fn clients_of(tx: &ReadTransaction, owner: UserId) -> StoreResult<Vec<ClientRecord>> {
    let index = tx.open_table(CLIENTS_BY_OWNER)?;
    let table = tx.open_table(CLIENTS)?;
    let mut clients = Vec::new();
    for entry in index.range((owner.key(), 0)..=(owner.key(), u64::MAX))? {
        let (key, _) = entry?;
        let (_, id) = key.value();
        if let Some(value) = table.get(id)? {
            clients.push(decode::<ClientRecord>(value.value())?);
        }
    }
    clients.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(b.id.cmp(&a.id)));
    Ok(clients)
}

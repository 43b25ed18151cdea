//! What the store offers the upkeep that runs beside the server: which
//! blobs to move out of an older database or to compress, the swaps that do
//! it, the retention policy, and how much space each kind of file takes.
//!
//! Every step is one transaction that checks the record still points where
//! it pointed when the work began, so a step cut by a crash or raced by an
//! upload is redone or dropped, never half applied.

use redb::{ReadableTable, WriteTransaction};
use serde::{Deserialize, Serialize};

use super::blobs::{Blob, BlobMeta, delete_blob, read_blob, seal_blob, sha256_hex};
use super::codec::{decode, encode};
use super::records::put_client;
use super::tables::{BLOB_CHUNKS, BLOB_META, CLIENTS, JOBS, SETTINGS};
use super::views::AdminView;
use super::{Store, StoreError, StoreResult};
use crate::domain::client::{ClientRecord, Superseded, WAV};
use crate::domain::ids::{BlobId, ClientId};
use crate::domain::job::{JobRecord, JobState, Stage};
use crate::domain::retention::Retention;

const RETENTION: &str = "retention";

/// How long an upload stays after its recording was compressed, for pages
/// that opened it before and play it by its address.
const SUPERSEDED_KEPT_MS: i64 = 60 * 60 * 1000;

/// Work the upkeep has left.
#[derive(Debug, Default)]
pub struct Backlog {
    /// Recordings kept as uploaded whose transcript is made.
    pub to_compress: Vec<(ClientId, BlobId)>,
    /// Other blobs still inside the database (an older file).
    pub to_move: Vec<BlobId>,
    /// Uploads kept past their compression long enough.
    pub to_release: Vec<(ClientId, BlobId)>,
}

impl Backlog {
    /// The files still to compress or move out.
    pub fn len(&self) -> usize {
        self.to_compress.len() + self.to_move.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Where the space goes, and the policy that frees it: the dashboard's
/// storage panel, `debrief retention` and `debrief doctor`.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StorageUse {
    pub recordings_bytes: u64,
    /// Client photos and profile pictures.
    pub photos_bytes: u64,
    pub database_bytes: u64,
    /// Of the file system holding the data directory; 0 when unknown.
    pub free_bytes: u64,
    pub total_bytes: u64,
    /// Under a tenth of the disk free.
    pub low_on_space: bool,
    /// `None`: recordings are kept for good.
    pub retention_days: Option<u32>,
    /// Recordings and files the upkeep has yet to compress or move out.
    pub pending_compression: usize,
}

impl Store {
    /// What is left to compress, move out of the database or let go, as of `now`.
    pub fn backlog(&self, now: i64) -> StoreResult<Backlog> {
        let tx = self.read()?;
        let jobs = tx.open_table(JOBS)?;
        let mut backlog = Backlog::default();
        for entry in tx.open_table(CLIENTS)?.iter()? {
            let client: ClientRecord = decode(entry?.1.value())?;
            let superseded = client.recording.as_ref().and_then(|r| r.superseded);
            if let Some(old) = superseded.filter(|s| s.since + SUPERSEDED_KEPT_MS <= now) {
                backlog.to_release.push((client.id, old.blob));
            }
            let Some(recording) = client.recording.as_ref().filter(|r| r.content_type == WAV) else { continue };
            let Some(blob) = recording.audio() else { continue };
            let job: Option<JobRecord> = jobs.get(client.id.key())?.map(|v| decode(v.value())).transpose()?;
            if job.is_none_or(|job| transcribed(&job)) {
                backlog.to_compress.push((client.id, blob));
            }
        }
        let compressing: Vec<BlobId> = backlog.to_compress.iter().map(|(_, blob)| *blob).collect();
        for entry in tx.open_table(BLOB_META)?.iter()? {
            let (id, value) = entry?;
            let id = BlobId::from_key(id.value());
            if decode::<BlobMeta>(value.value())?.chunks > 0 && !compressing.contains(&id) {
                backlog.to_move.push(id);
            }
        }
        Ok(backlog)
    }

    /// Every byte of blob `id`, wherever it is kept; `NotFound` once gone.
    pub fn blob_bytes(&self, id: BlobId) -> StoreResult<(Blob, Vec<u8>)> {
        let blob = read_blob(&self.read()?, id)?;
        let bytes = self.blob_range(&blob, 0, blob.size())?;
        Ok((blob, bytes))
    }

    /// Blob `id`, to be read as a stream.
    pub fn blob_stream(&self, id: BlobId) -> StoreResult<super::BlobReader> {
        Ok(self.blob_reader(read_blob(&self.read()?, id)?))
    }

    /// Moves blob `id` out of the database into its file, as it is.
    /// `false` when it was deleted or moved meanwhile.
    pub fn move_blob_out(&self, id: BlobId) -> StoreResult<bool> {
        let (blob, bytes) = match self.blob_bytes(id) {
            Err(StoreError::NotFound) => return Ok(false),
            other => other?,
        };
        // A move cut short left a pending file; start it afresh.
        self.discard_blob(id)?;
        self.files.append(id, &bytes).map_err(|e| StoreError::from_io(e, format!("moving blob {id} out")))?;
        let tx = self.write()?;
        let still: Option<BlobMeta> =
            tx.open_table(BLOB_META)?.get(id.key())?.map(|v| decode(v.value())).transpose()?;
        if still.is_none_or(|m| m.chunks == 0) {
            drop(tx);
            self.discard_blob(id)?;
            return Ok(false);
        }
        remove_chunks(&tx, id)?;
        seal_blob(&tx, &*self.files, id, blob.content_type(), bytes.len() as u64, &sha256_hex(&bytes))?;
        tx.commit()?;
        Ok(true)
    }

    /// Points client `client`'s recording at `bytes` (its compressed copy,
    /// of type `content_type`) in place of blob `old`, which is kept an hour
    /// for pages playing it. `false`, keeping everything as it was, when the
    /// recording changed meanwhile (a new upload, a deleted client, removed
    /// by policy).
    pub fn replace_recording_audio(
        &self,
        client: ClientId,
        old: BlobId,
        bytes: &[u8],
        content_type: &str,
        now: i64,
    ) -> StoreResult<bool> {
        let new = self.begin_blob()?;
        self.files.append(new, bytes).map_err(|e| StoreError::from_io(e, format!("writing blob {new}")))?;
        let tx = self.write()?;
        let found: Option<ClientRecord> =
            tx.open_table(CLIENTS)?.get(client.key())?.map(|v| decode(v.value())).transpose()?;
        let Some(mut record) = found.filter(|c| c.recording.as_ref().and_then(|r| r.audio()) == Some(old)) else {
            drop(tx);
            self.discard_blob(new)?;
            return Ok(false);
        };
        seal_blob(&tx, &*self.files, new, content_type, bytes.len() as u64, &sha256_hex(bytes))?;
        if let Some(recording) = record.recording.as_mut() {
            if let Some(earlier) = recording.superseded.replace(Superseded { blob: old, since: now }) {
                delete_blob(&tx, earlier.blob)?;
            }
            recording.blob = new;
            recording.content_type = content_type.to_owned();
            recording.stored_size = Some(bytes.len() as u64);
        }
        put_client(&tx, &record)?;
        tx.commit()?;
        Ok(true)
    }

    /// Deletes the upload `old` that client `client`'s compressed recording
    /// replaced, if it is still the one kept.
    pub fn release_superseded(&self, client: ClientId, old: BlobId) -> StoreResult<()> {
        let tx = self.write()?;
        let found: Option<ClientRecord> =
            tx.open_table(CLIENTS)?.get(client.key())?.map(|v| decode(v.value())).transpose()?;
        let Some(mut record) = found else { return Ok(()) };
        let Some(recording) = record.recording.as_mut().filter(|r| r.superseded.is_some_and(|s| s.blob == old)) else {
            return Ok(());
        };
        recording.superseded = None;
        delete_blob(&tx, old)?;
        put_client(&tx, &record)?;
        tx.commit()?;
        Ok(())
    }

    /// Removes the audio of recordings made before `cutoff` (Unix
    /// milliseconds), keeping their transcripts, summaries and next steps;
    /// a recording whose job is under way waits. Returns how many went.
    pub fn remove_audio_before(&self, cutoff: i64, now: i64) -> StoreResult<usize> {
        let tx = self.write()?;
        let old: Vec<ClientRecord> = {
            let jobs = tx.open_table(JOBS)?;
            let mut old = Vec::new();
            for entry in tx.open_table(CLIENTS)?.iter()? {
                let client: ClientRecord = decode(entry?.1.value())?;
                let Some(recording) = client.recording.as_ref().filter(|r| r.audio().is_some()) else { continue };
                // The meeting's own date where the browser gave it (a
                // recording made offline is uploaded later), else the upload's.
                let made =
                    recording.recorded.map(|r| r.unix_ms()).or(recording.uploaded_at).unwrap_or(client.created_at);
                let job: Option<JobRecord> = jobs.get(client.id.key())?.map(|v| decode(v.value())).transpose()?;
                if made < cutoff && !job.is_some_and(|j| j.is_active()) {
                    old.push(client);
                }
            }
            old
        };
        // Most passes find nothing: no commit then, which would fsync and
        // make every cached view stale.
        if old.is_empty() {
            return Ok(0);
        }
        for mut client in old.iter().cloned() {
            if let Some(recording) = client.recording.as_mut() {
                for blob in recording.blobs() {
                    delete_blob(&tx, blob)?;
                }
                recording.removed_at = Some(now);
                recording.superseded = None;
            }
            put_client(&tx, &client)?;
        }
        tx.commit()?;
        Ok(old.len())
    }

    /// The retention policy; recordings are kept for good until one is set.
    pub fn retention(&self) -> StoreResult<Retention> {
        let tx = self.read()?;
        let stored = tx.open_table(SETTINGS)?.get(RETENTION)?.map(|v| decode(v.value())).transpose()?;
        Ok(stored.unwrap_or_default())
    }
}

impl AdminView<'_> {
    /// Bytes taken by recordings, photos and the database file, the disk's
    /// space, the retention policy and the upkeep's backlog.
    pub fn storage_use(&self) -> StoreResult<StorageUse> {
        let store = self.store;
        let mut usage = StorageUse {
            database_bytes: std::fs::metadata(&*store.path).map(|m| m.len()).unwrap_or(0),
            retention_days: store.retention()?.days(),
            pending_compression: store.backlog(crate::clock::now_ms())?.len(),
            ..Default::default()
        };
        for entry in store.read()?.open_table(BLOB_META)?.iter()? {
            let meta: BlobMeta = decode(entry?.1.value())?;
            if meta.content_type.starts_with("audio/") {
                usage.recordings_bytes += meta.size;
            } else {
                usage.photos_bytes += meta.size;
            }
        }
        let folder = store.path.parent().unwrap_or(std::path::Path::new("."));
        if let Some(space) = crate::datadir::disk_space(folder) {
            (usage.free_bytes, usage.total_bytes, usage.low_on_space) = (space.free, space.total, space.is_low());
        }
        Ok(usage)
    }

    pub fn set_retention(&self, retention: Retention) -> StoreResult<()> {
        let tx = self.store.write()?;
        tx.open_table(SETTINGS)?.insert(RETENTION, encode(&retention)?.as_slice())?;
        tx.commit()?;
        Ok(())
    }
}

/// Whether the job made its transcript (the recording may be compressed).
fn transcribed(job: &JobRecord) -> bool {
    job.stage == Stage::Summarise || job.state == JobState::Done
}

fn remove_chunks(tx: &WriteTransaction, id: BlobId) -> StoreResult<()> {
    let id = id.key();
    tx.open_table(BLOB_CHUNKS)?.retain_in((id, 0)..=(id, u32::MAX), |_, _| false)?;
    Ok(())
}

//! Stored files (profile pictures, client photos, recordings): their bytes
//! in the blob folder (see `blob_files.rs`), what they are in `blob_meta`.
//!
//! A streamed blob is written to a pending file and becomes visible only
//! when its metadata is written in the transaction that attaches it to its
//! record, which seals the file first; files left without metadata by a
//! crash, a broken upload or a deleted record are swept.
//!
//! Databases from before kept the bytes inside in chunks (`blob_chunks`);
//! they are still read from there until the upkeep moves them out.

use std::time::Duration;

use redb::{ReadTransaction, ReadableTable, WriteTransaction};
use serde::{Deserialize, Serialize};

use super::blob_files::BlobStore;
use super::changes::WriteTx;
use super::codec::{decode, encode};
use super::tables::{BLOB_CHUNKS, BLOB_META};
use super::{Store, StoreError, StoreResult, meta};
use crate::domain::ids::BlobId;

/// The size of a chunk of a blob kept inside an older database, and the
/// most bytes sent or written at once.
pub const CHUNK: usize = 1 << 20;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct BlobMeta {
    pub content_type: String,
    pub size: u64,
    /// Chunks inside the database (an older file); 0 for a blob kept as a file.
    #[serde(default)]
    pub chunks: u32,
    /// SHA-256 of the bytes of a blob kept as a file, checked by `restore`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
}

impl BlobMeta {
    pub fn in_file(&self) -> bool {
        self.sha256.is_some()
    }
}

/// Seals pending blob `id` and writes what it is, in the caller's
/// transaction: from its commit on, the blob is readable.
pub(super) fn seal_blob(
    tx: &WriteTransaction,
    files: &dyn BlobStore,
    id: BlobId,
    content_type: &str,
    size: u64,
    sha256: &str,
) -> StoreResult<()> {
    files.seal(id).map_err(|e| StoreError::Files(format!("sealing blob {id}: {e}")))?;
    let meta = BlobMeta { content_type: content_type.to_owned(), size, chunks: 0, sha256: Some(sha256.to_owned()) };
    tx.open_table(BLOB_META)?.insert(id.key(), encode(&meta)?.as_slice())?;
    Ok(())
}

/// Stores `bytes` as a new blob, attached in the caller's transaction.
pub(super) fn put_blob(
    tx: &WriteTransaction,
    files: &dyn BlobStore,
    content_type: &str,
    bytes: &[u8],
) -> StoreResult<BlobId> {
    let id = BlobId::from_key(meta::next_id(tx, "blobs")?);
    files.append(id, bytes).map_err(|e| StoreError::Files(format!("writing blob {id}: {e}")))?;
    seal_blob(tx, files, id, content_type, bytes.len() as u64, &sha256_hex(bytes))?;
    Ok(id)
}

/// Forgets blob `id` in the caller's transaction; its file goes once the
/// transaction commits.
pub(super) fn delete_blob(tx: &WriteTx, id: BlobId) -> StoreResult<()> {
    tx.remove_file_on_commit(id);
    let id = id.key();
    let meta: Option<BlobMeta> = tx.open_table(BLOB_META)?.remove(id)?.map(|v| decode(v.value())).transpose()?;
    if let Some(meta) = meta {
        let mut chunks = tx.open_table(BLOB_CHUNKS)?;
        for i in 0..meta.chunks {
            chunks.remove((id, i))?;
        }
    }
    Ok(())
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    hex(&Sha256::digest(bytes))
}

/// A digest as the metadata writes it.
pub(super) fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// A stored file its holder may read. Only the views hand one out, for a
/// file of a record they show, so holding one is the permission to read it.
#[derive(Debug, Clone)]
pub struct Blob {
    id: BlobId,
    content_type: String,
    size: u64,
    in_file: bool,
}

impl Blob {
    pub fn content_type(&self) -> &str {
        &self.content_type
    }

    pub fn size(&self) -> u64 {
        self.size
    }

    pub(super) fn id(&self) -> BlobId {
        self.id
    }
}

/// Blob `id` as its record names it; `NotFound` if it was never sealed.
pub(super) fn read_blob(tx: &ReadTransaction, id: BlobId) -> StoreResult<Blob> {
    let meta = tx.open_table(BLOB_META)?.get(id.key())?.map(|v| decode::<BlobMeta>(v.value())).transpose()?;
    let meta = meta.ok_or(StoreError::NotFound)?;
    Ok(Blob { id, in_file: meta.in_file(), content_type: meta.content_type, size: meta.size })
}

impl Store {
    /// A new blob id for a streamed upload.
    pub fn begin_blob(&self) -> StoreResult<BlobId> {
        let tx = self.write()?;
        let id = meta::next_id(&tx, "blobs")?;
        tx.commit()?;
        Ok(BlobId::from_key(id))
    }

    /// Adds the next bytes of a streamed upload to its pending blob.
    pub fn append_to_blob(&self, id: BlobId, bytes: &[u8]) -> StoreResult<()> {
        self.files.append(id, bytes).map_err(|e| StoreError::from_io(e, format!("writing blob {id}")))
    }

    /// Drops the pending blob of an upload that will not be attached.
    pub fn discard_blob(&self, id: BlobId) -> StoreResult<()> {
        self.files.discard(id).map_err(|e| StoreError::Files(format!("discarding blob {id}: {e}")))
    }

    /// Removes what belongs to no blob: chunks and pending files of uploads
    /// cut by a crash, files of deleted records. A file is left alone until
    /// it is `grace` old, so an upload under way or a blob sealed in a
    /// transaction about to commit is never taken; at start-up nothing is
    /// under way and the grace is zero.
    pub fn sweep_orphans(&self, grace: Duration) -> StoreResult<usize> {
        let chunks = self.sweep_orphan_chunks()?;
        let _exclusive = self.files.exclusive();
        let listed = self.files.list().map_err(|e| StoreError::Files(format!("listing blobs: {e}")))?;
        let tx = self.read()?;
        let metas = tx.open_table(BLOB_META)?;
        let mut swept = 0;
        for file in listed.into_iter().filter(|f| f.age >= grace) {
            let known = metas.get(file.id.key())?.map(|v| decode::<BlobMeta>(v.value())).transpose()?;
            let orphan = match known {
                // A pending file whose blob is sealed: the seal's rename was cut short.
                Some(meta) => !file.sealed || !meta.in_file(),
                None => true,
            };
            if orphan {
                let removed = if file.sealed { self.files.remove(file.id) } else { self.files.discard(file.id) };
                removed.map_err(|e| StoreError::Files(format!("removing blob {}: {e}", file.id)))?;
                swept += 1;
            }
        }
        Ok(chunks + swept)
    }

    /// Chunks inside the database that belong to no blob (an upload cut by
    /// a crash in an older version).
    fn sweep_orphan_chunks(&self) -> StoreResult<usize> {
        let tx = self.write()?;
        let orphans: Vec<(u64, u32)> = {
            let metas = tx.open_table(BLOB_META)?;
            let chunks = tx.open_table(BLOB_CHUNKS)?;
            let mut orphans = Vec::new();
            for entry in chunks.iter()? {
                let (key, _) = entry?;
                let (id, index) = key.value();
                if metas.get(id)?.is_none() {
                    orphans.push((id, index));
                }
            }
            orphans
        };
        if orphans.is_empty() {
            return Ok(0);
        }
        let mut chunks = tx.open_table(BLOB_CHUNKS)?;
        for key in &orphans {
            chunks.remove(*key)?;
        }
        drop(chunks);
        tx.commit()?;
        Ok(orphans.len())
    }

    /// Bytes `start..end` of a blob (end exclusive, within its size).
    pub fn blob_range(&self, blob: &Blob, start: u64, end: u64) -> StoreResult<Vec<u8>> {
        if blob.in_file {
            return self
                .files
                .read(blob.id, start, end)
                .map_err(|e| StoreError::Files(format!("reading blob {}: {e}", blob.id)));
        }
        let id = blob.id;
        let tx = self.read()?;
        let chunks = tx.open_table(BLOB_CHUNKS)?;
        let mut out = Vec::with_capacity(end.saturating_sub(start) as usize);
        let chunk = CHUNK as u64;
        let mut at = start;
        while at < end {
            let index = (at / chunk) as u32;
            let data = chunks
                .get((id.key(), index))?
                .ok_or_else(|| StoreError::Corrupt(format!("blob {id} lacks chunk {index}")))?;
            let data = data.value();
            let from = (at % chunk) as usize;
            let to = ((end - u64::from(index) * chunk).min(data.len() as u64)) as usize;
            if from >= to {
                return Err(StoreError::Corrupt(format!("blob {id} is shorter than its size")));
            }
            out.extend_from_slice(&data[from..to]);
            at += (to - from) as u64;
        }
        Ok(out)
    }
}

//! Files kept in the database (profile pictures, client photos,
//! recordings), split in chunks so they can be streamed in and served by
//! range.
//!
//! A streamed blob is written chunk by chunk, each chunk in its own
//! transaction, and becomes visible only when its metadata is written in
//! the transaction that attaches it to its record; chunks left without
//! metadata by a crash or a broken upload are swept.

use redb::{ReadTransaction, ReadableTable, WriteTransaction};
use serde::{Deserialize, Serialize};

use super::codec::{decode, encode};
use super::tables::{BLOB_CHUNKS, BLOB_META};
use super::{Store, StoreError, StoreResult, meta};
use crate::domain::ids::BlobId;

pub const CHUNK: usize = 1 << 20;

#[derive(Debug, Clone, Serialize, Deserialize)]
struct BlobMeta {
    content_type: String,
    size: u64,
    chunks: u32,
}

pub(super) fn seal_blob(
    tx: &WriteTransaction,
    id: BlobId,
    content_type: &str,
    size: u64,
    chunks: u32,
) -> StoreResult<()> {
    let meta = BlobMeta { content_type: content_type.to_owned(), size, chunks };
    tx.open_table(BLOB_META)?.insert(id.key(), encode(&meta)?.as_slice())?;
    Ok(())
}

pub(super) fn put_blob(tx: &WriteTransaction, content_type: &str, bytes: &[u8]) -> StoreResult<BlobId> {
    let id = meta::next_id(tx, "blobs")?;
    let mut chunks = tx.open_table(BLOB_CHUNKS)?;
    let mut count = 0u32;
    for (i, chunk) in bytes.chunks(CHUNK).enumerate() {
        chunks.insert((id, i as u32), chunk)?;
        count += 1;
    }
    let meta = BlobMeta { content_type: content_type.to_owned(), size: bytes.len() as u64, chunks: count };
    tx.open_table(BLOB_META)?.insert(id, encode(&meta)?.as_slice())?;
    Ok(BlobId::from_key(id))
}

pub(super) fn delete_blob(tx: &WriteTransaction, id: BlobId) -> StoreResult<()> {
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

/// A stored file its holder may read. Only the views hand one out, for a
/// file of a record they show, so holding one is the permission to read it.
#[derive(Debug, Clone)]
pub struct Blob {
    id: BlobId,
    content_type: String,
    size: u64,
}

impl Blob {
    pub fn content_type(&self) -> &str {
        &self.content_type
    }

    pub fn size(&self) -> u64 {
        self.size
    }
}

/// Blob `id` as its record names it; `NotFound` if it was never sealed.
pub(super) fn read_blob(tx: &ReadTransaction, id: BlobId) -> StoreResult<Blob> {
    let meta = tx.open_table(BLOB_META)?.get(id.key())?.map(|v| decode::<BlobMeta>(v.value())).transpose()?;
    let meta = meta.ok_or(StoreError::NotFound)?;
    Ok(Blob { id, content_type: meta.content_type, size: meta.size })
}

impl Store {
    /// A new blob id for a streamed upload.
    pub fn begin_blob(&self) -> StoreResult<BlobId> {
        let tx = self.write()?;
        let id = meta::next_id(&tx, "blobs")?;
        tx.commit()?;
        Ok(BlobId::from_key(id))
    }

    pub fn put_chunk(&self, id: BlobId, index: u32, bytes: &[u8]) -> StoreResult<()> {
        let tx = self.write()?;
        tx.open_table(BLOB_CHUNKS)?.insert((id.key(), index), bytes)?;
        tx.commit()?;
        Ok(())
    }

    /// Drops the chunks of a streamed blob that will not be attached.
    pub fn discard_chunks(&self, id: BlobId) -> StoreResult<()> {
        let id = id.key();
        let tx = self.write()?;
        tx.open_table(BLOB_CHUNKS)?.retain_in((id, 0)..=(id, u32::MAX), |_, _| false)?;
        tx.commit()?;
        Ok(())
    }

    /// Removes chunks that belong to no blob (an upload cut by a crash).
    pub fn sweep_orphan_chunks(&self) -> StoreResult<usize> {
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

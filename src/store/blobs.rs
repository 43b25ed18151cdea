//! Files kept in the database (profile pictures now; photos and recordings
//! later), split in chunks so they can be streamed and served by range.

use redb::WriteTransaction;
use serde::{Deserialize, Serialize};

use super::codec::{decode, encode};
use super::tables::{BLOB_CHUNKS, BLOB_META};
use super::{Store, StoreError, StoreResult, meta, users};
use crate::domain::user::{UserId, UserRecord};

pub const CHUNK: usize = 1 << 20;

#[derive(Debug, Clone, Serialize, Deserialize)]
struct BlobMeta {
    content_type: String,
    size: u64,
    chunks: u32,
}

/// A whole blob, read back.
pub struct Blob {
    pub content_type: String,
    pub bytes: Vec<u8>,
}

pub(super) fn put_blob(tx: &WriteTransaction, content_type: &str, bytes: &[u8]) -> StoreResult<u64> {
    let id = meta::next_id(tx, "blobs")?;
    let mut chunks = tx.open_table(BLOB_CHUNKS)?;
    let mut count = 0u32;
    for (i, chunk) in bytes.chunks(CHUNK).enumerate() {
        chunks.insert((id, i as u32), chunk)?;
        count += 1;
    }
    let meta = BlobMeta { content_type: content_type.to_owned(), size: bytes.len() as u64, chunks: count };
    tx.open_table(BLOB_META)?.insert(id, encode(&meta)?.as_slice())?;
    Ok(id)
}

pub(super) fn delete_blob(tx: &WriteTransaction, id: u64) -> StoreResult<()> {
    let meta: Option<BlobMeta> = tx.open_table(BLOB_META)?.remove(id)?.map(|v| decode(v.value())).transpose()?;
    if let Some(meta) = meta {
        let mut chunks = tx.open_table(BLOB_CHUNKS)?;
        for i in 0..meta.chunks {
            chunks.remove((id, i))?;
        }
    }
    Ok(())
}

impl Store {
    pub fn blob(&self, id: u64) -> StoreResult<Option<Blob>> {
        let tx = self.read()?;
        let Some(meta) = tx.open_table(BLOB_META)?.get(id)?.map(|v| decode::<BlobMeta>(v.value())).transpose()? else {
            return Ok(None);
        };
        let chunks = tx.open_table(BLOB_CHUNKS)?;
        let mut bytes = Vec::with_capacity(meta.size as usize);
        for i in 0..meta.chunks {
            let chunk = chunks.get((id, i))?.ok_or_else(|| StoreError::Corrupt(format!("blob {id} lacks chunk {i}")))?;
            bytes.extend_from_slice(chunk.value());
        }
        Ok(Some(Blob { content_type: meta.content_type, bytes }))
    }

    /// Replaces a user's profile picture (`None` removes it).
    pub fn set_avatar(&self, user_id: UserId, picture: Option<(&str, &[u8])>) -> StoreResult<UserRecord> {
        let tx = self.write()?;
        let mut user = users::get_user(&tx, user_id)?;
        if let Some(old) = user.avatar.take() {
            delete_blob(&tx, old)?;
        }
        if let Some((content_type, bytes)) = picture {
            user.avatar = Some(put_blob(&tx, content_type, bytes)?);
        }
        users::put_user(&tx, &user)?;
        tx.commit()?;
        Ok(user)
    }
}

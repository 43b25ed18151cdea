use serde::{Deserialize, Serialize};

use super::codec::encode;
use super::tables::OUTBOX;
use super::{Store, StoreResult, meta};

/// One email the server sent, or wrote to the outbox folder, or failed to send.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct OutboxEntry {
    pub to: String,
    pub subject: String,
    /// Unix milliseconds.
    pub at: i64,
    /// `sent`, `outbox: FILE`, or `failed: REASON`.
    pub result: String,
}

impl Store {
    pub fn record_mail(&self, entry: &OutboxEntry) -> StoreResult<()> {
        let tx = self.write()?;
        let id = meta::next_id(&tx, "outbox")?;
        tx.open_table(OUTBOX)?.insert(id, encode(entry)?.as_slice())?;
        tx.commit()?;
        Ok(())
    }
}

use serde::{Deserialize, Serialize};

use redb::ReadableTable;

use super::codec::{decode, encode};
use super::tables::OUTBOX;
use super::views::AdminView;
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

impl AdminView<'_> {
    /// The `limit` most recent emails, newest first.
    pub fn outbox(&self, limit: usize) -> StoreResult<Vec<OutboxEntry>> {
        let tx = self.store.read()?;
        let table = tx.open_table(OUTBOX)?;
        let mut entries = Vec::new();
        for entry in table.iter()?.rev().take(limit) {
            entries.push(decode(entry?.1.value())?);
        }
        Ok(entries)
    }
}

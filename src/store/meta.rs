//! The `meta` table: the schema version of the file and id counters.

use redb::{ReadTransaction, ReadableTable, TableDefinition, WriteTransaction};

use super::StoreResult;

pub(super) const META: TableDefinition<&str, u64> = TableDefinition::new("meta");

/// The schema this build writes. Bump it together with a step in `migrate`.
pub const SCHEMA_VERSION: u64 = 11;

const SCHEMA_KEY: &str = "schema_version";

pub(super) fn schema_version(tx: &ReadTransaction) -> StoreResult<u64> {
    match tx.open_table(META) {
        Ok(table) => Ok(table.get(SCHEMA_KEY)?.map(|v| v.value()).unwrap_or(0)),
        Err(redb::TableError::TableDoesNotExist(_)) => Ok(0),
        Err(e) => Err(e.into()),
    }
}

pub(super) fn schema_version_in(tx: &WriteTransaction) -> StoreResult<u64> {
    let table = tx.open_table(META)?;
    Ok(table.get(SCHEMA_KEY)?.map(|v| v.value()).unwrap_or(0))
}

/// The next id of a sequence (`users`, `blobs`, …), starting at 1.
pub(super) fn next_id(tx: &WriteTransaction, sequence: &str) -> StoreResult<u64> {
    let mut table = tx.open_table(META)?;
    let key = format!("next_id:{sequence}");
    let id = table.get(key.as_str())?.map(|v| v.value()).unwrap_or(1);
    table.insert(key.as_str(), id + 1)?;
    Ok(id)
}

pub(super) fn set_schema_version(tx: &WriteTransaction, version: u64) -> StoreResult<()> {
    tx.open_table(META)?.insert(SCHEMA_KEY, version)?;
    Ok(())
}

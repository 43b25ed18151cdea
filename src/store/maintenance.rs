//! Keeping the file healthy: a consistent backup taken from one read
//! transaction while the server keeps serving, a restore that swaps the file
//! atomically, the integrity check, and compaction (redb does not shrink
//! its file after deletes by itself).

use std::path::Path;

use redb::{
    Database, Key, MultimapTableDefinition, ReadTransaction, ReadableDatabase, ReadableMultimapTable, ReadableTable,
    TableDefinition, Value, WriteTransaction,
};

use super::tables::*;
use super::views::AdminView;
use super::{Store, StoreError, StoreResult, meta};

impl AdminView<'_> {
    /// Writes every table, as of one moment, to a new database at `path`.
    pub fn backup(&self, path: &Path) -> StoreResult<()> {
        self.store.backup(path)
    }
}

impl Store {
    /// See [`AdminView::backup`]; the store also backs itself up before a migration.
    pub(super) fn backup(&self, path: &Path) -> StoreResult<()> {
        let partial = path.with_extension("partial");
        let _ = std::fs::remove_file(&partial);
        let out = Database::create(&partial)?;
        let from = self.read()?;
        let to = out.begin_write()?;
        copy(&from, &to, META)?;
        copy(&from, &to, USERS)?;
        copy(&from, &to, USERS_BY_EMAIL)?;
        copy(&from, &to, SESSIONS)?;
        copy_multimap(&from, &to, SESSIONS_BY_USER)?;
        copy(&from, &to, RESET_TOKENS)?;
        copy(&from, &to, OUTBOX)?;
        copy(&from, &to, BLOB_META)?;
        copy(&from, &to, BLOB_CHUNKS)?;
        copy(&from, &to, CLIENTS)?;
        copy(&from, &to, CLIENTS_BY_OWNER)?;
        copy(&from, &to, IDEMPOTENCY)?;
        copy(&from, &to, TEMPLATES)?;
        copy(&from, &to, ADMINS)?;
        copy(&from, &to, ADMIN_SESSIONS)?;
        copy(&from, &to, JOBS)?;
        copy(&from, &to, SETTINGS)?;
        copy(&from, &to, INVITATIONS)?;
        copy(&from, &to, ACTION_ITEMS)?;
        copy(&from, &to, ACTION_ITEMS_BY_CLIENT)?;
        copy(&from, &to, ACTION_ITEMS_BY_DUE)?;
        copy(&from, &to, CALENDAR_FEEDS)?;
        copy(&from, &to, CALENDAR_FEED_OF_USER)?;
        copy(&from, &to, TRANSCRIPTS)?;
        to.commit()?;
        drop(out);
        std::fs::rename(&partial, path)
            .map_err(|e| StoreError::Corrupt(format!("cannot write {}: {e}", path.display())))?;
        Ok(())
    }
}

fn copy<K: Key + 'static, V: Value + 'static>(
    from: &ReadTransaction,
    to: &WriteTransaction,
    table: TableDefinition<K, V>,
) -> StoreResult<()> {
    // A file of an older schema lacks the newer tables.
    let source = match from.open_table(table) {
        Err(redb::TableError::TableDoesNotExist(_)) => return Ok(()),
        other => other?,
    };
    let mut target = to.open_table(table)?;
    for entry in source.iter()? {
        let (key, value) = entry?;
        target.insert(key.value(), value.value())?;
    }
    Ok(())
}

fn copy_multimap<K: Key + 'static, V: Key + 'static>(
    from: &ReadTransaction,
    to: &WriteTransaction,
    table: MultimapTableDefinition<K, V>,
) -> StoreResult<()> {
    let source = match from.open_multimap_table(table) {
        Err(redb::TableError::TableDoesNotExist(_)) => return Ok(()),
        other => other?,
    };
    let mut target = to.open_multimap_table(table)?;
    for entry in source.iter()? {
        let (key, values) = entry?;
        for value in values {
            target.insert(key.value(), value?.value())?;
        }
    }
    Ok(())
}

/// Whether the database file at `path` passes redb's integrity check.
pub fn check_integrity(path: &Path) -> StoreResult<bool> {
    let mut db = Database::open(path)?;
    Ok(db.check_integrity()?)
}

/// Replaces the database at `target` with the backup at `backup`, after
/// checking it; the old file is kept beside it as `.before-restore`.
pub fn restore(backup: &Path, target: &Path) -> StoreResult<()> {
    if !check_integrity(backup)? {
        return Err(StoreError::Corrupt(format!("{} fails the integrity check", backup.display())));
    }
    {
        let db = Database::open(backup)?;
        let tx = db.begin_read()?;
        let found = meta::schema_version(&tx)?;
        if found > meta::SCHEMA_VERSION {
            return Err(StoreError::TooNew { found, known: meta::SCHEMA_VERSION });
        }
    }
    let io = |e: std::io::Error| StoreError::Corrupt(format!("restoring {}: {e}", target.display()));
    let incoming = target.with_extension("restoring");
    std::fs::copy(backup, &incoming).map_err(io)?;
    std::fs::File::open(&incoming).and_then(|f| f.sync_all()).map_err(io)?;
    if target.exists() {
        std::fs::rename(target, target.with_extension("before-restore")).map_err(io)?;
    }
    std::fs::rename(&incoming, target).map_err(io)?;
    Ok(())
}

/// Gives the space of deleted records back to the file system. Needs the
/// file to itself (no server running).
pub fn compact(path: &Path) -> StoreResult<u64> {
    let before = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let mut db = Database::open(path)?;
    while db.compact().map_err(redb::Error::from)? {}
    drop(db);
    let after = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    Ok(before.saturating_sub(after))
}

/// Keeps the newest `keep` `.redb` files of `dir` (by name: they carry a
/// timestamp) and deletes the others.
pub(super) fn rotate_backups(dir: &Path, keep: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut files: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "redb"))
        .collect();
    files.sort();
    let excess = files.len().saturating_sub(keep);
    for old in files.into_iter().take(excess) {
        let _ = std::fs::remove_file(old);
    }
}

#[cfg(test)]
mod tests {
    use redb::{MultimapTableHandle, TableHandle};

    use super::*;

    fn table_names(tx: &ReadTransaction) -> Vec<String> {
        let plain = tx.list_tables().unwrap().map(|t| t.name().to_owned());
        let multimap = tx.list_multimap_tables().unwrap().map(|t| t.name().to_owned());
        let mut names: Vec<String> = plain.chain(multimap).collect();
        names.sort();
        names
    }

    #[test]
    fn a_backup_holds_every_table_of_the_live_file() {
        let scratch = super::super::Scratch::new("backup-tables");
        let backup = scratch.dir.join("backup.redb");
        scratch.store.backup(&backup).unwrap();

        let live = table_names(&scratch.store.read().unwrap());
        let copied = table_names(&Database::open(&backup).unwrap().begin_read().unwrap());
        assert!(live.contains(&"jobs".to_owned()), "{live:?}");
        assert_eq!(copied, live, "a table the backup leaves out is lost on restore");
    }
}

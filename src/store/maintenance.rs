//! Keeping the file healthy: a consistent backup taken from one read
//! transaction while the server keeps serving (the database copy, and the
//! blob files it names in a folder beside it), a restore that checks every
//! blob and swaps the file atomically, the integrity check, and compaction
//! (redb does not shrink its file after deletes by itself).

use std::path::{Path, PathBuf};

use redb::{
    Database, Key, MultimapTableDefinition, ReadTransaction, ReadableDatabase, ReadableMultimapTable, ReadableTable,
    TableDefinition, Value, WriteTransaction,
};

use super::blobs::{BlobMeta, hex};
use super::codec::decode;
use super::tables::*;
use super::views::AdminView;
use super::{Store, StoreError, StoreResult, blob_folder, meta};
use crate::domain::ids::BlobId;

impl AdminView<'_> {
    /// Writes every table, as of one moment, to a new database at `path`,
    /// and the files of its blobs to the folder [`backup_blobs`] names. A
    /// file the folder holds already (an earlier backup to the same place)
    /// is kept: blob files never change.
    pub fn backup(&self, path: &Path) -> StoreResult<()> {
        let store = self.store;
        // No file the copy names is removed until it is taken.
        let _exclusive = store.files.exclusive();
        let from = store.read()?;
        copy_database(&from, path)?;
        let folder = backup_blobs(path);
        let io = |e: std::io::Error| StoreError::Files(format!("backing up blobs into {}: {e}", folder.display()));
        std::fs::create_dir_all(&folder).map_err(io)?;
        let mut wanted = std::collections::HashSet::new();
        for (id, meta) in file_blobs(&from)? {
            let name = id.to_string();
            let to = folder.join(&name);
            if std::fs::metadata(&to).map(|m| m.len()).ok() != Some(meta.size) {
                store.files.copy_to(id, &to).map_err(io)?;
            }
            wanted.insert(name);
        }
        for entry in std::fs::read_dir(&folder).map_err(io)? {
            let entry = entry.map_err(io)?;
            if !entry.file_name().to_str().is_some_and(|name| wanted.contains(name)) {
                std::fs::remove_file(entry.path()).map_err(io)?;
            }
        }
        Ok(())
    }
}

/// Where the backup at `path` keeps its blob files: `backup.redb` → `backup.blobs/`.
pub fn backup_blobs(path: &Path) -> PathBuf {
    path.with_extension("blobs")
}

/// The blobs kept as files, with what they are, as of transaction `tx`.
fn file_blobs(tx: &ReadTransaction) -> StoreResult<Vec<(BlobId, BlobMeta)>> {
    let mut blobs = Vec::new();
    for entry in tx.open_table(BLOB_META)?.iter()? {
        let (id, value) = entry?;
        let meta: BlobMeta = decode(value.value())?;
        if meta.in_file() {
            blobs.push((BlobId::from_key(id.value()), meta));
        }
    }
    Ok(blobs)
}

impl Store {
    /// The database alone, before a migration (which leaves blob files be).
    pub(super) fn backup(&self, path: &Path) -> StoreResult<()> {
        copy_database(&self.read()?, path)
    }
}

/// Writes every table as transaction `from` sees them to a new database at `path`.
fn copy_database(from: &ReadTransaction, path: &Path) -> StoreResult<()> {
    let partial = path.with_extension("partial");
    let _ = std::fs::remove_file(&partial);
    let out = Database::create(&partial)?;
    let to = out.begin_write()?;
    copy(from, &to, META)?;
    copy(from, &to, USERS)?;
    copy(from, &to, USERS_BY_EMAIL)?;
    copy(from, &to, SESSIONS)?;
    copy_multimap(from, &to, SESSIONS_BY_USER)?;
    copy(from, &to, RESET_TOKENS)?;
    copy(from, &to, OUTBOX)?;
    copy(from, &to, BLOB_META)?;
    copy(from, &to, BLOB_CHUNKS)?;
    copy(from, &to, CLIENTS)?;
    copy(from, &to, CLIENTS_BY_OWNER)?;
    copy(from, &to, IDEMPOTENCY)?;
    copy(from, &to, TEMPLATES)?;
    copy(from, &to, ADMINS)?;
    copy(from, &to, ADMIN_SESSIONS)?;
    copy(from, &to, JOBS)?;
    copy(from, &to, SETTINGS)?;
    copy(from, &to, INVITATIONS)?;
    copy(from, &to, ACTION_ITEMS)?;
    copy(from, &to, ACTION_ITEMS_BY_CLIENT)?;
    copy(from, &to, ACTION_ITEMS_BY_DUE)?;
    copy(from, &to, CALENDAR_FEEDS)?;
    copy(from, &to, CALENDAR_FEED_OF_USER)?;
    copy(from, &to, TRANSCRIPTS)?;
    copy(from, &to, EMAIL_CONFIRMATIONS)?;
    to.commit()?;
    drop(out);
    std::fs::rename(&partial, path)
        .map_err(|e| StoreError::Corrupt(format!("cannot write {}: {e}", path.display())))?;
    Ok(())
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

/// Replaces the database at `target` with the backup at `backup`, and its
/// blob files with the backup's, after checking both: the database's
/// integrity, and every blob file against the SHA-256 the backup records.
/// The old file and folder are kept beside them as `.before-restore`.
pub fn restore(backup: &Path, target: &Path) -> StoreResult<()> {
    if !check_integrity(backup)? {
        return Err(StoreError::Corrupt(format!("{} fails the integrity check", backup.display())));
    }
    let blobs = {
        let db = Database::open(backup)?;
        let tx = db.begin_read()?;
        let found = meta::schema_version(&tx)?;
        if found > meta::SCHEMA_VERSION {
            return Err(StoreError::TooNew { found, known: meta::SCHEMA_VERSION });
        }
        file_blobs(&tx)?
    };
    let folder = backup_blobs(backup);
    for (id, meta) in &blobs {
        let file = folder.join(id.to_string());
        let sha256 = sha256_of_file(&file)
            .map_err(|e| StoreError::Corrupt(format!("the backup lacks blob {id} ({}): {e}", file.display())))?;
        if meta.sha256.as_deref() != Some(sha256.as_str()) {
            return Err(StoreError::Corrupt(format!("blob {id} of the backup ({}) is damaged", file.display())));
        }
    }
    let io = |e: std::io::Error| StoreError::Corrupt(format!("restoring {}: {e}", target.display()));
    let live = blob_folder(target);
    let incoming_blobs = live.with_extension("restoring");
    let _ = std::fs::remove_dir_all(&incoming_blobs);
    std::fs::create_dir_all(&incoming_blobs).map_err(io)?;
    for (id, _) in &blobs {
        let to = incoming_blobs.join(id.to_string());
        std::fs::copy(folder.join(id.to_string()), &to).map_err(io)?;
        std::fs::File::open(&to).and_then(|f| f.sync_all()).map_err(io)?;
    }
    let incoming = target.with_extension("restoring");
    std::fs::copy(backup, &incoming).map_err(io)?;
    std::fs::File::open(&incoming).and_then(|f| f.sync_all()).map_err(io)?;
    set_aside(&live).map_err(io)?;
    std::fs::rename(&incoming_blobs, &live).map_err(io)?;
    set_aside(target).map_err(io)?;
    std::fs::rename(&incoming, target).map_err(io)?;
    Ok(())
}

fn sha256_of_file(path: &Path) -> std::io::Result<String> {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    std::io::copy(&mut std::fs::File::open(path)?, &mut hasher)?;
    Ok(hex(&hasher.finalize()))
}

/// Moves `path` (a file or a folder) to `path.before-restore`, replacing an
/// older one there.
fn set_aside(path: &Path) -> std::io::Result<()> {
    if !path.exists() {
        return Ok(());
    }
    let aside = path.with_extension("before-restore");
    if aside.is_dir() {
        std::fs::remove_dir_all(&aside)?;
    }
    std::fs::rename(path, aside)
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

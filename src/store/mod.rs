//! The only code that touches redb.
//!
//! redb is synchronous and a commit waits for fsync, so async callers run
//! writes and scans through [`Store::run`], which moves them to the blocking
//! thread pool.

mod action_items;
mod admins;
mod blob_files;
mod blob_reader;
mod blobs;
mod calendar_feeds;
mod changes;
mod clients;
mod codec;
mod confirmations;
mod insights;
mod jobs;
mod maintenance;
mod meta;
mod migrate;
mod next_steps;
mod outbox;
mod records;
mod resets;
mod sessions;
mod signup;
mod tables;
mod templates;
mod transcripts;
mod upkeep;
mod users;
mod views;

use std::path::Path;
use std::sync::Arc;

use redb::{Database, ReadableDatabase};

pub use admins::{AdminRecord, AdminSessionRecord};
pub use blob_files::{BlobStore, LocalFolder};
pub use blob_reader::BlobReader;
pub use blobs::{Blob, CHUNK, sha256_hex};
pub use changes::UntilWrite;
pub use clients::IDEMPOTENCY_KEY_MAX;
pub use jobs::Claim;
pub use maintenance::{backup_blobs, check_integrity, compact, restore};
pub use meta::SCHEMA_VERSION;
pub use next_steps::TrackedStep;
pub use outbox::OutboxEntry;
pub use sessions::{LiveSession, SessionRecord};
pub use upkeep::{Backlog, StorageUse};
pub use views::{Admin, AdminView, Owner, OwnerView, WorkerView};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Database(#[from] redb::Error),
    #[error("database file was written by a newer debrief (schema {found}, this build knows {known})")]
    TooNew { found: u64, known: u64 },
    #[error("the blocking task running a store call failed: {0}")]
    Join(String),
    #[error("a stored record cannot be read: {0}")]
    Corrupt(String),
    /// Signup or a profile change with an email another account has.
    #[error("the email belongs to another account")]
    EmailTaken,
    /// The record does not exist, or is not the caller's.
    #[error("no such record")]
    NotFound,
    /// A record with that name exists already.
    #[error("{0}")]
    Exists(String),
    /// The change does not fit the record's state; the text says why.
    #[error("{0}")]
    Conflict(&'static str),
    /// A blob's file could not be written, read or removed.
    #[error("blob files: {0}")]
    Files(String),
    /// The disk has no room left for a blob's bytes.
    #[error("{0}")]
    DiskFull(String),
}

impl StoreError {
    /// An error of the blob files, telling a full disk apart.
    pub(crate) fn from_io(e: std::io::Error, doing: String) -> Self {
        if e.kind() == std::io::ErrorKind::StorageFull {
            StoreError::DiskFull(doing)
        } else {
            StoreError::Files(format!("{doing}: {e}"))
        }
    }
}

macro_rules! store_error_from {
    ($($t:ty),*) => {$(
        impl From<$t> for StoreError {
            fn from(e: $t) -> Self { StoreError::Database(e.into()) }
        }
    )*};
}
store_error_from!(redb::DatabaseError, redb::TransactionError, redb::TableError, redb::StorageError, redb::CommitError);

pub type StoreResult<T> = Result<T, StoreError>;

/// Automatic backups made before migrations that are kept.
const MIGRATION_BACKUPS_KEPT: usize = 3;

/// A handle on the database; cheap to clone.
#[derive(Clone)]
pub struct Store {
    db: Arc<Database>,
    changes: Arc<changes::Changes>,
    /// Sessions with their users, read on every signed-in request.
    sessions: Arc<UntilWrite<crate::domain::ids::TokenHash, LiveSession>>,
    /// The bytes of blobs, in `blobs/` beside the database file.
    files: Arc<dyn BlobStore>,
    /// The database file, to tell its size.
    path: Arc<Path>,
}

impl Store {
    /// Opens (or creates) the database file and brings its schema up to
    /// date, first backing up a file that a migration is about to change
    /// (into `backups/` beside it, keeping the newest few).
    pub fn open(path: &Path) -> StoreResult<Self> {
        let store = Self {
            db: Arc::new(Database::create(path)?),
            changes: Arc::default(),
            sessions: Arc::default(),
            files: Arc::new(LocalFolder::new(blob_folder(path))),
            path: Arc::from(path),
        };
        let found = store.schema_version()?;
        if found > 0 && found < SCHEMA_VERSION {
            let dir = path.with_file_name("backups");
            std::fs::create_dir_all(&dir)
                .map_err(|e| StoreError::Corrupt(format!("cannot create {}: {e}", dir.display())))?;
            let backup = dir.join(format!("{}-before-schema-{SCHEMA_VERSION}.redb", crate::clock::now_ms()));
            store.backup(&backup)?;
            maintenance::rotate_backups(&dir, MIGRATION_BACKUPS_KEPT);
            tracing::info!(backup = %backup.display(), from = found, to = SCHEMA_VERSION, "backed up the database before migrating it");
        }
        migrate::run(&store.db)?;
        Ok(store)
    }

    /// Runs a store call on the blocking pool so the async executor never
    /// waits on disk.
    pub async fn run<T, F>(&self, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Store) -> StoreResult<T> + Send + 'static,
    {
        let store = self.clone();
        tokio::task::spawn_blocking(move || f(&store)).await.map_err(|e| StoreError::Join(e.to_string()))?
    }

    fn read(&self) -> StoreResult<redb::ReadTransaction> {
        Ok(self.db.begin_read()?)
    }

    fn write(&self) -> StoreResult<changes::WriteTx<'_>> {
        Ok(changes::WriteTx::new(self.db.begin_write()?, &self.changes, &*self.files))
    }

    /// How many writes this handle's database has committed. Read it
    /// before the read that renders a view: the view stays current while
    /// the count is unchanged (see `changes.rs`).
    pub fn changes(&self) -> u64 {
        self.changes.count()
    }

    pub fn schema_version(&self) -> StoreResult<u64> {
        let tx = self.db.begin_read()?;
        meta::schema_version(&tx)
    }
}

/// The folder of the blob files of the database at `path`.
pub fn blob_folder(path: &Path) -> std::path::PathBuf {
    path.with_file_name("blobs")
}

/// A store of its own for a unit test, in a folder removed afterwards.
#[cfg(test)]
pub(crate) struct Scratch {
    pub store: Store,
    pub dir: std::path::PathBuf,
}

#[cfg(test)]
impl Scratch {
    pub fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("debrief-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let store = Store::open(&dir.join("debrief.redb")).unwrap();
        Self { store, dir }
    }
}

#[cfg(test)]
impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

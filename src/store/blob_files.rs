//! Where the bytes of blobs live: files in a folder beside the database,
//! one per blob, named by its id. The database keeps what they are (type,
//! size, SHA-256); a file is immutable once sealed, so a backup or `rsync`
//! copies each once.
//!
//! [`BlobStore`] is the seam another store (an S3-compatible bucket) would
//! plug into; `docs/storage.md` says how.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use crate::domain::ids::BlobId;

/// A stored file as listed: whether it is sealed, its size and age.
#[derive(Debug, Clone)]
pub struct Listed {
    pub id: BlobId,
    /// Sealed files are whole; the others are uploads under way (or cut).
    pub sealed: bool,
    pub size: u64,
    pub age: Duration,
}

/// Bytes of blobs, by id. Writes go to a pending blob that nothing reads
/// until it is sealed; the store seals it in the transaction that attaches
/// it, so a blob is readable only once its record points at it.
pub trait BlobStore: Send + Sync {
    /// Adds bytes to the end of pending blob `id`, creating it.
    fn append(&self, id: BlobId, bytes: &[u8]) -> io::Result<()>;
    /// Makes pending blob `id` durable and readable.
    fn seal(&self, id: BlobId) -> io::Result<()>;
    /// Drops pending blob `id`.
    fn discard(&self, id: BlobId) -> io::Result<()>;
    /// Bytes `start..end` of sealed blob `id`.
    fn read(&self, id: BlobId, start: u64, end: u64) -> io::Result<Vec<u8>>;
    /// Drops sealed blob `id`; gone already is fine.
    fn remove(&self, id: BlobId) -> io::Result<()>;
    /// Every blob held, sealed or pending.
    fn list(&self) -> io::Result<Vec<Listed>>;
    /// Writes sealed blob `id` to the local file `to` (a backup).
    fn copy_to(&self, id: BlobId, to: &Path) -> io::Result<()>;
    /// Held while listing and removing orphans, and while a backup copies,
    /// so a backup never misses a file the sweep took from under it.
    fn exclusive(&self) -> std::sync::MutexGuard<'_, ()>;
}

/// The blob store of one machine: a folder of files.
pub struct LocalFolder {
    root: PathBuf,
    exclusive: Mutex<()>,
}

const PENDING: &str = "part";

impl LocalFolder {
    pub fn new(root: PathBuf) -> Self {
        Self { root, exclusive: Mutex::new(()) }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where sealed blob `id` lives.
    pub fn path(&self, id: BlobId) -> PathBuf {
        self.root.join(id.to_string())
    }

    fn pending(&self, id: BlobId) -> PathBuf {
        self.root.join(format!("{id}.{PENDING}"))
    }
}

impl BlobStore for LocalFolder {
    fn append(&self, id: BlobId, bytes: &[u8]) -> io::Result<()> {
        fs::create_dir_all(&self.root)?;
        OpenOptions::new().create(true).append(true).open(self.pending(id))?.write_all(bytes)
    }

    fn seal(&self, id: BlobId) -> io::Result<()> {
        let pending = self.pending(id);
        File::open(&pending)?.sync_all()?;
        fs::rename(&pending, self.path(id))?;
        // The rename is durable only once the folder is.
        File::open(&self.root)?.sync_all()
    }

    fn discard(&self, id: BlobId) -> io::Result<()> {
        gone_is_fine(fs::remove_file(self.pending(id)))
    }

    fn read(&self, id: BlobId, start: u64, end: u64) -> io::Result<Vec<u8>> {
        let mut file = File::open(self.path(id))?;
        file.seek(SeekFrom::Start(start))?;
        let mut bytes = Vec::with_capacity(end.saturating_sub(start) as usize);
        file.take(end.saturating_sub(start)).read_to_end(&mut bytes)?;
        if (bytes.len() as u64) < end.saturating_sub(start) {
            return Err(io::Error::new(io::ErrorKind::UnexpectedEof, format!("blob {id} is shorter than its size")));
        }
        Ok(bytes)
    }

    fn remove(&self, id: BlobId) -> io::Result<()> {
        gone_is_fine(fs::remove_file(self.path(id)))
    }

    fn list(&self) -> io::Result<Vec<Listed>> {
        let entries = match fs::read_dir(&self.root) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            other => other?,
        };
        let now = SystemTime::now();
        let mut listed = Vec::new();
        for entry in entries {
            let entry = entry?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            let (id, sealed) = match name.strip_suffix(&format!(".{PENDING}")) {
                Some(id) => (id, false),
                None => (name, true),
            };
            // Anything else in the folder is not ours to judge.
            let Ok(id) = id.parse::<u64>().map(BlobId::from_key) else { continue };
            let meta = entry.metadata()?;
            let age = meta.modified().ok().and_then(|m| now.duration_since(m).ok()).unwrap_or_default();
            listed.push(Listed { id, sealed, size: meta.len(), age });
        }
        Ok(listed)
    }

    fn copy_to(&self, id: BlobId, to: &Path) -> io::Result<()> {
        fs::copy(self.path(id), to).map(drop)
    }

    fn exclusive(&self) -> std::sync::MutexGuard<'_, ()> {
        self.exclusive.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

fn gone_is_fine(result: io::Result<()>) -> io::Result<()> {
    match result {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> (tempfile::TempDir, LocalFolder) {
        let dir = tempfile::Builder::new().prefix(name).tempdir().unwrap();
        let folder = LocalFolder::new(dir.path().join("blobs"));
        (dir, folder)
    }

    #[test]
    fn a_pending_blob_is_readable_only_once_sealed() {
        let (_dir, blobs) = folder("seal");
        let id = BlobId::from_key(3);
        blobs.append(id, b"hello ").unwrap();
        blobs.append(id, b"world").unwrap();
        assert!(blobs.read(id, 0, 5).is_err());
        blobs.seal(id).unwrap();
        assert_eq!(blobs.read(id, 6, 11).unwrap(), b"world");
        let listed = blobs.list().unwrap();
        assert_eq!((listed.len(), listed[0].sealed, listed[0].size), (1, true, 11));
    }

    #[test]
    fn a_range_past_the_end_of_a_file_is_an_error_not_short_bytes() {
        let (_dir, blobs) = folder("short");
        let id = BlobId::from_key(4);
        blobs.append(id, b"abc").unwrap();
        blobs.seal(id).unwrap();
        assert_eq!(blobs.read(id, 0, 10).unwrap_err().kind(), io::ErrorKind::UnexpectedEof);
    }

    #[test]
    fn files_that_are_not_blobs_are_left_out_of_the_list() {
        let (_dir, blobs) = folder("others");
        fs::create_dir_all(blobs.root()).unwrap();
        fs::write(blobs.root().join("notes.txt"), b"mine").unwrap();
        blobs.append(BlobId::from_key(9), b"x").unwrap();
        let listed = blobs.list().unwrap();
        assert_eq!(listed.len(), 1);
        assert!(!listed[0].sealed);
        blobs.discard(BlobId::from_key(9)).unwrap();
        blobs.remove(BlobId::from_key(9)).unwrap();
        assert!(blobs.list().unwrap().is_empty());
    }
}

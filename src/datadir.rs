//! The data directory: where the database, the TLS material, the control
//! socket and the instance lock live, and the lock that keeps one server per
//! directory.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone)]
pub struct DataDir {
    root: PathBuf,
}

/// Everything this process creates is its owner's alone (files 0600,
/// folders 0700), whatever the mode of the folder it lands in: the data
/// directory holds password hashes, reset links in the outbox, private keys,
/// recordings and backups, and may be an existing 0755 folder.
pub fn create_files_private() {
    // SAFETY: umask only swaps the process's file-creation mask; it cannot fail.
    unsafe { libc::umask(0o077) };
}

impl DataDir {
    /// The folder named on the command line, or the platform's per-user data
    /// directory (`~/.local/share/debrief` on Linux).
    pub fn resolve(explicit: Option<PathBuf>) -> anyhow::Result<Self> {
        let root = match explicit {
            Some(path) => path,
            None => dirs::data_dir()
                .ok_or_else(|| anyhow::anyhow!("no per-user data directory is known here; pass --data-dir"))?
                .join("debrief"),
        };
        Ok(Self { root })
    }

    /// Creates the folder (owner-only: it holds private keys and client data).
    pub fn create(&self) -> anyhow::Result<()> {
        if !self.root.exists() {
            fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(&self.root)
                .map_err(|e| anyhow::anyhow!("cannot create the data directory {}: {e}", self.root.display()))?;
        }
        Ok(())
    }

    /// The folder's permission bits when other accounts may list or open
    /// what is in it; `None` when it is the owner's alone.
    pub fn open_to_others(&self) -> Option<u32> {
        let mode = fs::metadata(&self.root).ok()?.permissions().mode() & 0o777;
        (mode & 0o077 != 0).then_some(mode)
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn database(&self) -> PathBuf {
        self.root.join("debrief.redb")
    }

    pub fn control_socket(&self) -> PathBuf {
        self.root.join("control.sock")
    }

    /// The lean copy of the card reader's language data (`ocr::tessdata`).
    pub fn ocr_data(&self) -> PathBuf {
        self.root.join("tessdata")
    }

    pub fn tls_dir(&self) -> PathBuf {
        self.root.join("tls")
    }

    /// Bytes free for this user on the data directory's file system.
    pub fn free_bytes(&self) -> Option<u64> {
        free_bytes(&self.root)
    }

    fn lock_file(&self) -> PathBuf {
        self.root.join("debrief.lock")
    }

    /// Takes the instance lock, or says who holds it.
    ///
    /// The lock is an advisory `flock` on a file in the data directory, so the
    /// kernel releases it when the holder dies, even on `kill -9`.
    pub fn lock(&self) -> anyhow::Result<InstanceLock> {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(self.lock_file())
            .map_err(|e| anyhow::anyhow!("cannot open {}: {e}", self.lock_file().display()))?;
        match file.try_lock() {
            Ok(()) => Ok(InstanceLock { file }),
            Err(fs::TryLockError::WouldBlock) => {
                let holder = read_holder(&mut file);
                Err(AlreadyRunning { data_dir: self.root.clone(), holder }.into())
            }
            Err(fs::TryLockError::Error(e)) => Err(anyhow::anyhow!("cannot lock {}: {e}", self.lock_file().display())),
        }
    }

    /// Who holds the instance lock right now, if anyone.
    pub fn running_instance(&self) -> Option<Holder> {
        let mut file = File::open(self.lock_file()).ok()?;
        match file.try_lock_shared() {
            Ok(()) => None,
            Err(_) => Some(read_holder(&mut file).unwrap_or(Holder { pid: 0, url: String::new() })),
        }
    }
}

fn read_holder(file: &mut File) -> Option<Holder> {
    let mut text = String::new();
    file.seek(SeekFrom::Start(0)).ok()?;
    file.read_to_string(&mut text).ok()?;
    serde_json::from_str(&text).ok()
}

/// What the lock file says about the process that holds it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Holder {
    pub pid: u32,
    pub url: String,
}

/// The lock of a running server; released when dropped or when the process dies.
#[derive(Debug)]
pub struct InstanceLock {
    file: File,
}

impl InstanceLock {
    /// Records who we are so that a second instance can name us.
    pub fn publish(&mut self, url: &str) -> anyhow::Result<()> {
        let holder = Holder { pid: std::process::id(), url: url.to_owned() };
        self.file.set_len(0)?;
        self.file.seek(SeekFrom::Start(0))?;
        self.file.write_all(serde_json::to_string(&holder)?.as_bytes())?;
        self.file.sync_data()?;
        self.file.set_permissions(fs::Permissions::from_mode(0o600))?;
        Ok(())
    }
}

#[derive(Debug)]
pub struct AlreadyRunning {
    pub data_dir: PathBuf,
    pub holder: Option<Holder>,
}

impl std::fmt::Display for AlreadyRunning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "debrief is already running on {}", self.data_dir.display())?;
        match &self.holder {
            Some(h) if !h.url.is_empty() => write!(f, " (pid {}, {})", h.pid, h.url)?,
            Some(h) => write!(f, " (pid {}, still starting)", h.pid)?,
            None => write!(f, " (still starting)")?,
        }
        write!(f, "; stop it first or choose another --data-dir")
    }
}

impl std::error::Error for AlreadyRunning {}

/// Bytes free for an unprivileged user on the file system holding `path`.
pub fn free_bytes(path: &Path) -> Option<u64> {
    disk_space(path).map(|space| space.free)
}

/// The space of the file system holding a folder.
#[derive(Debug, Clone, Copy)]
pub struct DiskSpace {
    /// Bytes an unprivileged user may still write.
    pub free: u64,
    pub total: u64,
}

impl DiskSpace {
    /// Under a tenth free: time to warn, before uploads are refused.
    pub fn is_low(self) -> bool {
        self.free.saturating_mul(10) < self.total
    }
}

/// The space of the file system holding `path`.
#[allow(clippy::useless_conversion, reason = "statvfs counts are 32-bit on some targets, such as a 32-bit Pi")]
pub fn disk_space(path: &Path) -> Option<DiskSpace> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    let mut stats = std::mem::MaybeUninit::<libc::statvfs>::uninit();
    // SAFETY: `path` is a valid C string and `stats` is written by statvfs
    // before it is read, which happens only when the call succeeded.
    let ok = unsafe { libc::statvfs(path.as_ptr(), stats.as_mut_ptr()) } == 0;
    ok.then(|| {
        // SAFETY: statvfs returned 0, so it filled `stats`.
        let stats = unsafe { stats.assume_init() };
        let block = u64::from(stats.f_frsize);
        DiskSpace { free: u64::from(stats.f_bavail) * block, total: u64::from(stats.f_blocks) * block }
    })
}

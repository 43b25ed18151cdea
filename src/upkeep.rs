//! The storage upkeep, on a thread beside the server: recordings are
//! compressed once transcribed, blobs of an older database are moved out
//! into files, old audio goes by the retention policy, orphan files are
//! swept, and a disk running low is logged.
//!
//! Each step stands alone (see `store/upkeep.rs`), so a stop or a crash at
//! any point loses nothing: the next start finds the rest still to do.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use crate::asr::audio::{self, opus};
use crate::clock::now_ms;
use crate::datadir::disk_space;
use crate::domain::ids::{BlobId, ClientId};
use crate::store::{Store, StoreError, StoreResult};

/// Between passes. A recording is compressed within this of its transcript.
const INTERVAL: Duration = Duration::from_secs(10);
/// A file without a record is swept once this old: an upload under way or a
/// blob sealed in a transaction about to commit is younger.
const SWEEP_GRACE: Duration = Duration::from_secs(3600);

/// The running upkeep; stops when dropped.
pub struct Upkeep {
    stop: Arc<Stop>,
}

#[derive(Default)]
struct Stop {
    asked: Mutex<bool>,
    wake: Condvar,
}

impl Stop {
    fn asked(&self) -> bool {
        *self.asked.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Waits `pause` or until asked to stop; `true` when asked.
    fn wait(&self, pause: Duration) -> bool {
        let asked = self.asked.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let (asked, _) = self
            .wake
            .wait_timeout_while(asked, pause, |asked| !*asked)
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *asked
    }
}

impl Upkeep {
    /// Starts the upkeep of `store`, whose files live in `data_dir`.
    pub fn start(store: Store, data_dir: PathBuf) -> std::io::Result<Self> {
        let stop = Arc::new(Stop::default());
        let running = Runner { store, data_dir, stop: stop.clone(), failed: HashSet::new(), low: false };
        std::thread::Builder::new().name("upkeep".into()).spawn(move || running.run())?;
        Ok(Self { stop })
    }
}

impl Drop for Upkeep {
    fn drop(&mut self) {
        *self.stop.asked.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = true;
        self.stop.wake.notify_all();
    }
}

struct Runner {
    store: Store,
    data_dir: PathBuf,
    stop: Arc<Stop>,
    /// Blobs that could not be compressed (a WAV that does not decode):
    /// tried once per start, not every pass.
    failed: HashSet<BlobId>,
    /// Whether the disk was last seen low, to warn once per fall.
    low: bool,
}

impl Runner {
    fn run(mut self) {
        loop {
            if let Err(e) = self.pass() {
                tracing::error!("storage upkeep: {e}");
            }
            if self.stop.wait(INTERVAL) {
                return;
            }
        }
    }

    fn pass(&mut self) -> StoreResult<()> {
        let now = now_ms();
        if let Some(cutoff) = self.store.retention()?.cutoff(now) {
            let removed = self.store.remove_audio_before(cutoff, now)?;
            if removed > 0 {
                tracing::info!(recordings = removed, "removed the audio of recordings older than the retention policy");
            }
        }
        self.work_off_backlog()?;
        self.store.sweep_orphans(SWEEP_GRACE)?;
        self.watch_disk();
        Ok(())
    }

    fn work_off_backlog(&mut self) -> StoreResult<()> {
        let now = now_ms();
        let backlog = self.store.backlog(now)?;
        for (client, blob) in backlog.to_release {
            self.store.release_superseded(client, blob)?;
        }
        let to_compress: Vec<_> = backlog.to_compress.into_iter().filter(|(_, b)| !self.failed.contains(b)).collect();
        let total = to_compress.len() + backlog.to_move.len();
        let mut done = 0;
        for (client, blob) in to_compress {
            if self.stop.asked() {
                return Ok(());
            }
            match compress(&self.store, client, blob, now) {
                Ok(()) => {}
                Err(StoreError::Corrupt(why)) => {
                    tracing::warn!(%client, "the recording stays as uploaded: {why}");
                    self.failed.insert(blob);
                }
                Err(e) => return Err(e),
            }
            done += 1;
            log_progress(done, total);
        }
        for blob in backlog.to_move {
            if self.stop.asked() {
                return Ok(());
            }
            self.store.move_blob_out(blob)?;
            done += 1;
            log_progress(done, total);
        }
        Ok(())
    }

    fn watch_disk(&mut self) {
        let Some(space) = disk_space(&self.data_dir) else { return };
        let low = space.is_low();
        if low && !self.low {
            tracing::warn!(free = space.free, total = space.total, "less than 10% of the disk is free");
        }
        self.low = low;
    }
}

/// Compresses the recording of `client` kept in blob `blob`, checking that
/// the compressed copy decodes to as many samples before the original goes.
/// The upload is read as a stream and encoded as it is read: memory holds
/// the compressed file (11 MB an hour), never the recording's samples.
fn compress(store: &Store, client: ClientId, blob: BlobId, now: i64) -> StoreResult<()> {
    let upload = match store.blob_stream(blob) {
        Err(StoreError::NotFound) => return Ok(()),
        other => other?,
    };
    let corrupt = |e: audio::AudioError| StoreError::Corrupt(e.to_string());
    let mut encoder = opus::Encoder::new().map_err(corrupt)?;
    let (mut expected, mut failed) = (0, None);
    audio::read_wav_into(upload, &mut |piece, _| {
        expected += piece.len();
        failed = encoder.push(piece).err();
        failed.is_none()
    })
    .map_err(corrupt)?;
    if let Some(e) = failed {
        return Err(corrupt(e));
    }
    let compressed = encoder.finish().map_err(corrupt)?;
    let mut decoded = 0;
    opus::decode_span(&compressed, 0..expected, &mut |piece| {
        decoded += piece.len();
        true
    })
    .map_err(corrupt)?;
    if decoded != expected || opus::length(&compressed).map_err(corrupt)? != expected {
        return Err(StoreError::Corrupt(format!("the compressed copy decodes to {decoded} samples, not {expected}")));
    }
    store.replace_recording_audio(client, blob, &compressed, opus::CONTENT_TYPE, now)?;
    Ok(())
}

/// Progress of a backlog worth telling about (an older database's blobs).
fn log_progress(done: usize, total: usize) {
    if total > 1 {
        tracing::info!(done, total, "compressed or moved out a stored file");
    }
}

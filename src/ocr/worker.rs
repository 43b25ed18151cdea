//! Card scans, one at a time, on a thread of their own.
//!
//! A scan allocates tens of megabytes (the photo, its gray image, scaled
//! copies). glibc keeps freed blocks in the arena of the thread that used
//! them, one arena per thread up to eight per core, so scans spread over
//! the blocking pool's threads left hundreds of megabytes resident after a
//! burst of uploads. On one thread they reuse one arena.
//!
//! The thread also chooses the language data once, at the first scan, and
//! again while only English is installed (installing the Latin script takes
//! effect without a restart) or after Tesseract failed.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use tokio::sync::oneshot;

use super::tesseract::{LATIN, Language};
use super::{OcrError, Scanned};

type Request = (File, oneshot::Sender<Result<Scanned, OcrError>>);

/// Scans taken at once: the one running and this many waiting. A scan takes
/// 1 to 5 s, so the last in line waits at most about 20 s; more would wait
/// longer than a person holds a phone up, and each waiting scan holds its
/// photo's file open.
const MOST_WAITING: usize = 4;
/// A scan's usual time, for telling a refused client when to come back.
const USUAL_SCAN_SECONDS: u64 = 3;

/// The handle to the scanning thread; clones share it.
#[derive(Clone)]
pub struct Scanner {
    requests: mpsc::Sender<Request>,
    /// Scans taken and not finished: the running one and those waiting.
    taken: Arc<AtomicUsize>,
}

impl Scanner {
    /// Starts the thread, which ends when the last handle is dropped;
    /// `lean_folder` is where it keeps the lean copy of the language data.
    pub fn start(lean_folder: PathBuf) -> std::io::Result<Self> {
        let (requests, pending) = mpsc::channel::<Request>();
        let taken = Arc::new(AtomicUsize::new(0));
        let finished = taken.clone();
        std::thread::Builder::new().name("card-scan".into()).spawn(move || {
            let mut chosen: Option<Language> = None;
            for (file, answer) in pending {
                // A client that left (its request dropped) wants no answer:
                // its scan is skipped, or stopped where it has got to.
                let abandoned = || answer.is_closed();
                if !abandoned() {
                    let language = match chosen.take().filter(|l| l.name == LATIN) {
                        Some(language) => Ok(language),
                        None => Language::choose(&lean_folder),
                    };
                    let scanned = language.and_then(|language| {
                        let scanned = read_and_scan(file, &language, &abandoned);
                        // Tesseract failing may mean its data changed: choose again.
                        if !matches!(scanned, Err(OcrError::Failed(_))) {
                            chosen = Some(language);
                        }
                        scanned
                    });
                    let _ = answer.send(scanned);
                }
                finished.fetch_sub(1, Ordering::SeqCst);
            }
        })?;
        Ok(Self { requests, taken })
    }

    /// Whether a scan asked for now would be refused: checked before an
    /// upload is read, so a full queue costs the client no upload.
    pub fn is_full(&self) -> bool {
        self.taken.load(Ordering::SeqCst) > MOST_WAITING
    }

    /// Seconds a refused client may wait before the queue has room.
    pub fn retry_after(&self) -> u64 {
        USUAL_SCAN_SECONDS * self.taken.load(Ordering::SeqCst).max(1) as u64
    }

    /// Scans the photo held by `file`, after the scans queued before it;
    /// [`OcrError::Busy`] when [`MOST_WAITING`] are waiting already.
    pub async fn scan(&self, file: File) -> Result<Scanned, OcrError> {
        if self.taken.fetch_add(1, Ordering::SeqCst) > MOST_WAITING {
            self.taken.fetch_sub(1, Ordering::SeqCst);
            return Err(OcrError::Busy);
        }
        let (answer, answered) = oneshot::channel();
        let stopped = || OcrError::Failed("the card-scanning thread has stopped".into());
        if self.requests.send((file, answer)).is_err() {
            self.taken.fetch_sub(1, Ordering::SeqCst);
            return Err(stopped());
        }
        answered.await.map_err(|_| stopped())?
    }
}

fn read_and_scan(mut file: File, language: &Language, abandoned: &dyn Fn() -> bool) -> Result<Scanned, OcrError> {
    let mut photo = Vec::new();
    file.seek(SeekFrom::Start(0))
        .and_then(|_| file.read_to_end(&mut photo))
        .map_err(|e| OcrError::Failed(format!("reading the uploaded photo back: {e}")))?;
    super::scan(&photo, language, abandoned)
}

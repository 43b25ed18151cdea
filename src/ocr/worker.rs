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
use std::sync::mpsc;

use tokio::sync::oneshot;

use super::tesseract::{LATIN, Language};
use super::{OcrError, Scanned};

type Request = (File, oneshot::Sender<Result<Scanned, OcrError>>);

/// The handle to the scanning thread; clones share it.
#[derive(Clone)]
pub struct Scanner {
    requests: mpsc::Sender<Request>,
}

impl Scanner {
    /// Starts the thread, which ends when the last handle is dropped;
    /// `lean_folder` is where it keeps the lean copy of the language data.
    pub fn start(lean_folder: PathBuf) -> std::io::Result<Self> {
        let (requests, pending) = mpsc::channel::<Request>();
        std::thread::Builder::new().name("card-scan".into()).spawn(move || {
            let mut chosen: Option<Language> = None;
            for (file, answer) in pending {
                let language = match chosen.take().filter(|l| l.name == LATIN) {
                    Some(language) => Ok(language),
                    None => Language::choose(&lean_folder),
                };
                let scanned = language.and_then(|language| {
                    let scanned = read_and_scan(file, &language);
                    // Tesseract failing may mean its data changed: choose again.
                    if !matches!(scanned, Err(OcrError::Failed(_))) {
                        chosen = Some(language);
                    }
                    scanned
                });
                let _ = answer.send(scanned);
            }
        })?;
        Ok(Self { requests })
    }

    /// Scans the photo held by `file`, after the scans queued before it.
    pub async fn scan(&self, file: File) -> Result<Scanned, OcrError> {
        let (answer, answered) = oneshot::channel();
        let stopped = || OcrError::Failed("the card-scanning thread has stopped".into());
        self.requests.send((file, answer)).map_err(|_| stopped())?;
        answered.await.map_err(|_| stopped())?
    }
}

fn read_and_scan(mut file: File, language: &Language) -> Result<Scanned, OcrError> {
    let mut photo = Vec::new();
    file.seek(SeekFrom::Start(0))
        .and_then(|_| file.read_to_end(&mut photo))
        .map_err(|e| OcrError::Failed(format!("reading the uploaded photo back: {e}")))?;
    super::scan(&photo, language)
}

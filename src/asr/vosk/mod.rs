//! Vosk through its C API. `libvosk.so` is opened at run time, never linked,
//! so the binary builds and starts where the 26 MB library is absent; work
//! that needs it then fails with `EngineError::Missing` and the fix.

mod ffi;
mod utterance;

use std::ffi::OsStr;
use std::path::Path;
use std::sync::Arc;

pub use ffi::VoskLib;
use ffi::{Model, OpenError, Recognizer};

use super::{EngineError, Progress, SAMPLE_RATE, Transcriber, Transcript};
use crate::models::ModelsDir;

/// What the system's dynamic loader is asked for when the models folder has
/// no library.
const SYSTEM_LIBRARY: &str = "libvosk.so";

/// Samples fed per call: 0.5 s, as Vosk's own examples feed it. Vosk looks
/// for the end of an utterance once per call, so the chunk size moves where
/// utterances split and with it what the decoder hears and how long it
/// works: at 0.5 s the transcript is word for word the Python binding's.
const CHUNK: usize = SAMPLE_RATE as usize / 2;

/// Finds libvosk: the models folder's `lib/libvosk.so` first, then the
/// system's loader. A library in the models folder that fails to load is
/// reported, not passed over for another one.
pub fn find_library(models: &ModelsDir) -> Result<Arc<VoskLib>, EngineError> {
    let installed = models.libvosk();
    if installed.exists() {
        return open_library(&installed);
    }
    match VoskLib::open(OsStr::new(SYSTEM_LIBRARY), format!("{SYSTEM_LIBRARY} (system library path)")) {
        Ok(lib) => Ok(lib),
        Err(OpenError::Load(_)) => {
            Err(not_installed(&format!("{} and {SYSTEM_LIBRARY} on the system's library path", installed.display())))
        }
        Err(OpenError::NotVosk(e)) => Err(not_vosk(SYSTEM_LIBRARY, &e)),
    }
}

/// Opens the libvosk at `path`, and only there.
pub fn open_library(path: &Path) -> Result<Arc<VoskLib>, EngineError> {
    if !path.is_file() {
        return Err(not_installed(&path.display().to_string()));
    }
    VoskLib::open(path.as_os_str(), path.display().to_string()).map_err(|e| match e {
        OpenError::Load(e) => EngineError::BadModel(format!(
            "Vosk's library {} cannot be loaded ({e}): reinstall it with `debrief models install libvosk`.",
            path.display()
        )),
        OpenError::NotVosk(e) => not_vosk(&path.display().to_string(), &e),
    })
}

/// No Vosk model in the models folder.
pub fn model_missing(models: &ModelsDir) -> EngineError {
    EngineError::Missing(format!(
        "No Vosk model is installed in {}: run `{}` (or `debrief models import PATH`).",
        models.root().join("vosk").display(),
        crate::models::install_hint(crate::models::Kind::Vosk)
    ))
}

fn not_installed(looked_for: &str) -> EngineError {
    EngineError::Missing(format!(
        "Vosk's library is not installed (looked for {looked_for}): install it with `debrief models install libvosk`, \
         or import a copy with `debrief models import PATH`."
    ))
}

fn not_vosk(location: &str, e: &libloading::Error) -> EngineError {
    EngineError::BadModel(format!(
        "{location} is not a usable Vosk library ({e}): install a current one with `debrief models install libvosk`."
    ))
}

/// The Vosk engine: a loaded model, shared by clones (one per worker
/// thread is fine); each `transcribe` call runs its own recognizer.
#[derive(Clone)]
pub struct Vosk {
    model: Arc<Model>,
}

impl Vosk {
    /// The library and the model installed in the models folder.
    pub fn load(models: &ModelsDir) -> Result<Self, EngineError> {
        let lib = find_library(models)?;
        let model = models.vosk_model().ok_or_else(|| model_missing(models))?;
        Self::new(lib, &model)
    }

    /// A given library and model folder.
    pub fn new(lib: Arc<VoskLib>, model_dir: &Path) -> Result<Self, EngineError> {
        if !model_dir.is_dir() {
            return Err(EngineError::Missing(format!("The Vosk model folder {} does not exist.", model_dir.display())));
        }
        Ok(Self { model: Arc::new(Model::load(lib, model_dir)?) })
    }
}

impl Transcriber for Vosk {
    fn transcribe(&mut self, samples: &[f32], progress: Progress<'_>) -> Result<Transcript, EngineError> {
        let mut recognizer = Recognizer::new(&self.model, SAMPLE_RATE as f32)?;
        let mut segments = Vec::new();
        let mut pcm = Vec::with_capacity(CHUNK);
        let mut utterance_start = 0;
        let mut reported = None;
        for (index, chunk) in samples.chunks(CHUNK).enumerate() {
            pcm.clear();
            pcm.extend(chunk.iter().map(|&s| to_pcm16(s)));
            let done = index * CHUNK + chunk.len();
            if recognizer.accept(&pcm)? {
                segments.extend(utterance::segment(
                    recognizer.result()?.to_bytes(),
                    millis(utterance_start)..millis(done),
                )?);
                utterance_start = done;
            }
            let percent = (done * 100 / samples.len()) as u8;
            if reported != Some(percent) {
                reported = Some(percent);
                progress(percent);
            }
        }
        segments.extend(utterance::segment(
            recognizer.final_result()?.to_bytes(),
            millis(utterance_start)..millis(samples.len()),
        )?);
        if reported != Some(100) {
            progress(100);
        }
        Ok(Transcript::from_segments(segments))
    }
}

/// Kaldi's front end expects 16-bit sample values. `as` saturates and maps
/// NaN to 0, so no sample can upset the decoder.
fn to_pcm16(sample: f32) -> i16 {
    (sample * 32768.0) as i16
}

fn millis(samples: usize) -> u64 {
    samples as u64 * 1000 / u64::from(SAMPLE_RATE)
}

//! The part of Vosk's C API (`vosk_api.h`) the transcriber uses, resolved
//! from a `libvosk.so` opened at run time, and owners for the two objects it
//! hands out: a model and a recognizer.

use std::ffi::{CStr, CString, OsStr, c_char, c_float, c_int, c_short};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::ptr::NonNull;
use std::sync::Arc;

use libloading::Library;

use crate::asr::EngineError;

#[repr(C)]
struct VoskModel {
    _opaque: [u8; 0],
}

#[repr(C)]
struct VoskRecognizer {
    _opaque: [u8; 0],
}

/// The functions we call, typed as `vosk_api.h` declares them.
struct Api {
    set_log_level: unsafe extern "C" fn(c_int),
    model_new: unsafe extern "C" fn(*const c_char) -> *mut VoskModel,
    model_free: unsafe extern "C" fn(*mut VoskModel),
    recognizer_new: unsafe extern "C" fn(*mut VoskModel, c_float) -> *mut VoskRecognizer,
    recognizer_free: unsafe extern "C" fn(*mut VoskRecognizer),
    set_words: unsafe extern "C" fn(*mut VoskRecognizer, c_int),
    accept_waveform_s: unsafe extern "C" fn(*mut VoskRecognizer, *const c_short, c_int) -> c_int,
    result: unsafe extern "C" fn(*mut VoskRecognizer) -> *const c_char,
    final_result: unsafe extern "C" fn(*mut VoskRecognizer) -> *const c_char,
}

/// A loaded libvosk. The function pointers in `api` point into `_library`,
/// which stays loaded as long as this value lives; every model holds it in
/// an `Arc` for that reason.
pub struct VoskLib {
    api: Api,
    location: String,
    _library: Library,
}

/// Why a library could not be used.
pub(super) enum OpenError {
    /// The dynamic loader could not load it (absent, wrong architecture, a
    /// dependency missing…).
    Load(libloading::Error),
    /// It loaded but lacks a function we need: not libvosk, or too old.
    NotVosk(libloading::Error),
}

impl VoskLib {
    /// Loads `file`: a path, or a bare name the system's loader searches for.
    /// Vosk's info logging is turned off: its lines would flood the server's
    /// log at every model load. Its rare warnings and errors still reach
    /// stderr, where they say why a model failed to load.
    pub(super) fn open(file: &OsStr, location: String) -> Result<Arc<Self>, OpenError> {
        // SAFETY: loading runs the library's initialisers, so `file` must be
        // trusted code: it is the library the user installed in the models
        // folder, or the system's. libvosk's initialisers only build Kaldi's
        // and OpenFst's static tables.
        let library = unsafe { Library::new(file) }.map_err(OpenError::Load)?;
        let api = Api {
            set_log_level: symbol(&library, "vosk_set_log_level")?,
            model_new: symbol(&library, "vosk_model_new")?,
            model_free: symbol(&library, "vosk_model_free")?,
            recognizer_new: symbol(&library, "vosk_recognizer_new")?,
            recognizer_free: symbol(&library, "vosk_recognizer_free")?,
            set_words: symbol(&library, "vosk_recognizer_set_words")?,
            accept_waveform_s: symbol(&library, "vosk_recognizer_accept_waveform_s")?,
            result: symbol(&library, "vosk_recognizer_result")?,
            final_result: symbol(&library, "vosk_recognizer_final_result")?,
        };
        // SAFETY: `vosk_set_log_level(int)` only stores the level in Kaldi's
        // global verbosity; any int is valid (below 0: no info messages).
        unsafe { (api.set_log_level)(-1) };
        Ok(Arc::new(Self { api, location, _library: library }))
    }

    /// Where the library was loaded from, for `debrief doctor`.
    pub fn location(&self) -> &str {
        &self.location
    }
}

/// Resolves one function; the caller's field type is its C signature.
fn symbol<T: Copy>(library: &Library, name: &str) -> Result<T, OpenError> {
    // SAFETY: every `T` this is called with is the function-pointer type
    // `vosk_api.h` declares for `name`; the copied pointer is only used
    // through `VoskLib`, which keeps `library` loaded.
    unsafe { library.get::<T>(name.as_bytes()).map(|s| *s) }.map_err(OpenError::NotVosk)
}

/// A loaded acoustic model, freed when dropped.
pub(super) struct Model {
    ptr: NonNull<VoskModel>,
    lib: Arc<VoskLib>,
}

// SAFETY: vosk_api.h: a model "can be shared across recognizers, even running
// in different threads": it is read-only after loading and its reference
// count is atomic. We only read it (creating recognizers) and free it once,
// in `drop`, when no `&Model` (so no recognizer of ours) is left.
unsafe impl Send for Model {}
// SAFETY: as above; `vosk_recognizer_new` on a shared model from several
// threads at once is the use the header documents.
unsafe impl Sync for Model {}

impl Model {
    /// Loads the model in `dir`; `BadModel` when Vosk cannot.
    pub(super) fn load(lib: Arc<VoskLib>, dir: &Path) -> Result<Self, EngineError> {
        let bad = || {
            EngineError::BadModel(format!(
                "Vosk could not load the model in {}: it is damaged or not a Vosk model.",
                dir.display()
            ))
        };
        let path = CString::new(dir.as_os_str().as_bytes()).map_err(|_| bad())?;
        // SAFETY: `path` is NUL-terminated and outlives the call, which only
        // reads it; vosk_model_new catches every C++ exception and returns
        // null on failure, checked below.
        let raw = unsafe { (lib.api.model_new)(path.as_ptr()) };
        NonNull::new(raw).map(|ptr| Self { ptr, lib }).ok_or_else(bad)
    }
}

impl Drop for Model {
    fn drop(&mut self) {
        // SAFETY: `ptr` came from vosk_model_new and is freed only here; the
        // library is still loaded since `self.lib` is alive.
        unsafe { (self.lib.api.model_free)(self.ptr.as_ptr()) }
    }
}

/// One decoding pass over one recording. Not `Send`: a recognizer keeps
/// per-stream state and is used by the thread that made it.
pub(super) struct Recognizer<'m> {
    ptr: NonNull<VoskRecognizer>,
    api: &'m Api,
}

impl<'m> Recognizer<'m> {
    /// A recognizer for `sample_rate` audio that times every word.
    pub(super) fn new(model: &'m Model, sample_rate: f32) -> Result<Self, EngineError> {
        let api = &model.lib.api;
        // SAFETY: `model.ptr` is a live model (the borrow keeps it so);
        // vosk_recognizer_new catches C++ exceptions and returns null on
        // failure, checked below.
        let raw = unsafe { (api.recognizer_new)(model.ptr.as_ptr(), sample_rate) };
        let ptr = NonNull::new(raw).ok_or_else(|| {
            EngineError::BadModel("Vosk could not start a recognizer with the installed model.".into())
        })?;
        // SAFETY: `ptr` is the live recognizer just created; 1 turns word
        // timings on.
        unsafe { (api.set_words)(ptr.as_ptr(), 1) };
        Ok(Self { ptr, api })
    }

    /// Feeds 16-bit samples; true when Vosk saw the end of an utterance, whose
    /// text `result` then gives.
    pub(super) fn accept(&mut self, samples: &[i16]) -> Result<bool, EngineError> {
        let len = c_int::try_from(samples.len())
            .map_err(|_| EngineError::Engine("An audio chunk is too long for Vosk.".into()))?;
        // SAFETY: `samples` is valid for `len` shorts (the count the `_s`
        // variant takes) for the whole call, which only reads them; the
        // recognizer is live and used by this thread alone (`&mut self`).
        match unsafe { (self.api.accept_waveform_s)(self.ptr.as_ptr(), samples.as_ptr(), len) } {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(EngineError::Engine("Vosk failed while decoding the recording.".into())),
        }
    }

    /// The finished utterance as Vosk's JSON.
    pub(super) fn result(&mut self) -> Result<&CStr, EngineError> {
        // SAFETY: the recognizer is live and ours alone.
        let raw = unsafe { (self.api.result)(self.ptr.as_ptr()) };
        self.borrow(raw)
    }

    /// Flushes what is left of the audio and returns its utterance's JSON.
    pub(super) fn final_result(&mut self) -> Result<&CStr, EngineError> {
        // SAFETY: as in `result`.
        let raw = unsafe { (self.api.final_result)(self.ptr.as_ptr()) };
        self.borrow(raw)
    }

    /// Borrows a result string for as long as `self` is borrowed: only the
    /// recognizer's next call, which needs `&mut self` again, overwrites it.
    fn borrow(&mut self, raw: *const c_char) -> Result<&CStr, EngineError> {
        if raw.is_null() {
            return Err(EngineError::Engine("Vosk returned no result.".into()));
        }
        // SAFETY: a non-null result is a NUL-terminated string the recognizer
        // owns and leaves untouched until its next call, which the returned
        // borrow of `self` rules out.
        Ok(unsafe { CStr::from_ptr(raw) })
    }
}

impl Drop for Recognizer<'_> {
    fn drop(&mut self) {
        // SAFETY: `ptr` came from vosk_recognizer_new and is freed only here;
        // the borrowed model (and so the library) is still alive.
        unsafe { (self.api.recognizer_free)(self.ptr.as_ptr()) }
    }
}

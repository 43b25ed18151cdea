//! Whisper models in CTranslate2 form (faster-whisper's `model.bin` +
//! `vocabulary.txt` + `config.json` with `alignment_heads`): `debrief models
//! import` converts them to candle's layout, so a box that has faster-whisper
//! models on disk needs no download. This module recognises the form and
//! reads its `model.bin`; the conversion itself is the Whisper engine's
//! (`asr::whisper::convert`), which checks its result with its own model, and
//! is handed to the import from above, as a [`Convert`].

pub mod model_bin;

use std::path::Path;

/// Whether `dir` looks like a CTranslate2 Whisper model. Its files are not
/// read here: a damaged one should fail in the converter, which says why.
pub fn is_ct2_whisper(dir: &Path) -> bool {
    dir.join("model.bin").is_file()
        && dir.join("vocabulary.txt").is_file()
        && std::fs::read_to_string(dir.join("config.json")).is_ok_and(|config| config.contains("\"alignment_heads\""))
}

/// Writes candle's layout (`config.json`, `tokenizer.json`,
/// `model.safetensors`) of the CTranslate2 model in the first folder into
/// the second; the error says why it cannot.
pub type Convert = fn(&Path, &Path) -> Result<(), String>;

//! Which engines the jobs use, loaded once per worker and kept while the
//! installed models stay the same (loading Whisper or an LLM takes seconds).

use crate::asr::{AsrChoice, AsrPrecision, Transcriber};
use crate::engine::EngineError;
use crate::models::ModelsDir;
use crate::summarise::{Summariser, SummariserChoice, SummariserOptions};

#[derive(Debug, Clone)]
pub struct EngineChoice {
    pub models: ModelsDir,
    pub asr: AsrChoice,
    pub asr_precision: AsrPrecision,
    pub summariser: SummariserChoice,
    /// The most audio a transcription reads (`--max-recording-duration`):
    /// a recording stored before a lower limit is transcribed up to it, so
    /// the samples held stay bounded.
    pub longest_recording: std::time::Duration,
}

impl EngineChoice {
    /// [`EngineChoice::longest_recording`] in 16 kHz samples.
    pub(super) fn most_samples(&self) -> usize {
        (self.longest_recording.as_millis() * u128::from(crate::asr::SAMPLE_RATE) / 1000) as usize
    }
}

#[derive(Default)]
pub(super) struct Loaded {
    transcriber: Option<(String, Box<dyn Transcriber>)>,
    summariser: Option<(String, Box<dyn Summariser>)>,
}

impl Loaded {
    pub(super) fn transcriber(&mut self, choice: &EngineChoice) -> Result<&mut dyn Transcriber, EngineError> {
        let key = fingerprint(&choice.models);
        let engine = match self.transcriber.take() {
            Some((loaded_for, engine)) if loaded_for == key => engine,
            // The old engine is dropped before the next loads: two models
            // at once may not fit a small box.
            _ => crate::asr::load(choice.asr, choice.asr_precision, &choice.models)?,
        };
        Ok(self.transcriber.insert((key, engine)).1.as_mut())
    }

    pub(super) fn summariser(&mut self, choice: &EngineChoice) -> Result<&mut dyn Summariser, EngineError> {
        let key = fingerprint(&choice.models);
        let engine = match self.summariser.take() {
            Some((loaded_for, engine)) if loaded_for == key => engine,
            _ => crate::summarise::load(choice.summariser, &choice.models, &SummariserOptions::default())?,
        };
        Ok(self.summariser.insert((key, engine)).1.as_mut())
    }
}

/// What is installed, with modification times: changes when a model is
/// installed, replaced or removed.
pub(super) fn fingerprint(models: &ModelsDir) -> String {
    let installed = [
        Some(models.libvosk()),
        models.vosk_model(),
        models.whisper_model(),
        models.embedding_model(),
        models.llm_model(),
    ];
    installed
        .iter()
        .map(|path| match path.as_ref().and_then(|p| std::fs::metadata(p).ok().map(|m| (p, m.modified().ok()))) {
            Some((p, modified)) => format!("{}@{modified:?}", p.display()),
            None => "-".into(),
        })
        .collect::<Vec<_>>()
        .join("|")
}

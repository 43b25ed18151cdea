//! Speech to text: two engines behind one trait. Vosk (its C library loaded at
//! run time) is small and fast; Whisper through candle is pure Rust and more
//! accurate. Both take 16 kHz mono samples (see `audio`) and report progress.

pub mod audio;
mod choose;
mod cpu;
mod names;
pub mod vosk;
pub mod whisper;

use serde::Serialize;

pub use crate::engine::{EngineError, Progress};
pub use choose::{AsrChoice, AsrPrecision, Plan, load, plan};
pub use cpu::Kernels;

/// The rate every engine works at; `audio` resamples anything else to it.
pub const SAMPLE_RATE: u32 = 16_000;

/// A transcript: the text as one string and the utterances it came from.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Transcript {
    pub text: String,
    pub segments: Vec<Segment>,
}

/// One utterance, with the words in it when the engine times them.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Segment {
    pub start_ms: u64,
    pub end_ms: u64,
    pub text: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub words: Vec<Word>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Word {
    pub start_ms: u64,
    pub end_ms: u64,
    pub text: String,
}

impl Transcript {
    /// Joins segments into the transcript text, one space between them.
    pub fn from_segments(segments: Vec<Segment>) -> Self {
        let text = segments.iter().map(|s| s.text.trim()).filter(|t| !t.is_empty()).collect::<Vec<_>>().join(" ");
        Self { text, segments }
    }
}

pub trait Transcriber: Send {
    /// `samples` are 16 kHz mono in [-1, 1].
    fn transcribe(&mut self, samples: &[f32], progress: Progress<'_>) -> Result<Transcript, EngineError>;

    /// A line in the words the next recordings are likely to use (who
    /// meets whom, their companies), so that an engine that reads context
    /// spells those names as written there; empty forgets it. Whisper reads
    /// it as the text before the recording; Vosk can only narrow its
    /// vocabulary, not lean it, and ignores it.
    fn expect(&mut self, _hint: &str) {}
}

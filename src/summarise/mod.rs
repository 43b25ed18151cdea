//! Summary and next steps of a transcript, behind one trait: sentence
//! embeddings (default), an instruct LLM in GGUF, or a lexical method that needs
//! no model, so a summary is never empty.

mod choose;
mod cues;
mod embedding;
mod lexical;
pub mod llm;
mod progress;
mod select;
mod sentences;
mod text;

use serde::Serialize;

pub use crate::engine::{EngineError, Progress};
pub use choose::{SummariserChoice, SummariserOptions, SummariserStatus, load};

/// What a summariser produces: a short summary and one next step per entry.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub summary: String,
    pub next_steps: Vec<String>,
}

pub trait Summariser: Send {
    fn summarise(&mut self, transcript: &str, progress: Progress<'_>) -> Result<Summary, EngineError>;
}

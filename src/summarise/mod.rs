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

pub use choose::{SummariserChoice, SummariserOptions, SummariserStatus, load};

/// What a summariser produces: a short summary and one next step per entry.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub summary: String,
    pub next_steps: Vec<String>,
}

/// Told how far a summariser has come, in percent (0–100).
pub type Progress<'a> = &'a mut dyn FnMut(u8);

pub trait Summariser: Send {
    fn summarise(&mut self, transcript: &str, progress: Progress<'_>) -> Result<Summary, SummaryError>;
}

#[derive(Debug, thiserror::Error)]
pub enum SummaryError {
    #[error("{0}")]
    Missing(String),
    #[error("{0}")]
    BadModel(String),
    #[error("{0}")]
    Engine(String),
}

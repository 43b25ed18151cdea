//! Summary and action items of a transcript, behind one trait: the
//! extractive summariser with sentence embeddings (default) or without any
//! model (word statistics and clause features), and an instruct LLM in
//! GGUF that only rewrites what the extractive one found.
//!
//! Inside, a transcript becomes turns and sentences (`transcript`,
//! `sentences`, `meeting`), sentences become candidate clauses (`clauses`)
//! with their deadlines (`due`) and features (`features`); the classifier
//! (`classifier`) says which are commitments, and `commitments` makes them
//! items (`who`, `action`). The summary (`summary`) covers the facts
//! (`facts`) of the most central sentences on the meeting's subject
//! (`worth`).

mod action;
mod calendar;
mod choose;
mod classifier;
mod clauses;
mod commitments;
mod due;
mod embedding;
mod extractive;
mod facts;
mod features;
mod lexicon;
pub mod llm;
mod meeting;
mod numbers;
mod progress;
mod run_on;
mod salient;
mod sentences;
mod subject;
mod summary;
mod terms;
mod text;
mod tokens;
pub mod training;
mod transcript;
mod who;
mod worth;

use serde::Serialize;

pub use crate::engine::{EngineError, Progress};
pub use choose::{SummariserChoice, SummariserOptions, SummariserStatus, load};
pub use meeting::MeetingContext;

use crate::domain::action_item::ActionItem;
pub use crate::domain::client::SummarySource;

/// What a summariser produces: a short summary, the action items, and
/// their rendering as next-step lines (the spec's `nextSteps`).
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub summary: String,
    /// Who wrote `summary`: the LLM, or the extractive summariser.
    pub summary_source: SummarySource,
    pub next_steps: Vec<String>,
    pub action_items: Vec<ActionItem>,
}

pub trait Summariser: Send {
    /// Which summariser this is (never `auto`).
    fn choice(&self) -> SummariserChoice;

    fn summarise(
        &mut self,
        transcript: &str,
        context: &MeetingContext,
        progress: Progress<'_>,
    ) -> Result<Summary, EngineError>;
}

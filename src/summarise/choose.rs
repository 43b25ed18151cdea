//! Which summariser runs: `auto` takes the instruct LLM when one is
//! installed and the machine has the memory for it (see
//! [`Machine::runs_llm`]), else the extractive one with sentence embeddings
//! when their model is installed, else without (no model, never empty). An
//! explicit choice whose model is missing is an error that names the fix.

use std::path::PathBuf;

use super::extractive::Extractive;
use super::llm::LlmSummariser;
use super::{EngineError, Summariser};
use crate::models::ModelsDir;
use crate::models::profile::Machine;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SummariserChoice {
    /// The LLM when installed and memory allows (4 GB), else embeddings when installed, else lexical.
    #[default]
    Auto,
    /// Extractive, with all-MiniLM-L6-v2 sentence embeddings.
    Embedding,
    /// An instruct LLM in GGUF (llama or qwen2 family).
    Llm,
    /// Extractive by word statistics; needs no model.
    Lexical,
}

impl std::fmt::Display for SummariserChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Auto => "auto",
            Self::Embedding => "embedding",
            Self::Llm => "llm",
            Self::Lexical => "lexical",
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SummariserOptions {
    /// Most tokens the LLM writes: its rewrite of the summary and the items.
    pub max_new_tokens: usize,
    /// Most tokens of the LLM's call, prompt and answer together (capped by
    /// the model's own context). Smaller is faster: attention grows with it.
    pub context_tokens: usize,
    /// An LLM whose weights take at most this many MB as f32 runs in f32:
    /// about 5× faster on the transcript than quantised, for about twice
    /// that in peak memory. A larger one stays quantised (re-quantised to
    /// Q8_0 where candle has no fast kernel for its type). 0 keeps every
    /// model quantised.
    pub max_f32_weights_mb: u64,
}

impl Default for SummariserOptions {
    fn default() -> Self {
        Self { max_new_tokens: 320, context_tokens: 2048, max_f32_weights_mb: 1024 }
    }
}

/// What is installed for summarising, found without loading any model:
/// what `debrief doctor` reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SummariserStatus {
    pub embedding: Option<PathBuf>,
    pub llm: Option<PathBuf>,
}

impl SummariserStatus {
    pub fn of(models: &ModelsDir) -> Self {
        Self { embedding: models.embedding_model(), llm: models.llm_model() }
    }

    /// The summariser `auto` runs on this machine.
    pub fn auto(&self) -> SummariserChoice {
        self.auto_on(&Machine::this())
    }

    /// The summariser `auto` runs on `machine`.
    pub fn auto_on(&self, machine: &Machine) -> SummariserChoice {
        if self.llm.is_some() && machine.runs_llm() {
            SummariserChoice::Llm
        } else if self.embedding.is_some() {
            SummariserChoice::Embedding
        } else {
            SummariserChoice::Lexical
        }
    }

    /// One line per missing model: what it would add and how to install it.
    pub fn missing(&self) -> Vec<String> {
        let mut missing = Vec::new();
        if self.embedding.is_none() {
            missing.push(format!("{NO_EMBEDDING} (summaries fall back to word statistics): {EMBEDDING_FIX}"));
        }
        if self.llm.is_none() {
            missing.push(format!("{NO_LLM} (optional, for the `llm` summariser): {LLM_FIX}"));
        }
        missing
    }
}

const NO_EMBEDDING: &str = "the sentence-embedding model is not installed";
const EMBEDDING_FIX: &str = "run `debrief models install all-minilm-l6-v2`";
const NO_LLM: &str = "no LLM is installed";
const LLM_FIX: &str = "run `debrief models install NAME` with an instruct model in GGUF (`debrief models list` names them), or `debrief models import PATH` with a folder holding model.gguf";

/// The summariser for `choice`, its model loaded.
pub fn load(
    choice: SummariserChoice,
    models: &ModelsDir,
    options: &SummariserOptions,
) -> Result<Box<dyn Summariser>, EngineError> {
    let status = SummariserStatus::of(models);
    match choice {
        SummariserChoice::Auto => match (status.auto(), status.llm) {
            (SummariserChoice::Llm, Some(dir)) => match LlmSummariser::load(&dir, auto(models).1, options) {
                Ok(llm) => Ok(Box::new(llm)),
                Err(e) => {
                    tracing::warn!("{e}; summarising without the LLM instead");
                    Ok(auto(models).1)
                }
            },
            _ => Ok(auto(models).1),
        },
        SummariserChoice::Embedding => {
            let dir =
                status.embedding.ok_or_else(|| EngineError::Missing(format!("{NO_EMBEDDING}: {EMBEDDING_FIX}")))?;
            Ok(Box::new(Extractive::with_embeddings(&dir)?))
        }
        SummariserChoice::Llm => {
            let dir = status.llm.ok_or_else(|| EngineError::Missing(format!("{NO_LLM}: {LLM_FIX}")))?;
            Ok(Box::new(LlmSummariser::load(&dir, auto(models).1, options)?))
        }
        SummariserChoice::Lexical => Ok(Box::new(Extractive::lexical())),
    }
}

/// The extractive summariser `auto` runs without an LLM, and which one
/// that is: with embeddings when their model is installed. A damaged
/// embedding model does not stop summaries: word statistics stand in, with
/// a warning.
fn auto(models: &ModelsDir) -> (SummariserChoice, Box<dyn Summariser>) {
    if let Some(dir) = models.embedding_model() {
        match Extractive::with_embeddings(&dir) {
            Ok(summariser) => return (SummariserChoice::Embedding, Box::new(summariser)),
            Err(e) => tracing::warn!("{e}; summarising by word statistics instead ({EMBEDDING_FIX} repairs it)"),
        }
    }
    (SummariserChoice::Lexical, Box::new(Extractive::lexical()))
}

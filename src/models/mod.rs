//! The models folder (`--models-dir`, default `models/` in the data dir) and
//! what is installed in it. Layout, one folder per model:
//!
//! ```text
//! lib/libvosk.so                         Vosk's C library for this machine
//! vosk/<name>/{am,conf,graph,ivector}/   a Vosk acoustic model
//! whisper/<name>/{config.json,tokenizer.json,model.safetensors}
//! embedding/<name>/{config.json,tokenizer.json,model.safetensors}
//! llm/<name>/model.gguf                  (+ tokenizer.json when the GGUF lacks one)
//! ```
//!
//! A folder counts as installed only when complete: installs and imports
//! write into a temporary folder and rename it into place.

use std::path::{Path, PathBuf};

use crate::datadir::DataDir;

mod archive;
pub mod catalog;
pub mod download;
pub mod import;
pub mod install;
pub mod kind;
pub mod list;
mod place;
pub mod profile;

pub use crate::progress::megabytes;
pub use kind::{Kind, Target};

/// The command that installs a model of `kind` on this machine, for the
/// messages that say one is missing.
pub fn install_hint(kind: Kind) -> String {
    catalog::Catalog::load(None).map_or_else(|_| "debrief models import PATH".to_owned(), |c| c.fix_command(kind))
}

#[derive(Debug, Clone)]
pub struct ModelsDir {
    root: PathBuf,
}

/// The Whisper models we know, best first: with several installed, the first wins.
pub const WHISPER_PREFERENCE: [&str; 2] = ["base.en", "tiny.en"];
/// The sentence-embedding model of the default summariser.
pub const EMBEDDING_MODEL: &str = "all-minilm-l6-v2";

impl ModelsDir {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }

    /// The default place: `models/` in the data directory.
    pub fn default_for(data_dir: &DataDir) -> Self {
        Self::new(data_dir.root().join("models"))
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where an installed libvosk lives (the system's library is the fallback).
    pub fn libvosk(&self) -> PathBuf {
        Target::libvosk().path(&self.root).join(kind::LIBVOSK)
    }

    /// The installed Vosk model, if any (the first by name).
    pub fn vosk_model(&self) -> Option<PathBuf> {
        first_dir(&self.root.join("vosk"), |d| Kind::Vosk.is_complete(d))
    }

    /// The installed Whisper model, preferring the larger one.
    pub fn whisper_model(&self) -> Option<PathBuf> {
        WHISPER_PREFERENCE
            .iter()
            .map(|name| self.root.join("whisper").join(name))
            .chain(subdirs(&self.root.join("whisper")))
            .find(|d| Kind::Whisper.is_complete(d))
    }

    /// The installed sentence-embedding model, if any.
    pub fn embedding_model(&self) -> Option<PathBuf> {
        let dir = self.root.join("embedding").join(EMBEDDING_MODEL);
        Kind::Embedding.is_complete(&dir).then_some(dir)
    }

    /// The installed instruct LLM (its folder, holding `model.gguf`), if any.
    pub fn llm_model(&self) -> Option<PathBuf> {
        first_dir(&self.root.join("llm"), |d| Kind::Llm.is_complete(d))
    }
}

pub(crate) fn subdirs(dir: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        // Temporary folders of an install in progress start with a dot.
        .filter(|p| p.is_dir() && !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')))
        .collect();
    dirs.sort();
    dirs
}

fn first_dir(dir: &Path, complete: impl Fn(&Path) -> bool) -> Option<PathBuf> {
    subdirs(dir).into_iter().find(|d| complete(d))
}

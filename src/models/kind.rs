//! The kinds of model the models folder holds, where each one lives, and
//! when a folder of it is complete.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The file name of Vosk's C library.
pub const LIBVOSK: &str = "libvosk.so";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Vosk's C library (`lib/libvosk.so`): one per machine, so it has no name.
    Lib,
    Vosk,
    Whisper,
    Embedding,
    Llm,
}

impl Kind {
    /// Every kind, in the order the models folder is listed.
    pub const ALL: [Kind; 5] = [Kind::Lib, Kind::Vosk, Kind::Whisper, Kind::Embedding, Kind::Llm];

    /// The folder under the models folder that holds this kind.
    pub fn dir(self) -> &'static str {
        match self {
            Kind::Lib => "lib",
            Kind::Vosk => "vosk",
            Kind::Whisper => "whisper",
            Kind::Embedding => "embedding",
            Kind::Llm => "llm",
        }
    }

    fn from_dir(dir: &str) -> Option<Self> {
        Kind::ALL.into_iter().find(|k| k.dir() == dir)
    }

    /// Whether `dir` holds everything a model of this kind needs; the
    /// engines use the same test, so "installed" means "usable".
    pub fn is_complete(self, dir: &Path) -> bool {
        let files = |names: &[&str]| names.iter().all(|n| dir.join(n).is_file());
        match self {
            Kind::Lib => files(&[LIBVOSK]),
            Kind::Vosk => dir.join("am").is_dir() && dir.join("conf").is_dir(),
            Kind::Whisper | Kind::Embedding => files(&["config.json", "tokenizer.json", "model.safetensors"]),
            Kind::Llm => files(&["model.gguf"]),
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.dir())
    }
}

/// Where one model lives: `lib`, or `<kind>/<name>` under the models folder.
/// Catalogue files spell it as that string.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Target {
    pub kind: Kind,
    pub name: String,
}

impl Target {
    /// A model folder; `name` must be a plain folder name (see [`valid_name`]).
    pub fn new(kind: Kind, name: &str) -> Result<Self, String> {
        if kind == Kind::Lib {
            return Ok(Self::libvosk());
        }
        if !valid_name(name) {
            return Err(format!(
                "'{name}' is not a usable model name: use letters, digits, '.', '-' and '_', not starting with '.'"
            ));
        }
        Ok(Self { kind, name: name.to_owned() })
    }

    pub fn libvosk() -> Self {
        Self { kind: Kind::Lib, name: "libvosk".to_owned() }
    }

    /// The folder relative to the models folder.
    pub fn relative(&self) -> PathBuf {
        match self.kind {
            Kind::Lib => PathBuf::from(Kind::Lib.dir()),
            kind => Path::new(kind.dir()).join(&self.name),
        }
    }

    pub fn path(&self, root: &Path) -> PathBuf {
        root.join(self.relative())
    }
}

impl TryFrom<String> for Target {
    type Error = String;

    fn try_from(to: String) -> Result<Self, String> {
        let unknown =
            || format!("'{to}' is not a model place: use lib, vosk/NAME, whisper/NAME, embedding/NAME or llm/NAME");
        match to.split_once('/') {
            None if to == Kind::Lib.dir() => Ok(Self::libvosk()),
            Some((dir, name)) => match Kind::from_dir(dir) {
                Some(kind) if kind != Kind::Lib => Self::new(kind, name),
                _ => Err(unknown()),
            },
            None => Err(unknown()),
        }
    }
}

impl From<Target> for String {
    fn from(target: Target) -> String {
        target.relative().to_string_lossy().into_owned()
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.relative().to_string_lossy())
    }
}

/// A name that is one plain path component: no separators, no `..`, and no
/// leading dot (dot-folders are installs in progress and are ignored).
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 100
        && !name.starts_with('.')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
}

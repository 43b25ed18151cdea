//! What is installed in the models folder, and what the catalogue offers.

use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::catalog::Catalog;
use super::kind::{Kind, Target};
use super::{ModelsDir, subdirs};

/// One model folder (or the library) found in the models folder.
#[derive(Debug, Clone, Serialize)]
pub struct Installed {
    pub kind: Kind,
    pub name: String,
    pub path: PathBuf,
    pub size_bytes: u64,
    /// Whether it holds everything its engine needs.
    pub complete: bool,
}

/// One catalogue entry and where this machine stands with it.
#[derive(Debug, Clone, Serialize)]
pub struct Known {
    pub name: String,
    pub kind: Kind,
    pub to: Target,
    pub arch: Option<String>,
    pub description: String,
    pub download_bytes: u64,
    pub installed: bool,
    pub suits_this_machine: bool,
    /// Every file has a checksum; `install` refuses the entry otherwise.
    pub verifiable: bool,
}

impl ModelsDir {
    /// Every model folder, by kind then name; for `debrief doctor` too.
    pub fn installed(&self) -> Vec<Installed> {
        let mut found = Vec::new();
        let lib = Target::libvosk().path(self.root());
        if lib.is_dir() {
            found.push(describe(Kind::Lib, Target::libvosk().name, lib));
        }
        for kind in Kind::ALL.into_iter().filter(|k| *k != Kind::Lib) {
            for dir in subdirs(&self.root().join(kind.dir())) {
                let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                found.push(describe(kind, name, dir));
            }
        }
        found
    }
}

fn describe(kind: Kind, name: String, path: PathBuf) -> Installed {
    Installed { kind, name, size_bytes: size_on_disk(&path), complete: kind.is_complete(&path), path }
}

/// The catalogue's entries, each with whether it is installed here.
pub fn known(models: &ModelsDir, catalog: &Catalog) -> Vec<Known> {
    catalog
        .models
        .iter()
        .map(|entry| {
            let suits = entry.suits_this_machine();
            Known {
                name: entry.name.clone(),
                kind: entry.to.kind,
                to: entry.to.clone(),
                arch: entry.arch.clone(),
                description: entry.description.clone(),
                download_bytes: entry.download_size(),
                // The library's one place holds one build: the one for this machine.
                installed: suits && entry.to.kind.is_complete(&entry.to.path(models.root())),
                suits_this_machine: suits,
                verifiable: entry.unverified().is_empty(),
            }
        })
        .collect()
}

fn size_on_disk(path: &Path) -> u64 {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => {
            fs::read_dir(path).into_iter().flatten().flatten().map(|e| size_on_disk(&e.path())).sum()
        }
        Ok(meta) => meta.len(),
        Err(_) => 0,
    }
}

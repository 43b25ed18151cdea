//! `debrief models install NAME`: downloads a catalogue entry's files into
//! `.downloads/NAME/`, verifies each, unpacks them into a staging folder and
//! renames it into place. The downloads are deleted only once the model is
//! in place, so a failed or interrupted run resumes where it stopped.

use std::fs;
use std::path::PathBuf;

use anyhow::{Context, bail};

use super::catalog::{Catalog, RemoteFile, Unpack};
use super::place::Staging;
use super::{ModelsDir, archive, download};
use crate::progress::megabytes;

/// What an install did.
pub enum Outcome {
    Now(PathBuf),
    /// It was there already (and `--force` was not given).
    Already(PathBuf),
}

pub fn install(models: &ModelsDir, catalog: &Catalog, name: &str, force: bool) -> anyhow::Result<Outcome> {
    let entry = catalog.pick(name)?;
    // Each file with the checksum it must match; none may lack one.
    let files: Vec<(&RemoteFile, &str)> = entry.files.iter().filter_map(|f| Some((f, f.sha256.as_deref()?))).collect();
    if files.len() < entry.files.len() {
        let unverified: Vec<&str> = entry.unverified().iter().map(|f| f.url.as_str()).collect();
        bail!(
            "{name} cannot be installed: no published checksum is known for {}, and debrief installs nothing it cannot verify. \
             Download the model yourself and run `debrief models import PATH` (see models/README.md)",
            unverified.join(", ")
        );
    }
    let root = models.root();
    let target = entry.to.path(root);
    if target.exists() && !force {
        if entry.to.kind.is_complete(&target) {
            return Ok(Outcome::Already(target));
        }
        bail!("{} exists but is incomplete; pass --force to replace it", target.display());
    }

    let downloads = root.join(".downloads").join(name);
    fs::create_dir_all(&downloads).with_context(|| format!("cannot create {}", downloads.display()))?;
    let unpacks = files.iter().any(|(f, _)| !matches!(f.unpack, Unpack::File(_)));
    check_free_space(&downloads, entry.download_size(), unpacks)?;
    let agent = download::agent();
    let mut fetched = Vec::with_capacity(entry.files.len());
    for (file, sha256) in &files {
        fetched.push(download::fetch(&agent, file, sha256, &downloads, name)?);
    }

    let staging = Staging::new(&target)?;
    for ((file, _), path) in files.iter().zip(&fetched) {
        let saved = file.unpack.saved_as().map(|name| staging.path().join(name));
        match (&file.unpack, saved) {
            (Unpack::ZipMember(member), Some(saved)) => archive::unzip_member(path, member, &saved)?,
            (Unpack::File(_), Some(saved)) => {
                fs::rename(path, &saved).with_context(|| format!("cannot move {} into place", path.display()))?
            }
            _ => {
                archive::unzip(path, staging.path())?;
            }
        }
    }
    if !entry.to.kind.is_complete(staging.path()) {
        bail!("the files of {name} do not make a complete {} model; nothing was installed", entry.to.kind);
    }
    let placed = staging.commit(force)?;
    fs::remove_dir_all(&downloads).with_context(|| format!("cannot delete {}", downloads.display()))?;
    Ok(Outcome::Now(placed))
}

/// Refuses to start a download that cannot fit. An archive needs room for
/// itself and its unpacked files, which take up to about twice its size.
fn check_free_space(dir: &std::path::Path, download: u64, unpacks: bool) -> anyhow::Result<()> {
    let needed = if unpacks { download.saturating_mul(3) } else { download };
    match crate::datadir::free_bytes(dir) {
        Some(free) if free < needed => bail!(
            "not enough disk space in {}: about {} needed, {} free",
            dir.display(),
            megabytes(needed),
            megabytes(free)
        ),
        _ => Ok(()),
    }
}

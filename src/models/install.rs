//! `debrief models install`: downloads a catalogue entry's files into
//! `.downloads/NAME/`, verifies each, unpacks them (and converts them, for
//! a model published in another form) into a staging folder and renames it
//! into place. The downloads are deleted only once the model is in place,
//! so a failed or interrupted run resumes where it stopped.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use super::catalog::{Convert, Entry, RemoteFile, Unpack};
use super::download::Downloader;
use super::place::Staging;
use super::{ModelsDir, archive};
use crate::ct2;
use crate::progress::megabytes;

/// What an install did.
pub enum Outcome {
    Now(PathBuf),
    /// It was there already (and `--force` was not given).
    Already(PathBuf),
}

/// Whether `entry` is installed and complete in `models`.
pub fn is_installed(models: &ModelsDir, entry: &Entry) -> bool {
    entry.to.kind.is_complete(&entry.to.path(models.root()))
}

/// `convert` turns a model published in CTranslate2 form into candle's.
pub fn install(
    models: &ModelsDir,
    entry: &Entry,
    force: bool,
    downloader: &Downloader,
    convert: ct2::Convert,
) -> anyhow::Result<Outcome> {
    let name = &entry.name;
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
    check_free_space(&downloads, entry)?;
    let mut fetched = Vec::with_capacity(files.len());
    for (file, sha256) in &files {
        fetched.push(downloader.fetch(file, sha256, &downloads, name)?);
    }

    let staging = Staging::new(&target)?;
    match entry.convert {
        None => unpack(&files, &fetched, staging.path())?,
        Some(Convert::Ct2Whisper) => {
            let published = tempfile::Builder::new()
                .prefix(".unpacked-")
                .tempdir_in(&downloads)
                .with_context(|| format!("cannot create a folder in {}", downloads.display()))?;
            unpack(&files, &fetched, published.path())?;
            eprintln!("{name}: converting for candle");
            convert(published.path(), staging.path())
                .map_err(|e| anyhow::anyhow!("cannot convert {}: {e}", published.path().display()))?;
        }
    }
    if !entry.to.kind.is_complete(staging.path()) {
        bail!("the files of {name} do not make a complete {} model; nothing was installed", entry.to.kind);
    }
    let placed = staging.commit(force)?;
    fs::remove_dir_all(&downloads).with_context(|| format!("cannot delete {}", downloads.display()))?;
    Ok(Outcome::Now(placed))
}

/// Puts the verified downloads' contents into `dir`.
fn unpack(files: &[(&RemoteFile, &str)], fetched: &[PathBuf], dir: &Path) -> anyhow::Result<()> {
    for ((file, _), path) in files.iter().zip(fetched) {
        match &file.unpack {
            // Linked, not moved: the download stays until the model is in place.
            Unpack::File(name) => fs::hard_link(path, dir.join(name))
                .or_else(|_| fs::copy(path, dir.join(name)).map(drop))
                .with_context(|| format!("cannot copy {} into place", path.display()))?,
            Unpack::ZipMember(member) => {
                let saved = member.rsplit('/').next().unwrap_or(member);
                archive::unzip_member(path, member, &dir.join(saved))?
            }
            Unpack::ZipMembers(members) => {
                for member in members {
                    let actual = archive::extract_member(path, &member.member, &dir.join(&member.to), member.append)?;
                    if let Some(expected) = member.sha256.as_deref().filter(|e| !e.eq_ignore_ascii_case(&actual)) {
                        bail!(
                            "checksum mismatch for {} in {}: expected sha256 {expected}, got {actual}; nothing was installed",
                            member.member,
                            file.url
                        );
                    }
                }
            }
            Unpack::Zip => {
                archive::unzip(path, dir)?;
            }
        }
    }
    Ok(())
}

/// Refuses to start a download that cannot fit. An archive needs room for
/// itself and its unpacked files; a conversion also for its result, which
/// holds the weights in 32 bits where the download has 16.
fn check_free_space(dir: &Path, entry: &Entry) -> anyhow::Result<()> {
    let download = entry.download_size();
    let unpacks = entry.files.iter().any(|f| !matches!(f.unpack, Unpack::File(_)));
    let factor = match (entry.convert, unpacks) {
        (Some(_), _) => 4,
        (None, true) => 3,
        (None, false) => 1,
    };
    let needed = download.saturating_mul(factor);
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

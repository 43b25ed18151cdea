//! Unpacking zip archives (model zips, Python wheels) safely: every entry
//! must stay inside the destination, and links are refused, so an archive
//! can never write outside the folder it is unpacked into.

use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, bail};
use sha2::{Digest, Sha256};
use zip::ZipArchive;

use super::download::hex;

/// Unpacks all of `zip` into `dest`. When everything sits in one top-level
/// folder (`vosk-model-small-en-us-0.15/…`), that folder is dropped and its
/// name returned.
pub fn unzip(zip: &Path, dest: &Path) -> anyhow::Result<Option<String>> {
    let mut archive = open(zip)?;
    let mut entries = Vec::with_capacity(archive.len());
    for index in 0..archive.len() {
        let entry = archive.by_index(index)?;
        let path = checked_path(zip, entry.name(), entry.is_symlink())?;
        entries.push((index, path, entry.is_dir()));
    }
    let top = single_top_folder(&entries);
    for (index, path, is_dir) in entries {
        let relative = match &top {
            Some(top) => path.strip_prefix(top).unwrap_or(&path).to_path_buf(),
            None => path,
        };
        let out = dest.join(&relative);
        if is_dir || relative.as_os_str().is_empty() {
            fs::create_dir_all(&out)?;
        } else {
            write_entry(&mut archive, index, &out, false)?;
        }
    }
    Ok(top.map(|t| t.to_string_lossy().into_owned()))
}

/// Extracts the one file at `member` in `zip` to `out`.
pub fn unzip_member(zip: &Path, member: &str, out: &Path) -> anyhow::Result<()> {
    extract_member(zip, member, out, false).map(drop)
}

/// Writes the file at `member` in `zip` to `out`, or adds it to the end of
/// `out` with `append`; returns the member's sha256.
pub fn extract_member(zip: &Path, member: &str, out: &Path, append: bool) -> anyhow::Result<String> {
    let mut archive = open(zip)?;
    let index = archive.index_for_name(member).with_context(|| format!("{} has no {member}", zip.display()))?;
    let entry = archive.by_index(index)?;
    checked_path(zip, entry.name(), entry.is_symlink())?;
    drop(entry);
    write_entry(&mut archive, index, out, append)
}

fn open(zip: &Path) -> anyhow::Result<ZipArchive<File>> {
    let file = File::open(zip).with_context(|| format!("cannot read {}", zip.display()))?;
    ZipArchive::new(file).with_context(|| format!("{} is not a readable zip archive", zip.display()))
}

/// Copies one entry out, hashing it on the way.
fn write_entry(archive: &mut ZipArchive<File>, index: usize, out: &Path, append: bool) -> anyhow::Result<String> {
    let mut entry = archive.by_index(index)?;
    if let Some(parent) = out.parent() {
        fs::create_dir_all(parent)?;
    }
    let file = OpenOptions::new().create(true).write(true).append(append).truncate(!append).open(out);
    let file = file.with_context(|| format!("cannot write {}", out.display()))?;
    let mut hashing = Hashing { inner: file, hasher: Sha256::new() };
    io::copy(&mut entry, &mut hashing).with_context(|| format!("cannot unpack {}", entry.name()))?;
    Ok(hex(&hashing.hasher.finalize()))
}

/// A writer that hashes what passes through it.
struct Hashing<W> {
    inner: W,
    hasher: Sha256,
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(bytes)?;
        self.hasher.update(&bytes[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// The entry's path, refused unless every part of it is a plain name: no
/// `..`, no root, no drive. Stricter than needed (`a/../b` would stay
/// inside), because no honest model archive has such names.
fn checked_path(zip: &Path, name: &str, is_symlink: bool) -> anyhow::Result<PathBuf> {
    if is_symlink {
        bail!("refusing {}: the entry '{name}' is a link", zip.display());
    }
    let path = PathBuf::from(name);
    let plain =
        !name.contains('\0') && path.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if !plain || path.components().next().is_none() {
        bail!("refusing {}: the entry '{name}' would be written outside the folder it is unpacked into", zip.display());
    }
    Ok(path)
}

/// The one top-level folder that holds every entry, if there is one.
fn single_top_folder(entries: &[(usize, PathBuf, bool)]) -> Option<OsString> {
    let mut top: Option<OsString> = None;
    for (_, path, is_dir) in entries {
        let mut parts = path.components().filter(|c| matches!(c, Component::Normal(_)));
        let first = parts.next()?.as_os_str().to_owned();
        // A file at the top level means there is no wrapping folder.
        if parts.next().is_none() && !is_dir {
            return None;
        }
        match &top {
            Some(seen) if *seen != first => return None,
            _ => top = Some(first),
        }
    }
    top
}

#[cfg(test)]
mod tests {
    use zip::write::SimpleFileOptions;

    use super::*;

    fn zip_of(dir: &Path, entries: &[&str]) -> PathBuf {
        let path = dir.join("test.zip");
        let mut writer = zip::ZipWriter::new(File::create(&path).unwrap());
        for name in entries {
            writer.start_file(*name, SimpleFileOptions::default()).unwrap();
            writer.write_all(b"x").unwrap();
        }
        writer.finish().unwrap();
        path
    }

    #[test]
    fn an_entry_climbing_out_of_the_folder_is_refused_and_nothing_is_written() {
        let temp = tempfile::tempdir().unwrap();
        let zip = zip_of(temp.path(), &["model/am/final.mdl", "model/../../evil.txt"]);
        let dest = temp.path().join("out/inner");
        fs::create_dir_all(&dest).unwrap();
        let error = unzip(&zip, &dest).unwrap_err().to_string();
        assert!(error.contains("model/../../evil.txt") && error.contains("outside"), "{error}");
        assert!(!temp.path().join("out/evil.txt").exists() && !temp.path().join("evil.txt").exists());
        assert_eq!(fs::read_dir(&dest).unwrap().count(), 0, "refused before writing anything");
    }

    #[test]
    fn an_absolute_entry_is_refused() {
        let temp = tempfile::tempdir().unwrap();
        let zip = zip_of(temp.path(), &["/tmp/evil.txt"]);
        let error = unzip(&zip, temp.path()).unwrap_err().to_string();
        assert!(error.contains("/tmp/evil.txt"), "{error}");
    }

    #[test]
    fn a_link_entry_is_refused() {
        let temp = tempfile::tempdir().unwrap();
        let path = temp.path().join("link.zip");
        let mut writer = zip::ZipWriter::new(File::create(&path).unwrap());
        writer.add_symlink("model/conf", "/etc", SimpleFileOptions::default()).unwrap();
        writer.finish().unwrap();
        let error = unzip(&path, temp.path()).unwrap_err().to_string();
        assert!(error.contains("is a link"), "{error}");
    }

    #[test]
    fn a_single_top_level_folder_is_dropped() {
        let temp = tempfile::tempdir().unwrap();
        let zip = zip_of(temp.path(), &["vosk-model/am/final.mdl", "vosk-model/conf/model.conf"]);
        let dest = temp.path().join("out");
        assert_eq!(unzip(&zip, &dest).unwrap().as_deref(), Some("vosk-model"));
        assert!(dest.join("am/final.mdl").is_file() && dest.join("conf/model.conf").is_file());
    }

    #[test]
    fn several_top_level_entries_are_kept_as_they_are() {
        let temp = tempfile::tempdir().unwrap();
        let zip = zip_of(temp.path(), &["vosk/libvosk.so", "vosk-0.3.45.dist-info/RECORD"]);
        let dest = temp.path().join("out");
        assert_eq!(unzip(&zip, &dest).unwrap(), None);
        assert!(dest.join("vosk/libvosk.so").is_file() && dest.join("vosk-0.3.45.dist-info/RECORD").is_file());
    }
}

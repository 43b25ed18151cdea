//! Backup, restore and compaction of the database.

use std::path::{Path, PathBuf};

use super::remote::{self, default_context};
use crate::control::Request;
use crate::datadir::DataDir;

/// A consistent copy, taken by the running server when there is one.
pub fn backup(data_dir: &DataDir, file: &Path) -> anyhow::Result<i32> {
    let file = absolute(file)?;
    if file.exists() {
        anyhow::bail!("{} exists already; choose a new file", file.display());
    }
    let request = Request::Backup { path: file.to_string_lossy().into_owned() };
    remote::print(&remote::run(data_dir, request, default_context)?);
    Ok(0)
}

/// Replaces the database with a backup; the server must be stopped.
pub fn restore(data_dir: &DataDir, file: &Path) -> anyhow::Result<i32> {
    if let Some(holder) = data_dir.running_instance() {
        anyhow::bail!("stop the server first (pid {} serves {})", holder.pid, data_dir.root().display());
    }
    data_dir.create()?;
    crate::store::restore(file, &data_dir.database())?;
    println!("restored {} into {}", file.display(), data_dir.database().display());
    Ok(0)
}

/// Shrinks the database file; the server must be stopped.
pub fn compact(data_dir: &DataDir) -> anyhow::Result<i32> {
    if let Some(holder) = data_dir.running_instance() {
        anyhow::bail!("stop the server first (pid {} serves {})", holder.pid, data_dir.root().display());
    }
    let saved = crate::store::compact(&data_dir.database())?;
    println!("compacted {}: {} KiB freed", data_dir.database().display(), saved / 1024);
    Ok(0)
}

fn absolute(path: &Path) -> anyhow::Result<PathBuf> {
    Ok(if path.is_absolute() { path.to_owned() } else { std::env::current_dir()?.join(path) })
}

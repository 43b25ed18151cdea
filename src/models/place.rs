//! Putting a model into place atomically: it is built in a `.tmp-…` folder
//! beside its final place (the engines ignore dot-folders) and renamed
//! there in one step, so a model folder is either absent or complete.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Context;
use tempfile::TempDir;

/// A folder being filled next to where it will live; dropped before
/// [`Staging::commit`], it is deleted.
pub struct Staging {
    dir: TempDir,
    target: PathBuf,
}

impl Staging {
    pub fn new(target: &Path) -> anyhow::Result<Self> {
        let parent = target.parent().context("a model folder needs a parent folder")?;
        fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
        let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let dir = tempfile::Builder::new()
            .prefix(&format!(".tmp-{name}-"))
            .tempdir_in(parent)
            .with_context(|| format!("cannot create a folder in {}", parent.display()))?;
        Ok(Self { dir, target: target.to_owned() })
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Renames the staged folder into place. An existing folder is replaced
    /// only with `force`; it is moved aside first and deleted after, so a
    /// failed rename puts it back.
    pub fn commit(self, force: bool) -> anyhow::Result<PathBuf> {
        refuse_existing(&self.target, force)?;
        let staged = self.dir.keep();
        let aside = self.target.exists().then(|| staged.with_file_name(format!(".old-{}", unique_suffix(&staged))));
        if let Some(aside) = &aside {
            fs::rename(&self.target, aside).with_context(|| format!("cannot move {} aside", self.target.display()))?;
        }
        if let Err(e) = fs::rename(&staged, &self.target) {
            if let Some(aside) = &aside {
                let _ = fs::rename(aside, &self.target);
            }
            let _ = fs::remove_dir_all(&staged);
            return Err(e).with_context(|| format!("cannot move the new model into {}", self.target.display()));
        }
        if let Some(aside) = aside {
            fs::remove_dir_all(&aside).with_context(|| format!("cannot delete the replaced {}", aside.display()))?;
        }
        Ok(self.target)
    }
}

/// Fails when `target` exists and `force` was not given.
pub fn refuse_existing(target: &Path, force: bool) -> anyhow::Result<()> {
    if target.exists() && !force {
        anyhow::bail!("{} is installed already; pass --force to replace it", target.display());
    }
    Ok(())
}

/// The random part of the staging folder's name, reused for the folder moved aside.
fn unique_suffix(staged: &Path) -> String {
    staged.file_name().map(|n| n.to_string_lossy().trim_start_matches(".tmp-").to_owned()).unwrap_or_default()
}

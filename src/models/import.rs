//! `debrief models import PATH`: installs a model the user already has (a
//! folder, a zip archive or a `.gguf` file), so offline machines and the
//! tests never need a download. What it is decides where it goes; the
//! files are copied (the source stays) into a staging folder and renamed
//! into place.

use std::fs::{self, File};
use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde_json::Value;

use super::kind::{Kind, LIBVOSK, Target};
use super::place::{self, Staging};
use super::{EMBEDDING_MODEL, ModelsDir, archive};
use crate::ct2;

/// What `import` recognises, for the error that lists it.
pub const RECOGNISED: &str = "a Vosk model (a folder with am/ and conf/); Vosk's library (libvosk.so anywhere inside, \
     e.g. the vosk wheel from PyPI or Vosk's release zip); a Whisper model for candle (config.json with model_type \
     whisper, tokenizer.json, model.safetensors); the sentence-embedding model (config.json with model_type bert, \
     tokenizer.json, model.safetensors); an LLM in GGUF (a .gguf file, or a folder with one) - each as a folder or \
     a zip archive";

/// A model found in the import source.
enum Found {
    Vosk(PathBuf),
    Lib(PathBuf),
    Whisper(PathBuf),
    Embedding(PathBuf),
    Gguf { model: PathBuf, tokenizer: Option<PathBuf> },
}

/// Whether the source files are the user's (copied) or our own unpacked
/// scratch copy inside the models folder (renamed, which is instant).
#[derive(Clone, Copy)]
enum Transfer {
    Copy,
    Move,
}

/// Imports `path`; `name` overrides the name taken from the model itself.
/// A CTranslate2 Whisper model is turned into candle's layout by `convert`.
pub fn import(
    models: &ModelsDir,
    path: &Path,
    name: Option<&str>,
    force: bool,
    convert: ct2::Convert,
) -> anyhow::Result<Target> {
    let metadata = fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
    let root = models.root();
    fs::create_dir_all(root).with_context(|| format!("cannot create the models folder {}", root.display()))?;
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();

    if metadata.is_file() && is_zip(path)? {
        // Unpacked inside the models folder, so that its files can be renamed into place.
        let scratch = scratch_dir(root)?;
        let top = archive::unzip(path, scratch.path())?;
        let hint = top.unwrap_or(stem);
        return place_folder(models, scratch.path(), path, Transfer::Move, name, &hint, force, convert);
    }
    if metadata.is_file() && has_extension(path, "gguf") {
        let found = Found::Gguf { model: path.to_owned(), tokenizer: sibling(path, "tokenizer.json") };
        return place_found(models, found, Transfer::Copy, name, &stem, force);
    }
    if metadata.is_dir() {
        let hint = path.canonicalize().ok().and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()));
        return place_folder(models, path, path, Transfer::Copy, name, &hint.unwrap_or(stem), force, convert);
    }
    bail!("{} is not a model debrief recognises. It recognises {RECOGNISED}", path.display())
}

/// Imports the model in folder `dir` (or in the one folder it wraps);
/// `source` names what the user gave, for errors.
#[allow(clippy::too_many_arguments, reason = "the import's own arguments, passed on")]
fn place_folder(
    models: &ModelsDir,
    dir: &Path,
    source: &Path,
    transfer: Transfer,
    name: Option<&str>,
    hint: &str,
    force: bool,
    convert: ct2::Convert,
) -> anyhow::Result<Target> {
    let dir = unwrap_single_folder(dir);
    if ct2::is_ct2_whisper(&dir) {
        let converted = scratch_dir(models.root())?;
        convert(&dir, converted.path()).map_err(|e| anyhow::anyhow!("cannot convert {}: {e}", dir.display()))?;
        return place_found(models, Found::Whisper(converted.path().to_owned()), Transfer::Move, name, hint, force);
    }
    place_found(models, detect(&dir, source)?, transfer, name, hint, force)
}

fn place_found(
    models: &ModelsDir,
    found: Found,
    transfer: Transfer,
    name: Option<&str>,
    hint: &str,
    force: bool,
) -> anyhow::Result<Target> {
    let (target, files) = plan(&found, name, hint)?;
    let destination = target.path(models.root());
    // Before copying anything, which can take a while.
    place::refuse_existing(&destination, force)?;
    let staging = Staging::new(&destination)?;
    for (from, to) in &files {
        let to = staging.path().join(to);
        if let Some(parent) = to.parent() {
            fs::create_dir_all(parent)?;
        }
        match transfer {
            Transfer::Copy => fs::copy(from, &to).map(drop),
            Transfer::Move => fs::rename(from, &to),
        }
        .with_context(|| format!("cannot copy {} to {}", from.display(), to.display()))?;
    }
    if !target.kind.is_complete(staging.path()) {
        bail!("the {} model is incomplete after copying; nothing was installed", target.kind);
    }
    staging.commit(force)?;
    Ok(target)
}

/// Where the model goes and which files it takes (source, path in the model folder).
fn plan(found: &Found, name: Option<&str>, hint: &str) -> anyhow::Result<(Target, Vec<(PathBuf, PathBuf)>)> {
    let pick = |kind: Kind, default: String| Target::new(kind, name.unwrap_or(&default)).map_err(anyhow::Error::msg);
    let three = |dir: &Path| {
        ["config.json", "tokenizer.json", "model.safetensors"].map(|f| (dir.join(f), PathBuf::from(f))).to_vec()
    };
    Ok(match found {
        Found::Lib(file) => (Target::libvosk(), vec![(file.clone(), PathBuf::from(LIBVOSK))]),
        Found::Vosk(dir) => {
            let default =
                folder_name(dir).filter(|n| Target::new(Kind::Vosk, n).is_ok()).unwrap_or_else(|| hint.to_owned());
            let files = files_under(dir)?.into_iter().map(|f| (dir.join(&f), f)).collect();
            (pick(Kind::Vosk, default)?, files)
        }
        Found::Whisper(dir) => {
            let default = whisper_size(&read_config(dir)?).unwrap_or_else(|| hint.to_owned());
            (pick(Kind::Whisper, default)?, three(dir))
        }
        Found::Embedding(dir) => (pick(Kind::Embedding, EMBEDDING_MODEL.to_owned())?, three(dir)),
        Found::Gguf { model, tokenizer } => {
            let stem = model.file_stem().map(|s| s.to_string_lossy().to_lowercase()).unwrap_or_default();
            // A file already called model.gguf says nothing; its folder does.
            let default = if stem == "model" { hint.to_owned() } else { stem };
            let mut files = vec![(model.clone(), PathBuf::from("model.gguf"))];
            files.extend(tokenizer.iter().map(|t| (t.clone(), PathBuf::from("tokenizer.json"))));
            (pick(Kind::Llm, default)?, files)
        }
    })
}

/// Recognises the model in `dir`; `source` names what the user gave.
fn detect(dir: &Path, source: &Path) -> anyhow::Result<Found> {
    let dir = dir.to_owned();
    if Kind::Vosk.is_complete(&dir) {
        return Ok(Found::Vosk(dir));
    }
    let model_type = read_config(&dir).ok().and_then(|c| c["model_type"].as_str().map(str::to_owned));
    match model_type.as_deref() {
        Some("whisper") if Kind::Whisper.is_complete(&dir) => return Ok(Found::Whisper(dir)),
        Some("bert") if Kind::Embedding.is_complete(&dir) => return Ok(Found::Embedding(dir)),
        _ => {}
    }
    let mut ggufs: Vec<PathBuf> = files_in(&dir).into_iter().filter(|f| has_extension(f, "gguf")).collect();
    // `model.gguf` is often a link to the real file: one model, not two.
    let mut seen = std::collections::HashSet::new();
    ggufs.retain(|f| seen.insert(f.canonicalize().unwrap_or_else(|_| f.clone())));
    match ggufs.as_slice() {
        [model] => {
            return Ok(Found::Gguf { model: model.clone(), tokenizer: sibling(model, "tokenizer.json") });
        }
        [] => {}
        _ => bail!("{} holds several .gguf files; import the one you want", source.display()),
    }
    if let Some(lib) = files_under(&dir)?.into_iter().find(|f| f.file_name().is_some_and(|n| n == LIBVOSK)) {
        let lib = dir.join(lib);
        check_library_arch(&lib, source)?;
        return Ok(Found::Lib(lib));
    }
    bail!("{} is not a model debrief recognises. It recognises {RECOGNISED}", source.display())
}

/// Refuses a libvosk.so that is not a shared library for this machine;
/// `source` names what the user gave.
fn check_library_arch(lib: &Path, source: &Path) -> anyhow::Result<()> {
    let mut header = [0u8; 20];
    File::open(lib)
        .and_then(|mut f| f.read_exact(&mut header))
        .with_context(|| format!("cannot read {}", lib.display()))?;
    if &header[..4] != b"\x7fELF" {
        bail!("the libvosk.so in {} is not a shared library", source.display());
    }
    // e_machine, in the byte order EI_DATA names (1: little-endian).
    let machine = if header[5] == 1 {
        u16::from_le_bytes([header[18], header[19]])
    } else {
        u16::from_be_bytes([header[18], header[19]])
    };
    let arch = match machine {
        62 => "x86_64",
        183 => "aarch64",
        40 => "arm",
        243 => "riscv64",
        _ => "another processor",
    };
    if arch != std::env::consts::ARCH {
        bail!("the libvosk.so in {} is built for {arch}; this machine is {}", source.display(), std::env::consts::ARCH);
    }
    Ok(())
}

/// Descends through folders that hold nothing but one folder (a zip's or a
/// download's wrapper), ignoring hidden entries.
fn unwrap_single_folder(dir: &Path) -> PathBuf {
    let mut dir = dir.to_owned();
    loop {
        let entries: Vec<PathBuf> = fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')))
            .collect();
        match entries.as_slice() {
            [only] if only.is_dir() => dir = only.clone(),
            _ => return dir,
        }
    }
}

fn read_config(dir: &Path) -> anyhow::Result<Value> {
    let path = dir.join("config.json");
    let text = fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not JSON", path.display()))
}

/// "tiny.en", "base", …: the name the engine's preference list uses, from
/// the model's dimensions.
fn whisper_size(config: &Value) -> Option<String> {
    let size = match (config["d_model"].as_u64()?, config["encoder_layers"].as_u64()?) {
        (384, 4) => "tiny",
        (512, 6) => "base",
        (768, 12) => "small",
        (1024, 24) => "medium",
        (1280, 32) => "large",
        _ => return None,
    };
    // The English-only models drop one token from the multilingual vocabulary.
    Some(if config["vocab_size"].as_u64() == Some(51864) { format!("{size}.en") } else { size.to_owned() })
}

/// Every file below `dir`, relative to it.
fn files_under(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut pending = vec![PathBuf::new()];
    while let Some(relative) = pending.pop() {
        let here = dir.join(&relative);
        for entry in fs::read_dir(&here).with_context(|| format!("cannot read {}", here.display()))? {
            let path = relative.join(entry?.file_name());
            if dir.join(&path).is_dir() {
                pending.push(path);
            } else {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// The files directly in `dir`, sorted.
fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> =
        fs::read_dir(dir).into_iter().flatten().flatten().map(|e| e.path()).filter(|p| p.is_file()).collect();
    files.sort();
    files
}

fn folder_name(dir: &Path) -> Option<String> {
    dir.file_name().map(|n| n.to_string_lossy().into_owned())
}

fn sibling(file: &Path, name: &str) -> Option<PathBuf> {
    file.parent().map(|dir| dir.join(name)).filter(|p| p.is_file())
}

fn has_extension(path: &Path, extension: &str) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case(extension))
}

/// A zip archive by its first bytes (a wheel is one too, whatever its name).
fn is_zip(path: &Path) -> anyhow::Result<bool> {
    let mut magic = [0u8; 4];
    let mut file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(file.read_exact(&mut magic).is_ok() && (magic == *b"PK\x03\x04" || magic == *b"PK\x05\x06"))
}

/// A scratch folder inside the models folder (a dot-folder, so ignored),
/// deleted when dropped.
fn scratch_dir(root: &Path) -> anyhow::Result<tempfile::TempDir> {
    tempfile::Builder::new()
        .prefix(".import-")
        .tempdir_in(root)
        .with_context(|| format!("cannot create a folder in {}", root.display()))
}

//! Fixture models, archives and catalogues, and the CLI calls the tests make.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use zip::write::SimpleFileOptions;

use super::mirror::*;
use crate::harness::cli;

/// Bytes that do not compress away, so a download takes several reads.
pub fn noise(len: usize, seed: u32) -> Vec<u8> {
    let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state as u8
        })
        .collect()
}

pub fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

pub fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in entries {
        writer.start_file(*name, SimpleFileOptions::default()).unwrap();
        writer.write_all(bytes).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

/// The files of a small but structurally complete Vosk model.
pub fn vosk_files() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("am/final.mdl", noise(200_000, 1)),
        ("conf/model.conf", b"--sample-frequency=16000\n".to_vec()),
        ("conf/mfcc.conf", b"--use-energy=false\n".to_vec()),
        ("graph/HCLr.fst", noise(5_000, 2)),
        ("ivector/final.ie", noise(3_000, 3)),
        ("README", b"a test model\n".to_vec()),
    ]
}

/// A Vosk release zip: everything inside one top-level folder.
pub fn vosk_zip() -> Vec<u8> {
    let files = vosk_files();
    let named: Vec<(String, &[u8])> =
        files.iter().map(|(p, b)| (format!("vosk-model-test-0.1/{p}"), b.as_slice())).collect();
    zip(&named.iter().map(|(p, b)| (p.as_str(), *b)).collect::<Vec<_>>())
}

/// The start of a shared library for this machine (what import checks).
pub fn elf_library() -> Vec<u8> {
    elf_library_for(if std::env::consts::ARCH == "aarch64" { AARCH64 } else { X86_64 })
}

/// ELF machine numbers.
pub const X86_64: u16 = 62;
pub const AARCH64: u16 = 183;

pub fn elf_library_for(machine: u16) -> Vec<u8> {
    let mut bytes = b"\x7fELF\x02\x01\x01".to_vec();
    bytes.resize(16, 0);
    bytes.extend_from_slice(&3u16.to_le_bytes());
    bytes.extend_from_slice(&machine.to_le_bytes());
    bytes.extend(noise(30_000, 4));
    bytes
}

/// A Python wheel holding libvosk.so, as PyPI serves it.
pub fn wheel() -> Vec<u8> {
    wheel_with(&elf_library())
}

pub fn wheel_with(library: &[u8]) -> Vec<u8> {
    zip(&[
        ("vosk/__init__.py", b"".as_slice()),
        ("vosk/libvosk.so", library),
        ("vosk-0.3.45.dist-info/RECORD", b"".as_slice()),
    ])
}

pub fn entry(name: &str, to: &str, files: Value) -> Value {
    json!({ "name": name, "to": to, "description": format!("{name} for the tests"), "files": files })
}

pub fn file(url: &str, bytes: &[u8], unpack: Value) -> Value {
    json!({ "url": url, "sha256": sha256(bytes), "size": bytes.len(), "unpack": unpack })
}

pub fn write_catalog(dir: &Path, entries: Vec<Value>) -> PathBuf {
    let path = dir.join("catalog.json");
    fs::write(&path, serde_json::to_vec_pretty(&json!({ "models": entries })).unwrap()).unwrap();
    path
}

/// `debrief models --catalog CATALOG ARGS` on a fresh data dir's default models folder.
pub fn models(data_dir: &Path, catalog: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["models", "--catalog", catalog.to_str().unwrap()];
    all.extend_from_slice(args);
    cli(data_dir, &all)
}

pub fn dot_entries(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default()
}

/// A mirror serving the Vosk zip, and a catalogue with it as `vosk-test`.
pub fn vosk_mirror(temp: &Path, fault: Fault) -> (Mirror, PathBuf, Vec<u8>) {
    let archive = vosk_zip();
    let mirror = Mirror::start(vec![("vosk-model-test-0.1.zip", archive.clone())], fault);
    let catalog = write_catalog(
        temp,
        vec![entry(
            "vosk-test",
            "vosk/vosk-model-test-0.1",
            json!([file(&mirror.url("vosk-model-test-0.1.zip"), &archive, json!("zip"))]),
        )],
    );
    (mirror, catalog, archive)
}

pub fn assert_vosk_model_installed(data_dir: &Path) {
    let model = data_dir.join("models/vosk/vosk-model-test-0.1");
    for (path, bytes) in vosk_files() {
        assert_eq!(fs::read(model.join(path)).unwrap(), bytes, "{path}");
    }
}

/// Writes `files` under `dir`.
pub fn write_tree(dir: &Path, files: &[(&str, Vec<u8>)]) {
    for (path, bytes) in files {
        let path = dir.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, bytes).unwrap();
    }
}

pub fn import(data_dir: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["models", "import"];
    all.extend_from_slice(args);
    cli(data_dir, &all)
}

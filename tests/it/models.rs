//! `debrief models list|install|import` against the real binary. Installs
//! download from a loopback HTTP server written here (a real server that
//! honours Range and can cut or stall the first download), serving fixture
//! archives built in the test.

mod fixtures;
mod import;
mod install;
mod mirror;
mod pypi;

use serde_json::{Value, json};

use crate::harness::{cli, text};
use fixtures::*;
use mirror::*;

#[test]
fn list_shows_installed_and_known_models_also_as_json() {
    let temp = tempfile::tempdir().unwrap();
    let (_mirror, catalog, archive) = vosk_mirror(temp.path(), Fault::None);
    let source = temp.path().join("vosk-model-test-0.1");
    write_tree(&source, &vosk_files());
    let data_dir = temp.path().join("data");
    assert!(import(&data_dir, &[source.to_str().unwrap()]).status.success());

    let table = models(&data_dir, &catalog, &["list"]);
    assert!(table.status.success(), "{}", text(&table.stderr));
    let table = text(&table.stdout);
    assert!(
        table.contains("vosk-model-test-0.1") && table.contains("vosk-test") && table.contains("installed"),
        "{table}"
    );

    let out = models(&data_dir, &catalog, &["list", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    let installed = &list["installed"][0];
    assert_eq!((installed["kind"].as_str(), installed["name"].as_str()), (Some("vosk"), Some("vosk-model-test-0.1")));
    assert_eq!(installed["complete"], json!(true));
    let size: usize = vosk_files().iter().map(|(_, b)| b.len()).sum();
    assert_eq!(installed["size_bytes"], json!(size));
    let known = &list["catalog"][0];
    assert_eq!(known["name"], json!("vosk-test"));
    assert_eq!(known["to"], json!("vosk/vosk-model-test-0.1"));
    assert_eq!(known["download_bytes"], json!(archive.len()));
    assert_eq!((known["installed"].clone(), known["suits_this_machine"].clone()), (json!(true), json!(true)));
}

#[test]
fn the_built_in_catalogue_offers_the_production_models_for_this_machine() {
    let temp = tempfile::tempdir().unwrap();
    let out = cli(temp.path(), &["models", "list", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    let catalog = list["catalog"].as_array().unwrap();
    let named = |name: &str| catalog.iter().filter(|e| e["name"] == json!(name)).collect::<Vec<_>>();

    let libvosk = named("libvosk");
    assert_eq!(libvosk.len(), 2);
    let here = libvosk.iter().filter(|e| e["suits_this_machine"] == json!(true)).count();
    assert_eq!(here, usize::from(matches!(std::env::consts::ARCH, "x86_64" | "aarch64")));
    for name in ["vosk-small-en-us", "whisper-tiny.en", "whisper-base.en", "whisper-base", "all-minilm-l6-v2"] {
        assert_eq!(named(name)[0]["verifiable"], json!(true), "{name}");
    }
    assert_eq!(list["installed"], json!([]));
}

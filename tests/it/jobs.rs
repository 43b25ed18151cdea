//! Recordings become transcripts, summaries and next steps in jobs that
//! survive restarts: real models, real speech, the real binary.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::browser::{Browser, signed_in_user};
use crate::clients::{create, upload};
use crate::harness::{BIN, TestApp, cli, spawn_with, test_models, text};
use crate::speech::{librivox, spoken};

const PASSWORD: &str = "correct horse";

/// A models folder holding `items` of the test models, installed by the
/// real `debrief models import`.
pub fn models_folder(items: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for item in items {
        import(dir.path(), &test_models().join(item));
    }
    dir
}

pub fn import(models: &Path, what: &Path) {
    let out = Command::new(BIN)
        .args(["models", "import"])
        .arg(what)
        .arg("--models-dir")
        .arg(models)
        .arg("--data-dir")
        .arg(models.join("data"))
        .output()
        .unwrap();
    assert!(out.status.success(), "import of {} failed: {}{}", what.display(), text(&out.stdout), text(&out.stderr));
}

pub fn serve(data: &Path, models: &Path, extra: &[&str]) -> TestApp {
    let models = models.to_str().unwrap();
    let mut args = vec!["--http", "--models-dir", models];
    args.extend_from_slice(extra);
    spawn_with(data, &args).expect("the server starts")
}

/// A signed-up user with one client whose recording is `wav`.
pub fn client_with_recording(app: &TestApp, wav: &[u8]) -> (Browser, u64) {
    let mut user = signed_in_user(&app.url, "owner@example.com", PASSWORD);
    let id = create(&mut user, "Jane Client");
    let (status, body) = upload(&app.url, user.cookie.as_deref().unwrap(), id, wav);
    assert_eq!(status, 200, "{body}");
    (user, id)
}

/// Polls the client until its job's status is one of `statuses`.
pub fn wait_for_status(user: &mut Browser, id: u64, statuses: &[&str], timeout: Duration) -> Value {
    let deadline = Instant::now() + timeout;
    loop {
        let client = user.get(&format!("/api/clients/{id}")).body;
        let status = client["job"]["status"].as_str().unwrap_or("none").to_owned();
        if statuses.contains(&status.as_str()) {
            return client;
        }
        assert!(Instant::now() < deadline, "the job stayed '{status}' (wanted {statuses:?}): {client}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// An event of `GET /api/clients/{id}/events`.
#[derive(Debug)]
struct Event {
    name: String,
    data: Value,
}

/// Reads the event stream until a `client` event (results written) arrives.
fn watch_until_saved(base: &str, cookie: &str, id: u64, timeout: Duration) -> Vec<Event> {
    let agent =
        ureq::Agent::config_builder().http_status_as_error(false).timeout_global(Some(timeout)).build().new_agent();
    let res = agent
        .get(format!("{base}/api/clients/{id}/events"))
        .header("Cookie", format!("debrief_session={cookie}"))
        .call()
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    assert_eq!(res.headers()["content-type"], "text/event-stream");
    let mut events = Vec::new();
    let (mut name, mut data) = (String::new(), String::new());
    for line in BufReader::new(res.into_body().into_reader()).lines() {
        let line = line.expect("the stream stays open until the results arrive");
        if let Some(value) = line.strip_prefix("event:") {
            name = value.trim().to_owned();
        } else if let Some(value) = line.strip_prefix("data:") {
            data.push_str(value.trim());
        } else if line.is_empty() && !data.is_empty() {
            let event = Event {
                name: std::mem::take(&mut name),
                data: serde_json::from_str(&std::mem::take(&mut data)).unwrap(),
            };
            let saved = event.name == "client";
            events.push(event);
            if saved {
                return events;
            }
        }
    }
    panic!("the stream ended before the results: {events:?}");
}

#[test]
fn a_spoken_meeting_becomes_a_transcript_summary_and_next_steps_on_the_open_page() {
    let models = models_folder(&["whisper-tiny.en-ct2", "all-minilm-l6-v2"]);
    let data = tempfile::tempdir().unwrap();
    let app = serve(data.path(), models.path(), &[]);
    let meeting = spoken(
        "Thanks for meeting with us today. We looked at the budget for the new warehouse system. \
         The team likes the second option because it is cheaper to run. \
         Sarah will send the revised proposal by Friday. \
         I will schedule a follow-up call with the finance team next week.",
        "en-us",
    );
    let (user, id) = client_with_recording(&app, &meeting);

    let events = watch_until_saved(&app.url, user.cookie.as_deref().unwrap(), id, Duration::from_secs(300));

    let statuses: Vec<&str> =
        events.iter().filter(|e| e.name == "job").map(|e| e.data["status"].as_str().unwrap_or("none")).collect();
    assert!(statuses.contains(&"transcribing") && statuses.contains(&"summarising"), "{statuses:?}");
    let progress: Vec<u64> = events
        .iter()
        .filter(|e| e.data["status"] == "transcribing")
        .filter_map(|e| e.data["progress"].as_u64())
        .collect();
    assert!(progress.windows(2).all(|w| w[0] <= w[1]), "progress went back: {progress:?}");
    let client = &events.last().unwrap().data;
    let transcript = client["transcription"].as_str().unwrap().to_lowercase();
    // "finance team" or "financing": the recogniser's word, not the point.
    assert!(transcript.contains("proposal") && transcript.contains("financ"), "{transcript}");
    assert!(!client["summary"].as_str().unwrap_or("").trim().is_empty(), "{client}");
    let next_steps = client["nextSteps"].as_str().unwrap_or("").to_lowercase();
    println!("transcript: {transcript}\nsummary: {}\nnext steps:\n{next_steps}", client["summary"]);
    assert!(next_steps.lines().any(|l| l.contains("proposal") && l.contains("friday")), "{next_steps}");
    assert!(next_steps.lines().any(|l| l.contains("financ") && l.contains("call")), "{next_steps}");
    assert_eq!(client["job"]["status"], "done");
}

#[test]
fn a_job_cut_off_by_a_killed_server_finishes_after_the_restart() {
    let models = models_folder(&["whisper-tiny.en-ct2"]);
    let data = tempfile::tempdir().unwrap();
    let mut app = serve(data.path(), models.path(), &["--summariser", "lexical"]);
    let (mut user, id) = client_with_recording(&app, &librivox(&test_models(), 2));
    wait_for_status(&mut user, id, &["transcribing"], Duration::from_secs(60));
    app.kill();

    let app = serve(data.path(), models.path(), &["--summariser", "lexical"]);
    let mut user = Browser::new(&app.url).with_cookie(user.cookie.clone());
    let client = wait_for_status(&mut user, id, &["done", "failed"], Duration::from_secs(300));
    assert_eq!(client["job"]["status"], "done", "{client}");
    let transcript = client["transcription"].as_str().unwrap().to_lowercase();
    assert!(transcript.contains("dashwood") && transcript.contains("amiable"), "{transcript}");
    assert!(!client["summary"].as_str().unwrap_or("").is_empty());
}

#[test]
fn a_stage_cut_off_twice_fails_with_a_reason_instead_of_a_third_run_and_can_be_retried() {
    let models = models_folder(&["whisper-tiny.en-ct2"]);
    let data = tempfile::tempdir().unwrap();
    let mut app = serve(data.path(), models.path(), &["--summariser", "lexical"]);
    let (mut user, id) = client_with_recording(&app, &librivox(&test_models(), 3));
    let cookie = user.cookie.clone();
    for _ in 0..2 {
        wait_for_status(&mut user, id, &["transcribing"], Duration::from_secs(60));
        app.kill();
        app = serve(data.path(), models.path(), &["--summariser", "lexical"]);
        user = Browser::new(&app.url).with_cookie(cookie.clone());
    }
    let client = wait_for_status(&mut user, id, &["failed"], Duration::from_secs(30));
    let reason = client["job"]["error"].as_str().unwrap();
    assert!(reason.contains("cut off 2 times"), "{reason}");

    let listed = cli(data.path(), &["jobs", "list", "--json"]);
    let jobs: Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(jobs[0]["status"], "failed", "{jobs}");
    assert_eq!(jobs[0]["client"], id);

    let retried = cli(data.path(), &["jobs", "retry", &id.to_string()]);
    assert!(retried.status.success(), "{}", text(&retried.stderr));
    let client = wait_for_status(&mut user, id, &["done"], Duration::from_secs(300));
    assert!(client["transcription"].as_str().unwrap().to_lowercase().contains("dashwood"));
}

#[test]
fn a_job_waits_for_a_missing_model_and_resumes_when_one_is_imported() {
    let models = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let app = serve(data.path(), models.path(), &[]);
    let (mut user, id) = client_with_recording(
        &app,
        &spoken("Maria will call the supplier on Monday about the delivery dates.", "en-us"),
    );
    let client = wait_for_status(&mut user, id, &["waiting_for_model"], Duration::from_secs(30));
    let reason = client["job"]["error"].as_str().unwrap();
    assert!(reason.contains("debrief models import"), "{reason}");
    assert!(user.get("/api/clients").body[0]["jobStatus"] == "waiting_for_model");

    // Imported while the server runs: the CLI tells the server.
    import(models.path(), &test_models().join("whisper-tiny.en-ct2"));
    let client = wait_for_status(&mut user, id, &["done", "failed"], Duration::from_secs(120));
    assert_eq!(client["job"]["status"], "done", "{client}");
    assert!(client["transcription"].as_str().unwrap().to_lowercase().contains("delivery"), "{client}");
    // No embedding model: the lexical summariser still writes a summary.
    assert!(!client["summary"].as_str().unwrap_or("").is_empty(), "{client}");
}

#[test]
fn retry_and_regenerate_follow_the_job_state_and_the_owner() {
    let models = models_folder(&["whisper-tiny.en-ct2"]);
    let data = tempfile::tempdir().unwrap();
    let app = serve(data.path(), models.path(), &["--summariser", "lexical"]);
    let (mut user, id) = client_with_recording(
        &app,
        &spoken("We agreed that Tom will prepare the contract draft before the end of the month.", "en-us"),
    );
    let mut stranger = signed_in_user(&app.url, "stranger@example.com", PASSWORD);
    let client = wait_for_status(&mut user, id, &["done"], Duration::from_secs(120));
    let summary = client["summary"].as_str().unwrap().to_owned();

    let cases = [
        (&mut stranger, format!("/api/clients/{id}/summary/regenerate"), 404, "Client not found"),
        (&mut user, format!("/api/clients/{id}/job/retry"), 409, "Only a failed job can be retried"),
    ];
    for (who, path, status, message) in cases {
        let reply = who.post(&path, Value::Null);
        assert_eq!(reply.status, status, "{path}: {}", reply.text);
        assert_eq!(reply.body["message"], message);
        assert!(!reply.text.contains("contract"), "nothing of the client leaks: {}", reply.text);
    }
    assert_eq!(stranger.get(&format!("/api/clients/{id}/events")).status, 404);

    let reply = user.post(&format!("/api/clients/{id}/summary/regenerate"), Value::Null);
    assert_eq!(reply.status, 202, "{}", reply.text);
    assert!(["queued", "summarising"].contains(&reply.body["status"].as_str().unwrap()), "{}", reply.text);
    let client = wait_for_status(&mut user, id, &["done"], Duration::from_secs(60));
    assert_eq!(client["summary"], summary.as_str(), "the same transcript and summariser give the same summary");
    assert!(client["transcription"].as_str().unwrap().to_lowercase().contains("contract"));
}

#[test]
fn a_recording_the_engines_cannot_read_fails_its_job_with_a_reason() {
    let models = models_folder(&["whisper-tiny.en-ct2"]);
    let data = tempfile::tempdir().unwrap();
    let app = serve(data.path(), models.path(), &[]);
    // A well-formed WAV passes the upload check, but no microphone records
    // at 1 MHz: reading it for transcription must fail cleanly.
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: 1_000_000,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut wav = std::io::Cursor::new(Vec::new());
    let mut writer = hound::WavWriter::new(&mut wav, spec).unwrap();
    (0..100_000).for_each(|i| writer.write_sample((i % 200) as i16).unwrap());
    writer.finalize().unwrap();
    let (mut user, id) = client_with_recording(&app, &wav.into_inner());
    let client = wait_for_status(&mut user, id, &["done", "failed"], Duration::from_secs(60));
    assert_eq!(client["job"]["status"], "failed", "{client}");
    let reason = client["job"]["error"].as_str().unwrap();
    assert!(reason.contains("recording") && reason.contains("1000000"), "{reason}");
    assert!(!app.printed().contains("panicked"), "{}", app.printed());
}

#[test]
fn without_libvosk_the_server_starts_and_doctor_names_what_is_missing() {
    let models = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let app = serve(data.path(), models.path(), &["--asr", "vosk"]);
    assert!(app.printed().contains("ready: "));
    let out = Command::new(BIN)
        .arg("doctor")
        .arg("--data-dir")
        .arg(data.path())
        .arg("--models-dir")
        .arg(models.path())
        .env("LD_LIBRARY_PATH", "")
        .output()
        .unwrap();
    let report = text(&out.stdout);
    let line = |part: &str| report.lines().find(|l| l.starts_with(part)).unwrap_or_default().to_owned();
    assert!(
        line("libvosk").contains("missing") && line("libvosk").contains("debrief models install libvosk"),
        "{report}"
    );
    assert!(line("speech").contains("missing"), "{report}");
    assert!(line("summary").contains("lexical"), "{report}");
}

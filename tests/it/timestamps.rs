//! A transcript made with a spelling hint keeps sentence-level timestamps:
//! the hint (the card's and the profile's names, which every job through
//! the server gets) once turned each 30-second window into one segment, so
//! tap-to-seek and subtitle cues jumped by half a minute.

use std::time::Duration;

use serde_json::{Value, json};

use crate::browser::signed_in_user;
use crate::clients::upload;
use crate::harness::{BIN, test_models, text};
use crate::jobs::{models_folder, serve, wait_for_status};
use crate::speech::librivox;

/// Subtitle cues are normally under 7 s; none of a sentence's may pass this.
const LONGEST_MS: u64 = 15_000;
const HINT: &str = "Meeting with Elinor Dashwood, Director at Norland Park, and Owner Tester.";

/// (start, end) of each segment of a transcript's JSON.
fn spans(segments: &Value) -> Vec<(u64, u64)> {
    let segments = segments.as_array().expect("segments");
    segments.iter().map(|s| (s["startMs"].as_u64().unwrap(), s["endMs"].as_u64().unwrap())).collect()
}

/// (start, end) of each SRT cue, in milliseconds.
fn srt_cues(srt: &str) -> Vec<(u64, u64)> {
    let ms = |t: &str| {
        let (clock, millis) = t.trim().split_once(',').unwrap();
        let parts: Vec<u64> = clock.split(':').map(|p| p.parse().unwrap()).collect();
        ((parts[0] * 60 + parts[1]) * 60 + parts[2]) * 1000 + millis.parse::<u64>().unwrap()
    };
    srt.lines().filter_map(|l| l.split_once(" --> ")).map(|(from, to)| (ms(from), ms(to))).collect()
}

fn assert_sentence_level(spans: &[(u64, u64)], what: &str) {
    // Five readings with pauses between them: at least one segment each.
    assert!(spans.len() >= 5, "{what}: {spans:?}");
    assert!(spans.iter().all(|(start, end)| end - start <= LONGEST_MS), "{what}: {spans:?}");
}

#[test]
fn a_hinted_transcript_of_the_joined_readings_has_no_segment_over_fifteen_seconds_from_the_cli() {
    let models = models_folder(&["whisper-tiny.en-ct2"]);
    let wav = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(wav.path(), librivox(&test_models(), 1)).unwrap();
    let out = std::process::Command::new(BIN)
        .args(["transcribe", "--json", "--asr", "whisper", "--hint", HINT, "--models-dir"])
        .arg(models.path())
        .arg(wav.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let transcript: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_sentence_level(&spans(&transcript["segments"]), "the CLI with a hint");
    assert!(transcript["text"].as_str().unwrap().contains("Dashwood"), "{transcript}");
}

#[test]
fn a_recording_transcribed_through_the_server_keeps_sentence_level_segments_and_subtitle_cues() {
    let models = models_folder(&["whisper-tiny.en-ct2"]);
    let data = tempfile::tempdir().unwrap();
    let app = serve(data.path(), models.path(), &["--summariser", "lexical"]);
    let mut user = signed_in_user(&app.url, "owner@example.com", "correct horse");
    // The card the server builds its hint from.
    let card = json!({"clientData": {"name": "Elinor Dashwood", "email": "elinor@norland.example",
        "phone": "+44 20 7946 0000", "company": "Norland Park", "position": "Director"}});
    let created = user.post("/api/clients", card);
    assert_eq!(created.status, 201, "{}", created.text);
    let id = created.body["id"].as_u64().unwrap();
    let (status, body) = upload(&app.url, user.cookie.as_deref().unwrap(), id, &librivox(&test_models(), 1));
    assert_eq!(status, 200, "{body}");
    wait_for_status(&mut user, id, &["done"], Duration::from_secs(180));

    let transcript = user.get(&format!("/api/clients/{id}/transcript"));
    assert_eq!(transcript.status, 200, "{}", transcript.text);
    assert_sentence_level(&spans(&transcript.body["segments"]), "through the server");
    let srt = user.get(&format!("/api/clients/{id}/transcript/export?format=srt")).text;
    assert_sentence_level(&srt_cues(&srt), "the SRT export");
}

/// Waits until client `id`'s job, changed after `since` (its `updatedAt`),
/// is done again.
fn done_again(user: &mut crate::browser::Browser, id: u64, since: &Value) -> Value {
    let deadline = std::time::Instant::now() + Duration::from_secs(180);
    loop {
        let client = user.get(&format!("/api/clients/{id}")).body;
        if client["job"]["status"] == "done" && client["job"]["updatedAt"] != *since {
            return client;
        }
        assert!(std::time::Instant::now() < deadline, "the job did not run again: {client}");
        std::thread::sleep(Duration::from_millis(300));
    }
}

#[test]
fn retranscribing_through_the_running_server_keeps_ticked_steps_and_skips_corrected_transcripts_unless_forced() {
    let models = models_folder(&["whisper-tiny.en-ct2"]);
    let data = tempfile::tempdir().unwrap();
    let app = serve(data.path(), models.path(), &["--summariser", "lexical"]);
    let mut user = signed_in_user(&app.url, "owner@example.com", "correct horse");
    let cookie = user.cookie.clone().unwrap();
    let said = "Thanks for your time today. I will send you the revised proposal tomorrow. \
                I will also call the bank about the guarantee next week.";
    let (ticked, corrected) =
        (crate::clients::create(&mut user, "Jane Client"), crate::clients::create(&mut user, "Joe Client"));
    for id in [ticked, corrected] {
        let (status, body) = upload(&app.url, &cookie, id, &crate::speech::spoken(said, "en-us"));
        assert_eq!(status, 200, "{body}");
        wait_for_status(&mut user, id, &["done"], Duration::from_secs(120));
    }
    // One owner ticks a step off; the other corrects the transcript.
    let before = user.get(&format!("/api/clients/{ticked}")).body;
    let step = before["actionItems"][0]["id"].clone();
    let tick = user.call("PATCH", &format!("/api/next-steps/{step}"), Some(json!({"done": true})));
    assert_eq!(tick.status, 200, "{}", tick.text);
    let path = format!("/api/clients/{corrected}/transcript");
    let segments = user.get(&path).body["segments"].as_array().unwrap().clone();
    let texts: Vec<Value> = segments.iter().map(|_| json!({"text": "Corrected by the owner."})).collect();
    assert_eq!(user.put(&path, json!({"segments": texts})).status, 200);
    let corrected_at = user.get(&format!("/api/clients/{corrected}")).body["job"]["updatedAt"].clone();

    let all = crate::harness::cli(data.path(), &["jobs", "retranscribe", "--all"]);
    assert!(all.status.success(), "{}", text(&all.stderr));
    let said_back = text(&all.stdout);
    assert!(said_back.contains(&format!("client {ticked}")), "{said_back}");
    assert!(said_back.contains(&format!("skipped client {corrected}: The owner corrected")), "{said_back}");

    let after = done_again(&mut user, ticked, &before["job"]["updatedAt"]);
    let kept = after["actionItems"].as_array().unwrap().iter().find(|i| i["id"] == step).cloned();
    assert_eq!(kept.map(|i| i["done"].clone()), Some(json!(true)), "the ticked step stays ticked: {after}");
    assert_eq!(user.get(&path).body["corrected"], true, "a corrected transcript is left alone");

    let forced =
        crate::harness::cli(data.path(), &["jobs", "retranscribe", "--client", &corrected.to_string(), "--force"]);
    assert!(forced.status.success(), "{}", text(&forced.stderr));
    done_again(&mut user, corrected, &corrected_at);
    let transcript = user.get(&path).body;
    assert_eq!(transcript["corrected"], false, "--force transcribes it again: {transcript}");
    assert!(transcript["text"].as_str().unwrap().contains("proposal"), "{transcript}");
}

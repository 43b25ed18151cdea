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

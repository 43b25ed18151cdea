//! Long recordings cost memory by what is asked of them, not by their
//! length: a recording longer than allowed is refused from its header, and
//! a range of a long compressed one played as WAV decodes only that range.

use std::time::Duration;

use serde_json::Value;

use crate::browser::{Browser, signed_in_user};
use crate::clients::{create, upload};
use crate::harness::{client, spawn_app_with};
use crate::jobs::{models_folder, serve, wait_for_status};
use crate::probe::peak_rss_mb;

/// An 8-bit 4 kHz mono WAV of `seconds` of silence: the cheapest bytes a
/// second of audio can take (a byte makes 16 bytes of samples at 16 kHz).
fn cheap_wav(seconds: u32) -> Vec<u8> {
    let data = seconds * 4_000;
    let mut wav = b"RIFF".to_vec();
    wav.extend((36 + data).to_le_bytes());
    wav.extend(b"WAVEfmt ");
    wav.extend(16u32.to_le_bytes());
    wav.extend(1u16.to_le_bytes());
    wav.extend(1u16.to_le_bytes());
    wav.extend(4_000u32.to_le_bytes());
    wav.extend(4_000u32.to_le_bytes());
    wav.extend(1u16.to_le_bytes());
    wav.extend(8u16.to_le_bytes());
    wav.extend(b"data");
    wav.extend(data.to_le_bytes());
    wav.resize(wav.len() + data as usize, 128);
    wav
}

#[test]
fn a_recording_longer_than_the_limit_is_refused_from_its_header_and_nothing_is_kept() {
    let app = spawn_app_with(&["--max-recording-duration", "1m"]);
    let mut user = signed_in_user(&app.url, "owner@example.com", "correct horse");
    let id = create(&mut user, "Jane Client");
    let cookie = user.cookie.clone().unwrap();
    let (status, body) = upload(&app.url, &cookie, id, &cheap_wav(120));
    assert_eq!(status, 413, "{body}");
    assert_eq!(body["message"], "The recording is longer than this server accepts (1 minute)");
    assert_eq!(user.get(&format!("/api/clients/{id}")).body["recording"], Value::Null, "nothing was kept");
    let (status, body) = upload(&app.url, &cookie, id, &cheap_wav(50));
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["durationMs"], 50_000);
}

/// `path` read with `user`'s session and `range`: status, Content-Range, bytes.
fn ranged(base: &str, user: &Browser, path: &str, range: &str) -> (u16, String, Vec<u8>) {
    let mut res = client()
        .get(format!("{base}{path}"))
        .header("Cookie", format!("debrief_session={}", user.cookie.as_deref().unwrap()))
        .header("Range", range)
        .call()
        .unwrap();
    let content_range = res.headers().get("content-range").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    (res.status().as_u16(), content_range, res.body_mut().read_to_vec().unwrap())
}

#[test]
fn ranges_of_a_long_compressed_recording_played_as_wav_cost_what_the_range_costs() {
    let models = models_folder(&["whisper-tiny.en-ct2"]);
    let data = tempfile::tempdir().unwrap();
    let app = serve(data.path(), models.path(), &["--summariser", "lexical"]);
    let mut user = signed_in_user(&app.url, "owner@example.com", "correct horse");
    let id = create(&mut user, "Jane Client");
    // 20 minutes: decoded whole to WAV, 115 MB of samples and WAV a request.
    let minutes = 20;
    let (status, body) = upload(&app.url, user.cookie.as_deref().unwrap(), id, &cheap_wav(minutes * 60));
    assert_eq!(status, 200, "{body}");
    wait_for_status(&mut user, id, &["done"], Duration::from_secs(180));
    let client =
        crate::storage::wait_for_client(&mut user, id, "compressed", |c| c["recording"]["contentType"] == "audio/ogg");
    let wav = format!("{}&as=wav", client["recordingUrl"].as_str().unwrap());
    let size = 44 + u64::from(minutes) * 60 * 16_000 * 2;

    let before = peak_rss_mb(&app);
    let answers: Vec<(u16, String, Vec<u8>)> = std::thread::scope(|s| {
        let ranges = ["bytes=0-1", "bytes=0-1", "bytes=0-1", "bytes=20000001-21000000"];
        let asked: Vec<_> = ranges.iter().map(|range| s.spawn(|| ranged(&app.url, &user, &wav, range))).collect();
        asked.into_iter().map(|a| a.join().unwrap()).collect()
    });
    for (status, content_range, bytes) in &answers[..3] {
        assert_eq!(
            (*status, content_range.as_str(), bytes.as_slice()),
            (206, format!("bytes 0-1/{size}").as_str(), &b"RI"[..])
        );
    }
    let (status, content_range, bytes) = &answers[3];
    assert_eq!((*status, content_range.as_str()), (206, format!("bytes 20000001-21000000/{size}").as_str()));
    assert_eq!(bytes.len(), 1_000_000);
    let grown = peak_rss_mb(&app) - before;
    assert!(grown < 40, "four ranges at once took the server's peak up by {grown} MB");
}

//! The transcript as timed segments through the API and the CLI: kept
//! across a restart, exported as subtitles that real parsers read,
//! corrected (the summary is then regenerated from the correction) and
//! undone, and nobody else's to read.

use std::time::Duration;

use serde_json::{Value, json};

use crate::browser::{Browser, signed_in_user};
use crate::clients::{create, upload};
use crate::harness::{cli, spawn_app, text};
use crate::jobs::{models_folder, serve, wait_for_status};
use crate::python::read_with;
use crate::speech::spoken;

const PASSWORD: &str = "correct horse";

/// Cues as Python's `srt` or `webvtt` package reads them: start and end in
/// milliseconds, and the text.
fn cues(format: &str, file: &str) -> Vec<(u64, u64, String)> {
    const READ: &str = r#"
import io, json, sys
text = sys.stdin.read()
if sys.argv[1] == "srt":
    import srt
    cues = [(c.start.total_seconds(), c.end.total_seconds(), c.content) for c in srt.parse(text)]
else:
    import webvtt
    cues = []
    for c in webvtt.from_buffer(io.StringIO(text)).captions:
        to_s = lambda t: sum(float(p) * m for p, m in zip(t.split(":"), (3600, 60, 1)))
        cues.append((to_s(c.start), to_s(c.end), c.text))
print(json.dumps([[round(s * 1000), round(e * 1000), t] for s, e, t in cues]))
"#;
    let script = READ.replace("sys.argv[1]", &format!("{format:?}"));
    let read = read_with(&script, file);
    read.as_array()
        .unwrap()
        .iter()
        .map(|c| (c[0].as_u64().unwrap(), c[1].as_u64().unwrap(), c[2].as_str().unwrap().to_owned()))
        .collect()
}

#[test]
fn segments_keep_their_times_across_a_restart_and_export_as_subtitles_real_parsers_read() {
    let models = models_folder(&["whisper-tiny.en-ct2"]);
    let data = tempfile::tempdir().unwrap();
    let mut app = serve(data.path(), models.path(), &["--summariser", "lexical"]);
    let mut user = signed_in_user(&app.url, "owner@example.com", PASSWORD);
    let id = create(&mut user, "Jane Client");
    let wav = spoken(
        "Good morning and thank you for coming. We looked at the budget for next year. \
         I will send you the revised proposal on Friday. Then we will meet again in two weeks.",
        "en-us",
    );
    let (status, body) = upload(&app.url, user.cookie.as_deref().unwrap(), id, &wav);
    assert_eq!(status, 200, "{body}");
    let client = wait_for_status(&mut user, id, &["done"], Duration::from_secs(120));
    let duration = client["recording"]["durationMs"].as_u64().unwrap();

    let transcript = user.get(&format!("/api/clients/{id}/transcript"));
    assert_eq!(transcript.status, 200, "{}", transcript.text);
    let segments = transcript.body["segments"].as_array().unwrap().clone();
    assert!(!segments.is_empty(), "{}", transcript.text);
    let times: Vec<(u64, u64)> =
        segments.iter().map(|s| (s["startMs"].as_u64().unwrap(), s["endMs"].as_u64().unwrap())).collect();
    assert!(times.windows(2).all(|w| w[0].0 <= w[1].0), "segments come in order: {times:?}");
    assert!(times.iter().all(|(start, end)| start <= end && *end <= duration + 1000), "{times:?} of {duration}");
    assert_eq!(transcript.body["text"], client["transcription"], "the spec's text is the segments joined");
    assert_eq!(transcript.body["corrected"], false);

    let srt = user.get(&format!("/api/clients/{id}/transcript/export?format=srt")).text;
    let vtt = user.get(&format!("/api/clients/{id}/transcript/export?format=vtt")).text;
    let said: Vec<(u64, u64, String)> = segments
        .iter()
        .filter(|s| !s["text"].as_str().unwrap().trim().is_empty())
        .map(|s| {
            (
                s["startMs"].as_u64().unwrap(),
                s["endMs"].as_u64().unwrap(),
                s["text"].as_str().unwrap().trim().to_owned(),
            )
        })
        .collect();
    assert_eq!(cues("srt", &srt), said, "{srt}");
    assert_eq!(cues("vtt", &vtt), said, "{vtt}");
    assert!(user.get(&format!("/api/clients/{id}/transcript/export?format=txt")).text.starts_with("[00:0"));
    assert_eq!(user.get(&format!("/api/clients/{id}/transcript/export?format=doc")).status, 400);

    let exported = cli(data.path(), &["jobs", "export", &id.to_string(), "--format", "srt"]);
    assert!(exported.status.success(), "{}", text(&exported.stderr));
    assert_eq!(text(&exported.stdout), srt, "the CLI exports what the browser downloads, through the running server");

    assert!(app.terminate().success());
    let app = serve(data.path(), models.path(), &["--summariser", "lexical"]);
    let mut again = Browser::new(&app.url).with_cookie(user.cookie.clone());
    let after = again.get(&format!("/api/clients/{id}/transcript"));
    assert_eq!(after.body["segments"], Value::Array(segments), "segments and times survive a restart");
}

#[test]
fn a_corrected_transcript_is_what_the_summary_is_regenerated_from_until_it_is_undone() {
    let models = models_folder(&["whisper-tiny.en-ct2"]);
    let data = tempfile::tempdir().unwrap();
    let app = serve(data.path(), models.path(), &["--summariser", "lexical"]);
    let mut user = signed_in_user(&app.url, "owner@example.com", PASSWORD);
    let id = create(&mut user, "Jane Client");
    let wav = spoken("I will send the signed contract to the bank tomorrow.", "en-us");
    let (status, body) = upload(&app.url, user.cookie.as_deref().unwrap(), id, &wav);
    assert_eq!(status, 200, "{body}");
    wait_for_status(&mut user, id, &["done"], Duration::from_secs(120));
    let path = format!("/api/clients/{id}/transcript");
    let recognised = user.get(&path).body;
    let segments = recognised["segments"].as_array().unwrap();

    let wrong = user.put(&path, json!({"segments": []}));
    assert_eq!(wrong.status, 400, "{}", wrong.text);
    assert_eq!(wrong.body["fieldErrors"][0]["message"], "Send one text for each segment of the transcript");

    // The owner names the bank the recogniser could not know.
    let mut texts: Vec<Value> = segments.iter().map(|s| json!({"text": s["text"]})).collect();
    let last = texts.len() - 1;
    texts[last] = json!({"text": "I will send the signed contract to Banco Azul tomorrow."});
    let corrected = user.put(&path, json!({"segments": texts}));
    assert_eq!(corrected.status, 200, "{}", corrected.text);
    assert_eq!(corrected.body["corrected"], true);
    assert_eq!(corrected.body["segments"][last]["startMs"], segments[last]["startMs"], "times are kept");
    let client = user.get(&format!("/api/clients/{id}")).body;
    assert!(client["transcription"].as_str().unwrap().contains("Banco Azul"), "{client}");

    assert_eq!(user.post(&format!("/api/clients/{id}/summary/regenerate"), Value::Null).status, 202);
    let client = wait_for_status(&mut user, id, &["done"], Duration::from_secs(60));
    assert!(client["nextSteps"].as_str().unwrap_or("").contains("Banco Azul"), "{client}");

    let undone = user.delete(&format!("{path}/corrections"));
    assert_eq!(undone.status, 200, "{}", undone.text);
    assert_eq!(undone.body["segments"], recognised["segments"]);
    assert_eq!(undone.body["corrected"], false);
    assert_eq!(user.get(&format!("/api/clients/{id}")).body["transcription"], recognised["text"]);
}

#[test]
fn another_users_transcript_cannot_be_read_corrected_undone_or_exported() {
    let app = spawn_app();
    let mut owner = signed_in_user(&app.url, "owner@example.com", PASSWORD);
    let mut stranger = signed_in_user(&app.url, "stranger@example.com", PASSWORD);
    let id = create(&mut owner, "Jane Client");
    let none = owner.get(&format!("/api/clients/{id}/transcript"));
    assert_eq!((none.status, none.body["message"].as_str()), (404, Some("There is no transcript yet")));
    let routes: [(&str, String, Option<Value>); 4] = [
        ("GET", format!("/api/clients/{id}/transcript"), None),
        ("PUT", format!("/api/clients/{id}/transcript"), Some(json!({"segments": []}))),
        ("DELETE", format!("/api/clients/{id}/transcript/corrections"), None),
        ("GET", format!("/api/clients/{id}/transcript/export?format=srt"), None),
    ];
    for (method, path, body) in &routes {
        let reply = stranger.call(method, path, body.clone());
        assert_eq!((reply.status, reply.body["message"].as_str()), (404, Some("Client not found")), "{method} {path}");
        assert_eq!(Browser::new(&app.url).call(method, path, body.clone()).status, 401, "{method} {path}");
    }
}

//! Clients through the HTTP API: ownership, validation, idempotent create,
//! photos, and recordings streamed in and read back by range.

use serde_json::{Value, json};

use crate::browser::{Browser, signed_in_user};
use crate::harness::{client, spawn_app, spawn_app_with, wav_of};

const PASSWORD: &str = "correct horse";
const PNG_1PX: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
/// The opening of a Linux and of a Windows program: what a renamed
/// executable would start with.
pub const ELF: &[u8] = b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x3e\x00\x01\x00\x00\x00";
pub const PE: &[u8] = b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00\xb8\x00\x00\x00PE\x00\x00";

fn client_data(name: &str) -> Value {
    json!({"clientData": {"name": name, "email": "jane@client.example", "phone": "+1 (555) 123-4567", "company": "Globex", "position": "CTO", "userId": 999}})
}

pub fn create(user: &mut Browser, name: &str) -> u64 {
    let reply = user.post("/api/clients", client_data(name));
    assert_eq!(reply.status, 201, "{}", reply.text);
    reply.body["id"].as_u64().unwrap()
}

/// A 16 kHz mono 16-bit WAV of `seconds`, as the recorder makes.
pub fn wav(seconds: f32) -> Vec<u8> {
    wav_of((0..(16_000.0 * seconds) as u32).map(|i| ((i as f32 * 0.05).sin() * 8000.0) as i16))
}

/// Sends `file` as the multipart field `recording`.
pub fn upload(base: &str, cookie: &str, id: u64, file: &[u8]) -> (u16, Value) {
    upload_with(base, cookie, id, file, &[])
}

/// [`upload`] with extra request headers.
pub fn upload_with(base: &str, cookie: &str, id: u64, file: &[u8], headers: &[(&str, &str)]) -> (u16, Value) {
    let boundary = "----debrief-test-boundary";
    let mut body = Vec::new();
    body.extend_from_slice(
        format!("--{boundary}\r\nContent-Disposition: form-data; name=\"userId\"\r\n\r\n1\r\n").as_bytes(),
    );
    body.extend_from_slice(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"recording\"; filename=\"recording.wav\"\r\nContent-Type: audio/wav\r\n\r\n").as_bytes());
    body.extend_from_slice(file);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    let mut req = client()
        .post(format!("{base}/api/clients/{id}/recording"))
        .header("Cookie", format!("debrief_session={cookie}"))
        .header("Origin", base)
        .header("Content-Type", format!("multipart/form-data; boundary={boundary}"));
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    let mut res = req.send(&body[..]).unwrap();
    let status = res.status().as_u16();
    (status, serde_json::from_str(&res.body_mut().read_to_string().unwrap()).unwrap_or(Value::Null))
}

fn get_bytes(base: &str, cookie: &str, path: &str, range: Option<&str>) -> (u16, Vec<u8>, ureq::http::HeaderMap) {
    let mut req = client().get(format!("{base}{path}")).header("Cookie", format!("debrief_session={cookie}"));
    if let Some(range) = range {
        req = req.header("Range", range);
    }
    let mut res = req.call().unwrap();
    let headers = res.headers().clone();
    (res.status().as_u16(), res.body_mut().read_to_vec().unwrap(), headers)
}

#[test]
fn another_users_clients_are_invisible_whatever_user_id_is_sent() {
    let app = spawn_app();
    let mut ana = signed_in_user(&app.url, "ana@example.com", PASSWORD);
    let mut bob = signed_in_user(&app.url, "bob@example.com", PASSWORD);
    let secret = create(&mut ana, "Secret Client");
    ana.post(&format!("/api/clients/{secret}/photo"), json!({"photo": format!("data:image/png;base64,{PNG_1PX}")}));
    let ana_id = ana.get("/api/auth/me").body["id"].as_u64().unwrap();
    let (status, _) = upload(&app.url, ana.cookie.as_deref().unwrap(), secret, &wav(0.5));
    assert_eq!(status, 200);

    for path in [
        format!("/api/clients/{secret}"),
        format!("/api/clients/{secret}?userId={ana_id}"),
        format!("/api/clients/{secret}/photo"),
        format!("/api/clients/{secret}/recording"),
    ] {
        let reply = bob.get(&path);
        assert_eq!(reply.status, 404, "{path}: {}", reply.text);
        assert!(!reply.text.contains("Secret"), "{path}");
    }
    for list in ["/api/clients".to_owned(), format!("/api/clients?userId={ana_id}")] {
        let reply = bob.get(&list);
        assert_eq!(reply.status, 200);
        assert_eq!(reply.body, json!([]), "{list}");
    }
    assert_eq!(
        bob.call("PATCH", &format!("/api/clients/{secret}"), Some(client_data("Hijacked")["clientData"].clone()))
            .status,
        404
    );
    assert_eq!(
        bob.post(&format!("/api/clients/{secret}/photo"), json!({"photo": format!("data:image/png;base64,{PNG_1PX}")}))
            .status,
        404
    );
    assert_eq!(upload(&app.url, bob.cookie.as_deref().unwrap(), secret, &wav(0.2)).0, 404);
    assert_eq!(bob.delete(&format!("/api/clients/{secret}")).status, 404);

    let still = ana.get(&format!("/api/clients/{secret}"));
    assert_eq!(still.body["name"], "Secret Client");
    assert_eq!(still.body["userId"].as_u64(), Some(ana_id), "a userId in the body never sets the owner");
    assert_eq!(ana.get("/api/clients").body.as_array().unwrap().len(), 1);
}

#[test]
fn a_stranger_can_neither_restart_nor_watch_another_users_job() {
    let app = spawn_app();
    let mut ana = signed_in_user(&app.url, "ana@example.com", PASSWORD);
    let mut bob = signed_in_user(&app.url, "bob@example.com", PASSWORD);
    let secret = create(&mut ana, "Secret Client");
    // A recording gives the client a job, so only the owner check can refuse.
    assert_eq!(upload(&app.url, ana.cookie.as_deref().unwrap(), secret, &wav(0.5)).0, 200);

    for (method, path) in [
        ("POST", format!("/api/clients/{secret}/job/retry")),
        ("POST", format!("/api/clients/{secret}/summary/regenerate")),
        ("GET", format!("/api/clients/{secret}/events")),
    ] {
        let body = (method == "POST").then(|| json!({}));
        assert_eq!(bob.call(method, &path, body).status, 404, "{method} {path}");
    }
}

#[test]
fn client_calls_need_a_session() {
    let app = spawn_app();
    let mut anyone = Browser::new(&app.url);
    assert_eq!(anyone.get("/api/clients").status, 401);
    assert_eq!(anyone.post("/api/clients", client_data("Jane Doe")).status, 401);
    assert_eq!(anyone.get("/api/clients/1").status, 401);
}

#[test]
fn every_client_validation_message_reaches_the_form() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "forms@example.com", PASSWORD);
    let vectors: Value = serde_json::from_str(include_str!("../vectors/validation.json")).unwrap();
    for case in vectors["client"]["cases"].as_array().unwrap() {
        let mut input = vectors["client"]["base"].as_object().unwrap().clone();
        for (k, v) in case["set"].as_object().unwrap() {
            input.insert(k.clone(), v.clone());
        }
        let reply = user.post("/api/clients", json!({"clientData": input}));
        let expected = case["errors"].as_object().unwrap();
        let got: serde_json::Map<String, Value> = reply.body["fieldErrors"]
            .as_array()
            .map(|l| l.iter().map(|e| (e["field"].as_str().unwrap().to_owned(), e["message"].clone())).collect())
            .unwrap_or_default();
        assert_eq!(&got, expected, "{}: {}", case["case"], reply.text);
        assert_eq!(reply.status, if expected.is_empty() { 201 } else { 400 }, "{}", case["case"]);
    }
}

#[test]
fn a_retried_create_with_the_same_idempotency_key_makes_one_client() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "retry@example.com", PASSWORD);
    let send = |user: &mut Browser| {
        let res = client()
            .post(format!("{}/api/clients", app.url))
            .header("Cookie", format!("debrief_session={}", user.cookie.clone().unwrap()))
            .header("Origin", &app.url)
            .header("Content-Type", "application/json")
            .header("Idempotency-Key", "3f7c2a9e-retry")
            .send(client_data("Once Only").to_string())
            .unwrap();
        let status = res.status().as_u16();
        let body: Value = serde_json::from_str(&res.into_body().read_to_string().unwrap()).unwrap();
        (status, body["id"].as_u64().unwrap())
    };
    let (first_status, first) = send(&mut user);
    let (second_status, second) = send(&mut user);
    assert_eq!((first_status, second_status), (201, 200));
    assert_eq!(first, second);
    assert_eq!(user.get("/api/clients").body.as_array().unwrap().len(), 1);
}

#[test]
fn the_list_is_newest_first_with_thumbnail_urls_and_short_summaries_never_transcripts() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "list@example.com", PASSWORD);
    let older = create(&mut user, "Older Client");
    let newer = create(&mut user, "Newer Client");
    user.post(&format!("/api/clients/{newer}/photo"), json!({"photo": format!("data:image/png;base64,{PNG_1PX}")}));
    let list = user.get("/api/clients");
    let rows = list.body.as_array().unwrap();
    assert_eq!(rows.iter().map(|r| r["id"].as_u64().unwrap()).collect::<Vec<_>>(), vec![newer, older]);
    let photo = rows[0]["photoUrl"].as_str().unwrap();
    assert!(photo.starts_with(&format!("/api/clients/{newer}/photo?v=")), "{photo}");
    assert!(!list.text.contains("data:image"), "never a data URL in the list");
    assert!(!list.text.contains("transcription"));
}

#[test]
fn the_list_shows_every_change_at_once() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "fresh@example.com", PASSWORD);
    let row = |user: &mut Browser| user.get("/api/clients").body[0].clone();
    assert_eq!(user.get("/api/clients").body, json!([]));
    let id = create(&mut user, "Jane Doe");
    assert_eq!(row(&mut user)["name"], "Jane Doe");

    let mut details = client_data("Jane Smith")["clientData"].clone();
    details["summary"] = json!("Agreed on the pilot.");
    assert_eq!(user.call("PATCH", &format!("/api/clients/{id}"), Some(details)).status, 200);
    let edited = row(&mut user);
    assert_eq!(
        (edited["name"].as_str(), edited["summary"].as_str()),
        (Some("Jane Smith"), Some("Agreed on the pilot."))
    );

    user.post(&format!("/api/clients/{id}/photo"), json!({"photo": format!("data:image/png;base64,{PNG_1PX}")}));
    assert!(row(&mut user)["photoUrl"].is_string());
    assert_eq!(upload(&app.url, user.cookie.as_deref().unwrap(), id, &wav(0.3)).0, 200);
    assert!(row(&mut user)["jobStatus"].is_string(), "the recording's job shows");

    assert_eq!(user.delete(&format!("/api/clients/{id}")).status, 200);
    assert_eq!(user.get("/api/clients").body, json!([]));
}

#[test]
fn the_owner_edits_and_deletes_a_client_with_its_files() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "edit@example.com", PASSWORD);
    let id = create(&mut user, "Jane Doe");
    let mut details = client_data("Jane Smith")["clientData"].clone();
    details["email"] = json!("Jane.Smith@Client.Example");
    let edited = user.call("PATCH", &format!("/api/clients/{id}"), Some(details));
    assert_eq!(edited.status, 200, "{}", edited.text);
    assert_eq!(
        (edited.body["name"].as_str(), edited.body["email"].as_str()),
        (Some("Jane Smith"), Some("jane.smith@client.example"))
    );
    let invalid =
        user.call("PATCH", &format!("/api/clients/{id}"), Some(json!({"name": "", "email": "x", "phone": "1"})));
    assert_eq!(invalid.status, 400);

    let (status, _) = upload(&app.url, user.cookie.as_deref().unwrap(), id, &wav(0.3));
    assert_eq!(status, 200);
    assert_eq!(user.delete(&format!("/api/clients/{id}")).status, 200);
    assert_eq!(user.get(&format!("/api/clients/{id}")).status, 404);
    assert_eq!(user.get(&format!("/api/clients/{id}/recording")).status, 404);
}

#[test]
fn a_recording_is_stored_whole_and_served_by_range() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "audio@example.com", PASSWORD);
    let id = create(&mut user, "Long Meeting");
    let file = wav(40.0); // 1.28 MB: more than one chunk
    let (status, body) = upload(&app.url, user.cookie.as_deref().unwrap(), id, &file);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["size"].as_u64(), Some(file.len() as u64));
    assert_eq!(body["durationMs"].as_u64(), Some(40_000));
    let expected_sha: String = {
        use sha2::Digest;
        sha2::Sha256::digest(&file).iter().map(|b| format!("{b:02x}")).collect()
    };
    assert_eq!(body["sha256"].as_str(), Some(expected_sha.as_str()));

    let detail = user.get(&format!("/api/clients/{id}"));
    let url = detail.body["recordingUrl"].as_str().unwrap().to_owned();
    let cookie = user.cookie.clone().unwrap();
    let (status, whole, headers) = get_bytes(&app.url, &cookie, &url, None);
    assert_eq!(status, 200);
    assert_eq!(whole, file);
    assert_eq!(headers["content-type"], "audio/wav");
    assert_eq!(headers["accept-ranges"], "bytes");

    let (status, part, headers) = get_bytes(&app.url, &cookie, &url, Some("bytes=1048570-1048589"));
    assert_eq!(status, 206);
    assert_eq!(part, file[1_048_570..1_048_590], "a range across the chunk boundary");
    assert_eq!(headers["content-range"], format!("bytes 1048570-1048589/{}", file.len()).as_str());
    let (status, tail, _) = get_bytes(&app.url, &cookie, &url, Some("bytes=-10"));
    assert_eq!((status, tail.as_slice()), (206, &file[file.len() - 10..]));
    let (status, _, headers) = get_bytes(&app.url, &cookie, &url, Some(&format!("bytes={}-", file.len())));
    assert_eq!(status, 416);
    assert_eq!(headers["content-range"], format!("bytes */{}", file.len()).as_str());
}

#[test]
fn a_recording_that_is_not_wav_is_refused_and_leaves_nothing_behind() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "webm@example.com", PASSWORD);
    let id = create(&mut user, "Wrong Format");
    let cookie = user.cookie.clone().unwrap();
    let webm = [&[0x1A, 0x45, 0xDF, 0xA3][..], &[0u8; 5000]].concat();
    assert_eq!(upload(&app.url, &cookie, id, &webm).0, 415);
    assert_eq!(upload(&app.url, &cookie, id, b"<html><script>alert(1)</script></html>").0, 415);
    assert_eq!(upload(&app.url, &cookie, id, &[ELF, &[0u8; 5000]].concat()).0, 415);
    assert_eq!(upload(&app.url, &cookie, id, &[PE, &[0u8; 5000]].concat()).0, 415);
    let mut truncated = wav(1.0);
    truncated.truncate(10_000);
    assert_eq!(upload(&app.url, &cookie, id, &truncated).0, 400);
    assert_eq!(user.get(&format!("/api/clients/{id}")).body["recordingUrl"], Value::Null);
}

#[test]
fn an_oversized_recording_is_refused_with_413_before_it_is_read() {
    let app = spawn_app_with(&["--max-recording", "100000"]);
    let mut user = signed_in_user(&app.url, "big@example.com", PASSWORD);
    let id = create(&mut user, "Big Meeting");

    // Announced as too large: answered from the headers alone, no body sent.
    let status = crate::harness::status_before_body(
        &app.url,
        &format!("/api/clients/{id}/recording"),
        user.cookie.as_deref().unwrap(),
        "multipart/form-data; boundary=x",
        10_000_000,
    );
    assert_eq!(status, 413);

    // Larger than announced: refused while streaming, nothing kept.
    let (status, body) = upload(&app.url, user.cookie.as_deref().unwrap(), id, &wav(4.0));
    assert_eq!(status, 413, "{body}");
    assert!(body["message"].as_str().unwrap().contains("larger than this server accepts"));
    assert_eq!(user.get(&format!("/api/clients/{id}")).body["recordingUrl"], Value::Null);
}

#[test]
fn a_photo_is_checked_by_content_and_served_with_its_type() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "photo@example.com", PASSWORD);
    let id = create(&mut user, "Photo Client");
    let svg = "data:image/png;base64,PHN2ZyB4bWxucz0naHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmcnLz4=";
    assert_eq!(user.post(&format!("/api/clients/{id}/photo"), json!({"photo": svg})).status, 415);
    let saved = user.post(
        &format!("/api/clients/{id}/photo"),
        json!({"photo": format!("data:image/jpeg;base64,{PNG_1PX}"), "userId": 12345}),
    );
    assert_eq!(saved.status, 200, "{}", saved.text);
    let url = saved.body["photoUrl"].as_str().unwrap().to_owned();
    let (status, bytes, headers) = get_bytes(&app.url, user.cookie.as_deref().unwrap(), &url, None);
    assert_eq!(status, 200);
    assert_eq!(headers["content-type"], "image/png");
    assert_eq!(headers["x-content-type-options"], "nosniff");
    assert!(bytes.starts_with(b"\x89PNG"));
}

#[test]
fn markup_in_free_text_is_kept_byte_for_byte() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "markup@example.com", PASSWORD);
    let id = create(&mut user, "Markup Client");
    let markup = "<img src=x onerror=alert(1)> & \"quoted\" <script>x</script>";
    let fields = json!({"name": "Markup Client", "email": "jane@client.example", "phone": "+1 (555) 123-4567", "company": markup, "position": markup, "summary": markup, "nextSteps": markup});
    let patched = user.call("PATCH", &format!("/api/clients/{id}"), Some(fields));
    assert_eq!(patched.status, 200, "{}", patched.text);
    let read = user.get(&format!("/api/clients/{id}"));
    for field in ["company", "position", "summary", "nextSteps"] {
        assert_eq!(read.body[field], markup, "{field}");
    }
}

#[test]
fn every_stored_file_is_served_inert_with_nosniff_and_a_sandbox() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "inert@example.com", PASSWORD);
    let cookie = user.cookie.clone().unwrap();
    let id = create(&mut user, "Inert Client");
    let photo =
        user.post(&format!("/api/clients/{id}/photo"), json!({"photo": format!("data:image/png;base64,{PNG_1PX}")}));
    let picture = user.post("/api/profile/picture", json!({"picture": format!("data:image/png;base64,{PNG_1PX}")}));
    assert_eq!(upload(&app.url, &cookie, id, &wav(0.2)).0, 200);
    let recording = user.get(&format!("/api/clients/{id}"));
    for url in [&photo.body["photoUrl"], &picture.body["profileImageUrl"], &recording.body["recordingUrl"]] {
        let url = url.as_str().expect("a file URL");
        for range in [None, Some("bytes=0-3")] {
            let (status, _, headers) = get_bytes(&app.url, &cookie, url, range);
            assert!(status == 200 || status == 206, "{url}: {status}");
            assert_eq!(headers["x-content-type-options"], "nosniff", "{url}");
            assert_eq!(headers["content-security-policy"], "default-src 'none'; sandbox", "{url}");
        }
    }
}

#[test]
fn photos_on_a_kept_alive_connection_arrive_without_waiting_for_a_delayed_ack() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "quick@example.com", PASSWORD);
    let id = create(&mut user, "Quick Client");
    let saved =
        user.post(&format!("/api/clients/{id}/photo"), json!({"photo": format!("data:image/png;base64,{PNG_1PX}")}));
    let url = format!("{}{}", app.url, saved.body["photoUrl"].as_str().unwrap());
    let agent = client();
    let cookie = format!("debrief_session={}", user.cookie.clone().unwrap());
    let mut times: Vec<_> = (0..21)
        .map(|_| {
            let started = std::time::Instant::now();
            let mut res = agent.get(&url).header("Cookie", &cookie).call().unwrap();
            res.body_mut().read_to_vec().unwrap();
            started.elapsed()
        })
        .collect();
    times.sort();
    // Nagle's algorithm holding the body back for the client's delayed ACK
    // costs 40 ms a photo on Linux; a served photo takes well under 1 ms.
    assert!(times[10] < std::time::Duration::from_millis(20), "median {:?}", times[10]);
}

#[test]
fn a_program_dressed_as_a_client_photo_is_refused() {
    use base64::Engine;
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "program@example.com", PASSWORD);
    let id = create(&mut user, "Program Client");
    for program in [ELF, PE] {
        let photo = format!("data:image/jpeg;base64,{}", base64::engine::general_purpose::STANDARD.encode(program));
        assert_eq!(
            user.post(&format!("/api/clients/{id}/photo"), json!({"photo": photo})).status,
            415,
            "{:?}",
            &program[..2]
        );
    }
}

#[test]
fn chunks_of_an_upload_cut_off_by_a_crash_are_swept_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let store = debrief::store::Store::open(&dir.path().join("debrief.redb")).unwrap();
    let blob = store.begin_blob().unwrap();
    store.append_to_blob(blob, &[7u8; 1000]).unwrap();
    drop(store);

    let mut app = crate::harness::spawn_with(dir.path(), &["--http"]).unwrap();
    assert!(app.printed().contains("removed the chunks of interrupted uploads"), "{}", app.printed());
    assert!(app.terminate().success());
    let store = debrief::store::Store::open(&dir.path().join("debrief.redb")).unwrap();
    assert_eq!(store.sweep_orphans(std::time::Duration::ZERO).unwrap(), 0);
    let left: Vec<_> = std::fs::read_dir(dir.path().join("blobs")).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

//! Storage that lasts: recordings compressed once transcribed, blobs as
//! files beside the database, retention, a full disk, backups with their
//! files, and an older database's blobs moved out while the server serves.

use std::path::Path;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::{Value, json};

use crate::admin::{admin_browser, create_admin};
use crate::browser::{Browser, signed_in_user};
use crate::clients::{create, upload, upload_with};
use crate::crash::{photo, sha};
use crate::harness::{BIN, cli, spawn_with, test_models, text};
use crate::jobs::{models_folder, serve, wait_for_status};
use crate::speech::clips;

const PASSWORD: &str = "correct horse";
const OGG: &str = "audio/ogg";

/// Polls client `id` until `done` holds for it.
pub fn wait_for_client(user: &mut Browser, id: u64, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        let client = user.get(&format!("/api/clients/{id}")).body;
        if done(&client) {
            return client;
        }
        assert!(Instant::now() < deadline, "client {id} never became {what}: {client}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn compressed(client: &Value) -> bool {
    client["recording"]["contentType"] == OGG
}

/// `path` of the app at `base`, read with `user`'s session: status and bytes.
fn fetch(base: &str, user: &Browser, path: &str, range: Option<&str>) -> (u16, Vec<u8>) {
    let mut req = crate::harness::client()
        .get(format!("{base}{path}"))
        .header("Cookie", format!("debrief_session={}", user.cookie.as_deref().unwrap()));
    if let Some(range) = range {
        req = req.header("Range", range);
    }
    let mut res = req.call().unwrap();
    (res.status().as_u16(), res.body_mut().read_to_vec().unwrap())
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase()).collect()
}

fn clip(n: usize) -> Vec<u8> {
    std::fs::read(&clips(&test_models())[n]).unwrap()
}

/// The names of the files in the blob folder of `data`.
fn blob_files(data: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(data.join("blobs"))
        .map(|dir| dir.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn a_transcribed_recording_is_kept_as_ogg_opus_that_plays_back_and_transcribes_alike() {
    let models = models_folder(&["whisper-tiny.en-ct2"]);
    let data = tempfile::tempdir().unwrap();
    let app = serve(data.path(), models.path(), &["--asr", "whisper"]);
    let mut user = signed_in_user(&app.url, "keeper@example.com", PASSWORD);
    let id = create(&mut user, "Ogg Client");
    let wav = clip(0);
    let (status, body) = upload(&app.url, user.cookie.as_deref().unwrap(), id, &wav);
    assert_eq!(status, 200, "{body}");

    let done = wait_for_status(&mut user, id, &["done"], Duration::from_secs(120));
    let heard = done["transcription"].as_str().unwrap().to_owned();
    let client = wait_for_client(&mut user, id, "compressed", compressed);
    let recording = &client["recording"];
    assert_eq!(recording["size"].as_u64(), Some(wav.len() as u64), "the upload's size stays");
    assert_eq!(recording["sha256"].as_str(), Some(sha(&wav).as_str()), "and its checksum");
    let stored = recording["storedSize"].as_u64().unwrap();
    assert!(stored * 8 < wav.len() as u64, "{stored} bytes kept of {}", wav.len());

    let url = client["recordingUrl"].as_str().unwrap();
    let (status, ogg) = fetch(&app.url, &user, url, None);
    assert_eq!((status, &ogg[..4], ogg.len() as u64), (200, &b"OggS"[..], stored));
    let (status, head) = fetch(&app.url, &user, &format!("{url}&as=wav"), Some("bytes=0-43"));
    assert_eq!((status, &head[..4], head.len()), (206, &b"RIFF"[..], 44), "a WAV for browsers without Ogg Opus");
    let (status, upload) = fetch(&app.url, &user, done["recordingUrl"].as_str().unwrap(), None);
    assert_eq!((status, sha(&upload)), (200, sha(&wav)), "a page opened before plays the upload on, by its address");
    assert_eq!(blob_files(data.path()).len(), 2, "the upload is kept a while beside its compressed copy");

    let copy = data.path().join("stored.opus");
    std::fs::write(&copy, &ogg).unwrap();
    let out = std::process::Command::new(BIN)
        .args(["transcribe", "--asr", "whisper", "--models-dir"])
        .arg(models.path())
        .arg(&copy)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(words(&text(&out.stdout)), words(&heard), "the stored copy is heard as the upload was");
}

#[test]
fn retention_removes_the_audio_of_old_recordings_only_and_keeps_their_text() {
    let models = models_folder(&["whisper-tiny.en-ct2"]);
    let data = tempfile::tempdir().unwrap();
    assert!(create_admin(data.path(), "keeper").status.success());
    let app = serve(data.path(), models.path(), &["--asr", "whisper"]);
    let mut user = signed_in_user(&app.url, "owner@example.com", PASSWORD);
    let cookie = user.cookie.clone().unwrap();
    let (old, recent) = (create(&mut user, "Old Meeting"), create(&mut user, "Recent Meeting"));
    let forty_days_ago = (debrief::clock::now_ms() - 40 * 24 * 3600 * 1000).to_string();
    let at = [("X-Recorded-At", forty_days_ago.as_str()), ("X-Time-Zone-Offset", "0")];
    assert_eq!(upload_with(&app.url, &cookie, old, &clip(0), &at).0, 200);
    assert_eq!(upload(&app.url, &cookie, recent, &clip(1)).0, 200);
    for id in [old, recent] {
        wait_for_status(&mut user, id, &["done"], Duration::from_secs(120));
    }
    let old_url = user.get(&format!("/api/clients/{old}")).body["recordingUrl"].as_str().unwrap().to_owned();

    let mut admin = admin_browser(&app.url, "keeper");
    let refused = admin.put("/api/admin/storage", json!({"retentionDays": 0}));
    assert_eq!(refused.status, 400, "{}", refused.text);
    assert!(refused.text.contains("between 1 and 3650 days"), "{}", refused.text);
    let set = admin.put("/api/admin/storage", json!({"retentionDays": 30}));
    assert_eq!((set.status, set.body["retentionDays"].as_u64()), (200, Some(30)), "{}", set.text);

    let gone = wait_for_client(&mut user, old, "without audio", |c| c["recording"]["removedAt"].is_string());
    assert!(gone["recordingUrl"].is_null(), "{gone}");
    assert!(gone["transcription"].as_str().is_some_and(|t| !t.is_empty()), "the transcript stays: {gone}");
    assert!(gone["summary"].is_string() || gone["nextSteps"].is_string() || gone["job"]["status"] == "done", "{gone}");
    assert_eq!(fetch(&app.url, &user, &old_url, None).0, 404, "the audio itself is gone");
    let kept = wait_for_client(&mut user, recent, "compressed", compressed);
    assert!(kept["recording"]["removedAt"].is_null(), "{kept}");
    assert_eq!(fetch(&app.url, &user, kept["recordingUrl"].as_str().unwrap(), None).0, 200);

    let shown = cli(data.path(), &["retention", "show"]);
    assert!(text(&shown.stdout).contains("deleted after 30 days"), "{}{}", text(&shown.stdout), text(&shown.stderr));
    let storage = admin.get("/api/admin/storage").body;
    assert!(
        storage["recordingsBytes"].as_u64().unwrap() > 0 && storage["totalBytes"].as_u64().unwrap() > 0,
        "{storage}"
    );
}

#[test]
fn a_full_disk_refuses_a_recording_cleanly_and_keeps_the_one_before() {
    let data = tempfile::tempdir().unwrap();
    let mut app = spawn_with(data.path(), &["--http"]).unwrap();
    let mut user = signed_in_user(&app.url, "full@example.com", PASSWORD);
    let id = create(&mut user, "Full Disk");
    let first = clip(2);
    assert_eq!(upload(&app.url, user.cookie.as_deref().unwrap(), id, &first).0, 200);
    assert!(app.terminate().success());

    // The real free-space check, with the room it keeps set past any disk.
    let app = spawn_with(data.path(), &["--http", "--min-free-disk", "1000000000000000000"]).unwrap();
    let mut user = Browser::new(&app.url).with_cookie(user.cookie.clone());
    // Refused from its headers, before its body is read: a short one, so
    // that all of it is sent before the server answers and closes.
    let (status, body) = upload(&app.url, user.cookie.as_deref().unwrap(), id, &clip(3)[..2_000]);
    assert_eq!(status, 507, "{body}");
    assert!(body["message"].as_str().is_some_and(|m| m.contains("disk is nearly full")), "{body}");
    let client = user.get(&format!("/api/clients/{id}")).body;
    assert_eq!(client["recording"]["sha256"].as_str(), Some(sha(&first).as_str()), "{client}");
    let (status, kept) = fetch(&app.url, &user, client["recordingUrl"].as_str().unwrap(), None);
    assert_eq!((status, sha(&kept)), (200, sha(&first)), "the recording before, byte for byte");
    assert!(blob_files(data.path()).iter().all(|f| !f.ends_with(".part")), "{:?}", blob_files(data.path()));
}

#[test]
fn a_backup_restores_every_blob_byte_for_byte_and_a_damaged_one_is_refused() {
    let data = tempfile::tempdir().unwrap();
    let mut app = spawn_with(data.path(), &["--http"]).unwrap();
    let mut user = signed_in_user(&app.url, "saver@example.com", PASSWORD);
    let id = create(&mut user, "Backed Up");
    let wav = clip(4);
    assert_eq!(upload(&app.url, user.cookie.as_deref().unwrap(), id, &wav).0, 200);
    let png = photo(&mut StdRng::seed_from_u64(7));
    let photo = user.post(&format!("/api/clients/{id}/photo"), json!({"photo": crate::harness::data_url(&png)}));
    assert_eq!(photo.status, 200, "{}", photo.text);
    let backup = data.path().join("saved.redb");
    let out = cli(data.path(), &["backup", backup.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(app.terminate().success());
    assert_eq!(std::fs::read_dir(data.path().join("saved.blobs")).unwrap().count(), 2, "the recording and the photo");

    let fresh = tempfile::tempdir().unwrap();
    let restored = cli(fresh.path(), &["restore", backup.to_str().unwrap()]);
    assert!(restored.status.success(), "{}", text(&restored.stderr));
    let again = spawn_with(fresh.path(), &["--http"]).unwrap();
    let mut user = Browser::new(&again.url);
    assert_eq!(user.post("/api/auth/login", json!({"email": "saver@example.com", "password": PASSWORD})).status, 200);
    let client = user.get(&format!("/api/clients/{id}")).body;
    let recording = fetch(&again.url, &user, client["recordingUrl"].as_str().unwrap(), None);
    assert_eq!((recording.0, sha(&recording.1)), (200, sha(&wav)), "the recording, byte for byte");
    let photo = fetch(&again.url, &user, client["photoUrl"].as_str().unwrap(), None);
    assert_eq!((photo.0, sha(&photo.1)), (200, sha(&png)), "the photo, byte for byte");
    drop(again);

    let file = std::fs::read_dir(data.path().join("saved.blobs")).unwrap().next().unwrap().unwrap().path();
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[0] ^= 0xff;
    std::fs::write(&file, bytes).unwrap();
    let other = tempfile::tempdir().unwrap();
    let refused = cli(other.path(), &["restore", backup.to_str().unwrap()]);
    assert!(!refused.status.success());
    assert!(text(&refused.stderr).contains("damaged"), "{}", text(&refused.stderr));
    assert!(!other.path().join("debrief.redb").exists(), "nothing was restored");
}

/// Puts the blobs of the database in `data` back inside it, in chunks, as
/// debrief kept them before schema 10, and marks the file schema 9.
fn keep_blobs_inside_as_before(data: &Path) {
    use redb::ReadableTable;
    let metas: redb::TableDefinition<u64, &[u8]> = redb::TableDefinition::new("blob_meta");
    let chunks: redb::TableDefinition<(u64, u32), &[u8]> = redb::TableDefinition::new("blob_chunks");
    let meta: redb::TableDefinition<&str, u64> = redb::TableDefinition::new("meta");
    let db = redb::Database::open(data.join("debrief.redb")).unwrap();
    let tx = db.begin_write().unwrap();
    {
        let mut metas = tx.open_table(metas).unwrap();
        let mut chunks = tx.open_table(chunks).unwrap();
        let ids: Vec<u64> = metas.iter().unwrap().map(|e| e.unwrap().0.value()).collect();
        for id in ids {
            let record: Value = serde_json::from_slice(&metas.get(id).unwrap().unwrap().value()[1..]).unwrap();
            let file = data.join("blobs").join(id.to_string());
            let bytes = std::fs::read(&file).unwrap();
            let pieces: Vec<&[u8]> = bytes.chunks(1 << 20).collect();
            for (i, piece) in pieces.iter().enumerate() {
                chunks.insert((id, i as u32), *piece).unwrap();
            }
            let old = json!({"content_type": record["content_type"], "size": bytes.len(), "chunks": pieces.len()});
            let mut encoded = vec![1u8];
            encoded.extend(serde_json::to_vec(&old).unwrap());
            metas.insert(id, encoded.as_slice()).unwrap();
            std::fs::remove_file(file).unwrap();
        }
        tx.open_table(meta).unwrap().insert("schema_version", 9).unwrap();
    }
    tx.commit().unwrap();
}

#[test]
fn an_older_database_s_blobs_move_out_and_compress_while_serving_even_across_a_kill() {
    let data = tempfile::tempdir().unwrap();
    let mut app = spawn_with(data.path(), &["--http"]).unwrap();
    let mut user = signed_in_user(&app.url, "elder@example.com", PASSWORD);
    let cookie = user.cookie.clone().unwrap();
    let meeting = crate::speech::librivox(&test_models(), 1);
    let mut clients = Vec::new();
    for n in 0..6 {
        let id = create(&mut user, ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"][n]);
        assert_eq!(upload(&app.url, &cookie, id, &meeting).0, 200);
        clients.push(id);
    }
    let png = photo(&mut StdRng::seed_from_u64(11));
    let set =
        user.post(&format!("/api/clients/{}/photo", clients[0]), json!({"photo": crate::harness::data_url(&png)}));
    assert_eq!(set.status, 200, "{}", set.text);
    assert!(app.terminate().success());
    keep_blobs_inside_as_before(data.path());
    assert!(blob_files(data.path()).is_empty());
    let database = || std::fs::metadata(data.path().join("debrief.redb")).unwrap().len();
    let inside = database();
    assert!(inside > 6 * meeting.len() as u64, "the recordings are inside: {inside} bytes");

    let models = models_folder(&["whisper-tiny.en-ct2"]);
    let mut app = serve(data.path(), models.path(), &["--asr", "whisper"]);
    let deadline = Instant::now() + Duration::from_secs(60);
    while !app.printed().contains("compressed or moved out a stored file") {
        assert!(Instant::now() < deadline, "the upkeep never began: {}", app.printed());
        std::thread::sleep(Duration::from_millis(5));
    }
    app.kill();

    let app = serve(data.path(), models.path(), &["--asr", "whisper"]);
    let mut user = Browser::new(&app.url).with_cookie(Some(cookie));
    for &id in &clients {
        let client = wait_for_client(&mut user, id, "transcribed and compressed", |c| {
            compressed(c) && c["job"]["status"] == "done"
        });
        assert!(client["transcription"].as_str().is_some_and(|t| t.contains("Dashwood")), "{client}");
        let (status, ogg) = fetch(&app.url, &user, client["recordingUrl"].as_str().unwrap(), None);
        assert_eq!((status, &ogg[..4]), (200, &b"OggS"[..]));
    }
    let first = user.get(&format!("/api/clients/{}", clients[0])).body;
    let (status, kept) = fetch(&app.url, &user, first["photoUrl"].as_str().unwrap(), None);
    assert_eq!((status, sha(&kept)), (200, sha(&png)), "the photo, byte for byte");
    let mut app = app;
    assert!(app.terminate().success());

    use redb::{ReadableDatabase, ReadableTableMetadata};
    let db = redb::Database::open(data.path().join("debrief.redb")).unwrap();
    let chunks: redb::TableDefinition<(u64, u32), &[u8]> = redb::TableDefinition::new("blob_chunks");
    let left = db.begin_read().unwrap().open_table(chunks).unwrap().len().unwrap();
    assert_eq!(left, 0, "every chunk moved out");
    drop(db);
    let compacted = cli(data.path(), &["compact"]);
    assert!(compacted.status.success(), "{}", text(&compacted.stderr));
    assert!(database() * 4 < inside, "the file is back to its records: {} of {inside} bytes", database());
}

//! The database file and the disk under it: a backup taken while writers
//! are busy, restore and compact only with the server stopped, a backup
//! before each migration, compaction after deletions, and uploads refused
//! before the disk fills.

use serde_json::json;

use super::PASSWORD;
use crate::browser::{Browser, signed_in_user};
use crate::harness::{cli, spawn_app, spawn_app_with, spawn_with, text};

#[test]
fn a_backup_taken_under_write_load_restores_every_acknowledged_write() {
    use rand::SeedableRng;
    let app = spawn_app();
    let base = app.url.clone();
    let mut writer = signed_in_user(&base, "busy@example.com", PASSWORD);
    // Each acknowledged client with the SHA-256 of its photo, and whether a
    // recording (and so a job) came with it.
    let acknowledged = std::sync::Arc::new(std::sync::Mutex::new(Vec::<(u64, String, bool)>::new()));
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let load = {
        let (acknowledged, stop, cookie) = (acknowledged.clone(), stop.clone(), writer.cookie.clone());
        let base = base.clone();
        std::thread::spawn(move || {
            let mut rng = rand::rngs::StdRng::seed_from_u64(7);
            let mut browser = Browser { cookie: cookie.clone(), ..Browser::new(&base) };
            let mut n = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                n += 1;
                let reply = browser.post("/api/clients", json!({"clientData": {"name": format!("Client {}", "x".repeat(n % 5 + 1)), "email": "c@client.example", "phone": "555 123 4567"}}));
                let Some(id) = reply.body["id"].as_u64().filter(|_| reply.status == 201) else { continue };
                let png = crate::crash::photo(&mut rng);
                let photo =
                    browser.post(&format!("/api/clients/{id}/photo"), json!({"photo": crate::harness::data_url(&png)}));
                let recorded = n % 4 == 0
                    && crate::clients::upload(&base, cookie.as_deref().unwrap(), id, &crate::crash::wav(&mut rng, 0.3))
                        .0
                        == 200;
                if photo.status == 200 {
                    acknowledged.lock().unwrap().push((id, crate::crash::sha(&png), recorded));
                }
            }
        })
    };
    std::thread::sleep(std::time::Duration::from_millis(600));
    let before = acknowledged.lock().unwrap().clone();
    let backup = app.data_dir.join("backup.redb");
    let out = cli(&app.data_dir, &["backup", backup.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    std::thread::sleep(std::time::Duration::from_millis(200));
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    load.join().unwrap();
    assert!(before.iter().any(|(_, _, recorded)| *recorded), "photos and recordings were written before the backup");

    let fresh = tempfile::tempdir().unwrap();
    let restored = cli(fresh.path(), &["restore", backup.to_str().unwrap()]);
    assert!(restored.status.success(), "{}", text(&restored.stderr));
    assert!(debrief::store::check_integrity(&fresh.path().join("debrief.redb")).unwrap());
    let again = spawn_with(fresh.path(), &["--http"]).unwrap();
    let mut reader = Browser::new(&again.url);
    assert_eq!(reader.post("/api/auth/login", json!({"email": "busy@example.com", "password": PASSWORD})).status, 200);
    let cookie = format!("debrief_session={}", reader.cookie.clone().unwrap());
    for (id, photo_sha, recorded) in &before {
        let client = reader.get(&format!("/api/clients/{id}"));
        assert_eq!(client.status, 200, "client {id}, acknowledged before the backup, is in it");
        let url = format!("{}{}", again.url, client.body["photoUrl"].as_str().expect("its photo"));
        let mut photo = crate::harness::client().get(&url).header("Cookie", &cookie).call().unwrap();
        assert_eq!(
            &crate::crash::sha(&photo.body_mut().read_to_vec().unwrap()),
            photo_sha,
            "client {id}'s photo, byte for byte"
        );
        if *recorded {
            assert!(client.body["recordingUrl"].is_string(), "client {id}'s recording");
            assert!(client.body["job"].is_object(), "client {id}'s job: {}", client.text);
        }
    }
    assert_eq!(writer.get("/api/auth/me").status, 200, "the server kept serving");
}

#[test]
fn restore_and_compact_refuse_while_the_server_runs() {
    let app = spawn_app();
    for args in [&["compact"][..], &["restore", "/nonexistent.redb"][..]] {
        let out = cli(&app.data_dir, args);
        assert!(!out.status.success());
        assert!(text(&out.stderr).contains("stop the server first"), "{}", text(&out.stderr));
    }
}

#[test]
fn uploads_are_refused_with_507_before_the_disk_fills() {
    let app = spawn_app_with(&["--min-free-disk", "1000000000000000000"]);
    let mut user = signed_in_user(&app.url, "full@example.com", PASSWORD);
    let png = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    let id = user
        .post(
            "/api/clients",
            json!({"clientData": {"name": "Jane Doe", "email": "j@client.example", "phone": "555 123 4567"}}),
        )
        .body["id"]
        .as_u64()
        .unwrap();
    for reply in [
        user.post(&format!("/api/clients/{id}/photo"), json!({"photo": png})),
        user.post("/api/profile/picture", json!({"picture": png})),
    ] {
        assert_eq!(reply.status, 507, "{}", reply.text);
        assert!(reply.text.contains("disk is nearly full"));
        assert!(reply.closes, "the unread upload cannot share its connection with the next call");
    }
    let reads = user.get("/api/auth/me");
    assert_eq!(reads.status, 200, "reads still work");
    assert!(!reads.closes, "answers that read their request keep the connection");
}

#[test]
fn a_migration_backs_the_database_up_first_and_keeps_the_newest_three() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("debrief.redb");
    let meta: redb::TableDefinition<&str, u64> = redb::TableDefinition::new("meta");
    for round in 0..4 {
        drop(debrief::store::Store::open(&path).unwrap());
        // Pretend the file is one schema behind, as after an upgrade.
        let db = redb::Database::create(&path).unwrap();
        let tx = db.begin_write().unwrap();
        tx.open_table(meta).unwrap().insert("schema_version", debrief::store::SCHEMA_VERSION - 1).unwrap();
        tx.commit().unwrap();
        drop(db);
        let store = debrief::store::Store::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), debrief::store::SCHEMA_VERSION);
        let kept = std::fs::read_dir(dir.path().join("backups")).unwrap().count();
        assert_eq!(kept, (round + 1).min(3));
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    for backup in std::fs::read_dir(dir.path().join("backups")).unwrap() {
        assert!(debrief::store::check_integrity(&backup.unwrap().path()).unwrap());
    }
}

#[test]
fn compact_shrinks_the_database_after_deletions() {
    let mut app = spawn_app();
    let mut user = signed_in_user(&app.url, "bulky@example.com", PASSWORD);
    let id = user
        .post(
            "/api/clients",
            json!({"clientData": {"name": "Big Files", "email": "b@client.example", "phone": "555 123 4567"}}),
        )
        .body["id"]
        .as_u64()
        .unwrap();
    for _ in 0..5 {
        let photo = big_png();
        assert_eq!(user.post(&format!("/api/clients/{id}/photo"), json!({"photo": photo})).status, 200);
    }
    assert_eq!(user.delete(&format!("/api/clients/{id}")).status, 200);
    assert!(app.terminate().success());
    let before = std::fs::metadata(app.data_dir.join("debrief.redb")).unwrap().len();
    let out = cli(&app.data_dir, &["compact"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let after = std::fs::metadata(app.data_dir.join("debrief.redb")).unwrap().len();
    assert!(after < before, "{before} → {after}");
    assert!(debrief::store::check_integrity(&app.data_dir.join("debrief.redb")).unwrap());
}

/// A PNG of about 700 KB of noise, as a data URL.
fn big_png() -> String {
    let mut state = 0x2545_f491_u32;
    let pixels: Vec<u8> = (0..(480 * 480 * 3))
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state as u8
        })
        .collect();
    let mut png = Vec::new();
    image::write_buffer_with_format(
        &mut std::io::Cursor::new(&mut png),
        &pixels,
        480,
        480,
        image::ExtendedColorType::Rgb8,
        image::ImageFormat::Png,
    )
    .unwrap();
    crate::harness::data_url(&png)
}

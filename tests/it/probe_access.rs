//! What the outside probe found about access that outlived its grant,
//! reproduced as it was found: files other accounts could read, an event
//! stream that kept talking after its session ended, and a password check
//! that could be guessed at without limit.

use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::browser::{Browser, signed_in_user};
use crate::clients::create;
use crate::harness::{cli, spawn_app, spawn_with, text};

const PASSWORD: &str = "correct horse";

/// Every file and folder under `root` (not `root` itself) with its mode.
fn modes_under(root: &Path) -> Vec<(String, bool, u32)> {
    let mut found = Vec::new();
    let mut pending = vec![root.to_owned()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().map(Result::unwrap) {
            let meta = std::fs::symlink_metadata(entry.path()).unwrap();
            let name = entry.path().strip_prefix(root).unwrap().display().to_string();
            if meta.is_dir() {
                pending.push(entry.path());
            }
            if !meta.file_type().is_symlink() {
                found.push((name, meta.is_dir(), meta.permissions().mode() & 0o777));
            }
        }
    }
    found
}

#[test]
fn in_a_data_directory_of_mode_0755_every_file_is_created_0600_and_every_folder_0700() {
    let parent = tempfile::tempdir().unwrap();
    let data = parent.path().join("shared");
    std::fs::create_dir(&data).unwrap();
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).unwrap();

    // Over HTTPS, so the local certificate authority is written too.
    let mut app = spawn_with(&data, &[]).expect("the server starts");
    app.terminate();
    // Plain HTTP with no mail server: a reset link goes to the outbox.
    let mut app = spawn_with(&data, &["--http"]).expect("the server starts");
    signed_in_user(&app.url, "victim@example.com", PASSWORD);
    assert_eq!(
        Browser::new(&app.url).post("/api/auth/reset-password", json!({"email": "victim@example.com"})).status,
        200
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    while !modes_under(&data).iter().any(|(name, _, _)| name.ends_with(".eml")) {
        assert!(Instant::now() < deadline, "no reset email in the outbox");
        std::thread::sleep(Duration::from_millis(50));
    }
    app.terminate();
    let backup = data.join("backups-by-hand").join("copy.redb");
    std::fs::create_dir(backup.parent().unwrap()).unwrap();
    std::fs::set_permissions(backup.parent().unwrap(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = cli(&data, &["backup", backup.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));

    let created = modes_under(&data);
    for part in ["debrief.redb", "outbox", "tls", "backups-by-hand/copy.redb"] {
        assert!(created.iter().any(|(name, _, _)| name == part), "{part} was not created: {created:?}");
    }
    for (name, is_dir, mode) in created {
        if name == "backups-by-hand" {
            continue; // made by the test, with the mode it was given
        }
        let private = if is_dir { 0o700 } else { 0o600 };
        assert_eq!(mode & !private, 0, "{name} has mode {mode:o}");
    }

    let doctor = text(&cli(&data, &["doctor"]).stdout);
    assert!(doctor.contains("can be read by other accounts") && doctor.contains("chmod 700"), "{doctor}");
}

#[test]
fn an_open_event_stream_closes_within_a_second_of_its_session_ending() {
    let app = spawn_app();
    let mut phone = signed_in_user(&app.url, "stream@example.com", PASSWORD);
    let id = create(&mut phone, "Jane Doe");
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .new_agent();
    let res = agent
        .get(format!("{}/api/clients/{id}/events", app.url))
        .header("Cookie", format!("debrief_session={}", phone.cookie.as_deref().unwrap()))
        .call()
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    assert_eq!(res.headers()["cache-control"], "no-store", "events carry client data");
    let (ended_tx, ended_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = BufReader::new(res.into_body().into_reader()).lines();
        let first = lines.next().and_then(Result::ok);
        assert_eq!(first.as_deref(), Some("event: job"), "the stream starts with the job");
        for line in lines {
            if line.is_err() {
                break;
            }
        }
        let _ = ended_tx.send(Instant::now());
    });
    std::thread::sleep(Duration::from_millis(300));

    let mut laptop = Browser::new(&app.url);
    laptop.post("/api/auth/login", json!({"email": "stream@example.com", "password": PASSWORD}));
    let changed = laptop.put(
        "/api/profile/password",
        json!({"currentPassword": PASSWORD, "password": "a new password", "confirmPassword": "a new password"}),
    );
    assert_eq!(changed.status, 200, "{}", changed.text);
    let signed_out = Instant::now();
    let ended = ended_rx.recv_timeout(Duration::from_secs(5)).expect("the stream ended with its session");
    assert!(
        ended - signed_out < Duration::from_secs(1),
        "the stream lasted {:?} after the session",
        ended - signed_out
    );
    assert_eq!(phone.get(&format!("/api/clients/{id}/events")).status, 401, "and cannot be opened again");
}

#[test]
fn wrong_current_passwords_in_a_password_change_are_throttled_like_sign_in() {
    let app = spawn_app();
    let mut thief = signed_in_user(&app.url, "guessed@example.com", PASSWORD);
    let mut statuses = Vec::new();
    for guess in 0..15 {
        let wrong = format!("guess number {guess}");
        let reply = thief.put(
            "/api/profile/password",
            json!({"currentPassword": wrong, "password": "taken over!", "confirmPassword": "taken over!"}),
        );
        statuses.push(reply.status);
    }
    assert_eq!(statuses.iter().filter(|s| **s == 400).count(), 10, "{statuses:?}");
    assert!(statuses[10..].iter().all(|s| *s == 429), "{statuses:?}");
    let right = thief.put(
        "/api/profile/password",
        json!({"currentPassword": PASSWORD, "password": "taken over!", "confirmPassword": "taken over!"}),
    );
    assert_eq!(right.status, 429, "even the right password waits out the window: {}", right.text);
    assert!(right.text.contains("Please try again in"), "{}", right.text);
}

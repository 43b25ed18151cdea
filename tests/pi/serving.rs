//! The Pi build serving phones: HTTPS with its own authority, the first
//! admin, an account, a client with a photo, a restart, and the defaults a
//! small box needs.

use std::io::Cursor;

use serde_json::json;

use crate::browser::{Browser, sign_in_admin, sign_up_and_in};
use crate::emulator::debrief;
use crate::harness::{TestApp, create_admin_with, data_url, spawn_program, text};

const PASSWORD: &str = "correct horse";

fn serve(data_dir: &std::path::Path) -> TestApp {
    spawn_program(debrief(), data_dir, &[]).unwrap_or_else(|printed| panic!("the Pi build did not start:\n{printed}"))
}

/// A 64×48 picture with a gradient, for the server to decode and check.
fn photo() -> Vec<u8> {
    let picture = image::RgbImage::from_fn(64, 48, |x, y| image::Rgb([(x * 4) as u8, (y * 5) as u8, 128]));
    let mut png = Cursor::new(Vec::new());
    picture.write_to(&mut png, image::ImageFormat::Png).unwrap();
    png.into_inner()
}

/// The names of the process's threads, as the kernel lists them.
fn thread_names(pid: u32) -> Vec<String> {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .unwrap()
        .filter_map(|task| std::fs::read_to_string(task.unwrap().path().join("comm")).ok())
        .map(|name| name.trim().to_owned())
        .collect()
}

#[test]
fn under_emulation_the_pi_build_serves_https_and_keeps_an_admin_an_account_and_a_client_with_a_photo() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = serve(dir.path());
    assert!(app.url.starts_with("https://127.0.0.1:"), "{}", app.url);
    let ca_pem = std::fs::read(dir.path().join("tls/ca.pem")).unwrap();
    let health = Browser::trusting(&app.url, &ca_pem).get("/api/health");
    assert_eq!(health.status, 200, "{}", health.text);
    assert_eq!(health.body["version"], env!("CARGO_PKG_VERSION"));

    // The first admin, made beside the running server through its control socket.
    let made = create_admin_with(debrief(), dir.path(), "pi-admin");
    assert!(made.status.success(), "{}", text(&made.stderr));

    let mut owner = sign_up_and_in(Browser::trusting(&app.url, &ca_pem), "owner@example.com", PASSWORD);
    let created = owner.post(
        "/api/clients",
        json!({"clientData": {"name": "Jane Roe", "email": "jane@client.example", "phone": "+1 555 0100", "company": "Globex", "position": "CTO"}}),
    );
    assert_eq!(created.status, 201, "{}", created.text);
    let id = created.body["id"].as_u64().unwrap();
    let photo = photo();
    let saved = owner.post(&format!("/api/clients/{id}/photo"), json!({"photo": data_url(&photo)}));
    assert_eq!(saved.status, 200, "{}", saved.text);
    let photo_url = saved.body["photoUrl"].as_str().unwrap().to_owned();

    // Everything is still there after a restart.
    assert!(app.terminate().success(), "{}", app.printed());
    let app = serve(dir.path());
    let mut owner = Browser::trusting(&app.url, &ca_pem).with_cookie(owner.cookie);
    let client = owner.get(&format!("/api/clients/{id}"));
    assert_eq!(client.status, 200, "{}", client.text);
    assert_eq!(client.body["name"], "Jane Roe");
    let mut res = owner
        .agent
        .get(format!("{}{photo_url}", app.url))
        .header("Cookie", format!("debrief_session={}", owner.cookie.as_deref().unwrap()))
        .call()
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.body_mut().read_to_vec().unwrap(), photo);

    let mut admin = sign_in_admin(Browser::trusting(&app.url, &ca_pem), "pi-admin");
    let users = admin.get("/api/admin/users");
    assert_eq!(users.status, 200, "{}", users.text);
    assert!(users.text.contains("owner@example.com"), "{}", users.text);
}

#[test]
fn the_pi_build_processes_one_recording_at_a_time_unless_told_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let app = serve(dir.path());
    let workers = thread_names(app.pid()).into_iter().filter(|name| name.starts_with("job-worker")).count();
    assert_eq!(workers, 1, "{:?}", thread_names(app.pid()));
}

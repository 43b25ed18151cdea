//! Administration: server-side admins, their API, and the CLI beside a
//! running server or on the database alone.

use std::process::Command;

use serde_json::json;

use crate::browser::{Browser, sign_in_admin, signed_in_user, signup_form};
use crate::harness::{ADMIN_PASSWORD, BIN, cli, create_admin_with, spawn_app, spawn_app_with, spawn_with, text};

const PASSWORD: &str = "correct horse";

/// `debrief admin create --username NAME --password-stdin`.
pub fn create_admin(data_dir: &std::path::Path, username: &str) -> std::process::Output {
    create_admin_with(Command::new(BIN), data_dir, username)
}

pub fn admin_browser(base: &str, username: &str) -> Browser {
    sign_in_admin(Browser::new(base), username)
}

const ADMIN_ROUTES: [(&str, &str); 18] = [
    ("GET", "/api/admin/users/1/picture"),
    ("GET", "/api/admin/session"),
    ("GET", "/api/admin/users"),
    ("PUT", "/api/admin/users/1"),
    ("DELETE", "/api/admin/users/1"),
    ("GET", "/api/admin/clients"),
    ("PUT", "/api/admin/clients/1"),
    ("DELETE", "/api/admin/clients/1"),
    ("GET", "/api/admin/email-template"),
    ("PUT", "/api/admin/email-template"),
    ("GET", "/api/admin/users"),
    ("GET", "/api/admin/signup-policy"),
    ("PUT", "/api/admin/signup-policy"),
    ("POST", "/api/admin/invitations"),
    ("GET", "/api/admin/insights"),
    ("GET", "/api/admin/storage"),
    ("PUT", "/api/admin/storage"),
    ("GET", "/api/admin/outbox"),
];

#[test]
fn every_admin_route_is_401_for_anyone_and_403_for_a_user_even_one_who_claims_a_role() {
    let app = spawn_app();
    let mut claimer = Browser::new(&app.url);
    let mut form = signup_form("claimer@example.com", PASSWORD);
    form["isAdmin"] = json!(true);
    form["role"] = json!("admin");
    assert_eq!(claimer.post("/api/auth/signup", form).status, 201);
    claimer.post("/api/auth/login", json!({"email": "claimer@example.com", "password": PASSWORD}));
    assert!(claimer.cookie.is_some());
    let mut anyone = Browser::new(&app.url);
    for (method, path) in ADMIN_ROUTES {
        let body = (method != "GET" && method != "DELETE").then(|| json!({}));
        assert_eq!(anyone.call(method, path, body.clone()).status, 401, "{method} {path} anonymous");
        let as_user = claimer.call(method, path, body);
        assert_eq!(as_user.status, 403, "{method} {path} as a user: {}", as_user.text);
    }
}

#[test]
fn an_admin_created_from_the_cli_signs_in_with_the_server_stopped_or_running() {
    let dir = tempfile::tempdir().unwrap();
    // Stopped: the CLI opens the database itself (once it exists).
    let mut first = spawn_with(dir.path(), &["--http"]).unwrap();
    assert!(first.terminate().success());
    let out = create_admin(dir.path(), "offline-admin");
    assert!(out.status.success(), "{}", text(&out.stderr));

    // Running: the CLI goes through the control socket.
    let app = spawn_with(dir.path(), &["--http"]).unwrap();
    let out = create_admin(dir.path(), "online-admin");
    assert!(out.status.success(), "{}", text(&out.stderr));
    for name in ["offline-admin", "online-admin"] {
        let mut admin = admin_browser(&app.url, name);
        assert_eq!(admin.get("/api/admin/session").body["username"], name);
    }
    let listed = text(&cli(dir.path(), &["admin", "list"]).stdout);
    assert!(listed.contains("offline-admin") && listed.contains("online-admin"), "{listed}");
    let again = create_admin(dir.path(), "online-admin");
    assert!(!again.status.success());
    assert!(text(&again.stderr).contains("exists already"));
}

#[test]
fn a_deleted_admins_session_stops_working_at_once() {
    let app = spawn_app();
    assert!(create_admin(&app.data_dir, "leaving").status.success());
    let mut admin = admin_browser(&app.url, "leaving");
    assert_eq!(admin.get("/api/admin/users").status, 200);
    assert!(cli(&app.data_dir, &["admin", "delete", "leaving"]).status.success());
    assert_eq!(admin.get("/api/admin/users").status, 401);
}

#[test]
fn the_admin_session_token_is_never_in_the_login_body() {
    let app = spawn_app();
    assert!(create_admin(&app.data_dir, "quiet").status.success());
    let login =
        Browser::new(&app.url).post("/api/admin/login", json!({"username": "quiet", "password": ADMIN_PASSWORD}));
    let cookie = login.set_cookie.iter().find_map(|c| c.strip_prefix("debrief_admin=")).expect("an admin cookie");
    let token = cookie.split(';').next().unwrap();
    assert!(!token.is_empty() && !login.text.contains(token), "{}", login.text);
}

/// The status the admin cookie a browser had before `end` gets afterwards.
fn old_admin_cookie_after(name: &str, end: impl FnOnce(&mut Browser)) -> u16 {
    let app = spawn_app();
    assert!(create_admin(&app.data_dir, name).status.success());
    let mut admin = admin_browser(&app.url, name);
    let kept = admin.extra_cookie.clone();
    end(&mut admin);
    let mut replay = Browser { extra_cookie: kept, ..Browser::new(&app.url) };
    replay.get("/api/admin/session").status
}

#[test]
fn an_admin_login_ends_the_admin_session_the_browser_had() {
    let status = old_admin_cookie_after("rotating", |admin| {
        admin.post("/api/admin/login", json!({"username": "rotating", "password": ADMIN_PASSWORD}));
    });
    assert_eq!(status, 401);
}

#[test]
fn an_admin_cookie_kept_after_logout_is_worthless() {
    let status = old_admin_cookie_after("outgoing", |admin| {
        admin.post("/api/admin/logout", json!({}));
    });
    assert_eq!(status, 401);
}

#[test]
fn admin_logins_are_throttled_more_strictly_than_users() {
    let app = spawn_app_with(&["--login-window", "60s"]);
    assert!(create_admin(&app.data_dir, "boss").status.success());
    let mut guesser = Browser::new(&app.url);
    for _ in 0..5 {
        assert_eq!(guesser.post("/api/admin/login", json!({"username": "boss", "password": "guess"})).status, 401);
    }
    let blocked = guesser.post("/api/admin/login", json!({"username": "boss", "password": ADMIN_PASSWORD}));
    assert_eq!(blocked.status, 429, "{}", blocked.text);
    let empty = guesser.post("/api/admin/login", json!({"username": "", "password": ""}));
    assert_eq!(empty.status, 400);
    assert!(empty.text.contains("Username is required") && empty.text.contains("Password is required"));
}

#[test]
fn deleting_a_user_removes_everything_of_theirs() {
    let mut app = spawn_app();
    assert!(create_admin(&app.data_dir, "boss").status.success());
    let mut doomed = signed_in_user(&app.url, "doomed@example.com", PASSWORD);
    let mut kept = signed_in_user(&app.url, "kept@example.com", PASSWORD);
    let png = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    let client = doomed.post(
        "/api/clients",
        json!({"clientData": {"name": "Gone Client", "email": "g@client.example", "phone": "555 123 4567"}}),
    );
    let client_id: debrief::domain::ids::ClientId = client.body["id"].to_string().parse().unwrap();
    let photo = doomed.post(&format!("/api/clients/{client_id}/photo"), json!({"photo": png}));
    let photo_blob: u64 = photo.body["photoUrl"].as_str().unwrap().rsplit('=').next().unwrap().parse().unwrap();
    let avatar = doomed.post("/api/profile/picture", json!({"picture": png}));
    let avatar_blob: u64 =
        avatar.body["profileImageUrl"].as_str().unwrap().rsplit('=').next().unwrap().parse().unwrap();
    kept.post(
        "/api/clients",
        json!({"clientData": {"name": "Kept Client", "email": "k@client.example", "phone": "555 123 4567"}}),
    );
    let doomed_id: debrief::domain::ids::UserId = doomed.get("/api/auth/me").body["id"].to_string().parse().unwrap();
    let feed = doomed.post("/api/profile/calendar-feed", json!({})).body["path"].as_str().unwrap().to_owned();

    let mut admin = admin_browser(&app.url, "boss");
    let users = admin.get("/api/admin/users");
    assert_eq!(users.body.as_array().unwrap().len(), 2);
    let picture = users.body.as_array().unwrap().iter().find_map(|u| u["profileImageUrl"].as_str()).unwrap().to_owned();
    assert!(picture.starts_with(&format!("/api/admin/users/{doomed_id}/picture?v=")), "{picture}");
    let res = crate::harness::client()
        .get(format!("{}{picture}", app.url))
        .header("Cookie", admin.extra_cookie.clone().unwrap())
        .call()
        .unwrap();
    assert_eq!((res.status().as_u16(), res.headers()["content-type"].to_str().unwrap()), (200, "image/png"));
    let all = admin.get("/api/admin/clients");
    assert_eq!(all.body.as_array().unwrap().len(), 2);
    assert!(all.text.contains("\"createdByEmail\":\"doomed@example.com\""));
    assert_eq!(admin.delete(&format!("/api/admin/users/{doomed_id}")).status, 200);
    assert_eq!(doomed.get("/api/auth/me").status, 401, "their sessions end");
    assert_eq!(Browser::new(&app.url).get(&feed).status, 404, "their calendar feed ends");
    assert_eq!(admin.get("/api/admin/clients").body.as_array().unwrap().len(), 1);

    assert!(app.terminate().success());
    let path = app.data_dir.join("debrief.redb");
    {
        use redb::ReadableDatabase;
        let db = redb::Database::open(&path).unwrap();
        let tx = db.begin_read().unwrap();
        let blobs = tx.open_table(redb::TableDefinition::<u64, &[u8]>::new("blob_meta")).unwrap();
        assert!(blobs.get(photo_blob).unwrap().is_none(), "the client photo is gone");
        assert!(blobs.get(avatar_blob).unwrap().is_none(), "the profile picture is gone");
    }
    let store = debrief::store::Store::open(&path).unwrap();
    let admin = store.as_admin(&debrief::store::Admin::at_the_console());
    assert!(store.user_by_email("doomed@example.com").unwrap().is_none());
    assert!(admin.for_user(doomed_id).clients().unwrap().is_empty());
    assert!(admin.for_owner_of(client_id).is_err());
    assert_eq!(store.sweep_sessions(i64::MAX).unwrap(), 1, "only the kept user's session is left");
    assert_eq!(admin.all_clients().unwrap().len(), 1);
}

#[test]
fn an_admin_edits_are_validated_like_user_input() {
    let app = spawn_app();
    assert!(create_admin(&app.data_dir, "boss").status.success());
    let mut user = signed_in_user(&app.url, "edited@example.com", PASSWORD);
    let client = user.post(
        "/api/clients",
        json!({"clientData": {"name": "Jane Doe", "email": "j@client.example", "phone": "555 123 4567"}}),
    );
    let client_id: debrief::domain::ids::ClientId = client.body["id"].to_string().parse().unwrap();
    let user_id = user.get("/api/auth/me").body["id"].as_u64().unwrap();
    let mut admin = admin_browser(&app.url, "boss");

    let bad = admin.put(
        &format!("/api/admin/users/{user_id}"),
        json!({"firstName": "A", "lastName": "Lopez", "email": "nope", "company": "Acme", "position": "Partner"}),
    );
    assert_eq!(bad.status, 400);
    assert!(
        bad.text.contains("First name must be at least 2 characters")
            && bad.text.contains("Please enter a valid email")
    );
    let good = admin.put(&format!("/api/admin/users/{user_id}"), json!({"firstName": "Anabel", "lastName": "Lopez", "email": "edited@example.com", "company": "Acme", "position": "Partner"}));
    assert_eq!(good.status, 200, "{}", good.text);
    assert_eq!(user.get("/api/auth/me").body["firstName"], "Anabel");

    let bad = admin.put(
        &format!("/api/admin/clients/{client_id}"),
        json!({"name": "J4ne", "email": "j@client.example", "phone": "555 123 4567"}),
    );
    assert_eq!(bad.status, 400);
    let good = admin.put(&format!("/api/admin/clients/{client_id}"), json!({"name": "Jane Smith", "email": "j@client.example", "phone": "555 123 4567", "company": "Initech", "position": "CEO"}));
    assert_eq!(good.status, 200, "{}", good.text);
    assert_eq!(user.get(&format!("/api/clients/{client_id}")).body["name"], "Jane Smith");
    assert_eq!(admin.delete(&format!("/api/admin/clients/{client_id}")).status, 200);
    assert_eq!(user.get(&format!("/api/clients/{client_id}")).status, 404);
}

#[test]
fn the_template_set_from_the_cli_while_serving_is_what_the_dashboard_reads() {
    let app = spawn_app();
    assert!(create_admin(&app.data_dir, "boss").status.success());
    let mut admin = admin_browser(&app.url, "boss");
    assert_eq!(admin.get("/api/admin/email-template").body["fromName"], "Debrief Support");

    let set = cli(&app.data_dir, &["template", "set", "fromName", "Acme Consulting"]);
    assert!(set.status.success(), "{}", text(&set.stderr));
    assert_eq!(admin.get("/api/admin/email-template").body["fromName"], "Acme Consulting");

    let refused = cli(&app.data_dir, &["template", "set", "emailTitle", ""]);
    assert!(!refused.status.success());
    assert!(text(&refused.stderr).contains("Email title is required"));

    let put = admin.put("/api/admin/email-template", json!({"name": "renamed", "emailTitle": "Notes - [client name]"}));
    assert_eq!(put.status, 200, "{}", put.text);
    assert_eq!(put.body["name"], "default", "the template keeps its name");
    assert_eq!(put.body["fromName"], "Acme Consulting", "fields left out are kept");
    let shown = text(&cli(&app.data_dir, &["template", "show"]).stdout);
    assert!(shown.contains("Notes - [client name]"), "{shown}");
    assert!(cli(&app.data_dir, &["template", "reset"]).status.success());
    assert_eq!(admin.get("/api/admin/email-template").body["emailTitle"], "Meeting Summary - [client name]");
}

#[test]
fn another_sites_page_can_neither_delete_a_client_nor_write_as_an_admin() {
    let app = spawn_app();
    assert!(create_admin(&app.data_dir, "boss").status.success());
    let mut user = signed_in_user(&app.url, "target@example.com", PASSWORD);
    let id = crate::clients::create(&mut user, "Kept Client");
    let mut admin = admin_browser(&app.url, "boss");
    user.origin = Some("https://evil.example.com".into());
    admin.origin = Some("https://evil.example.com".into());
    for reply in [
        user.delete(&format!("/api/clients/{id}")),
        admin.put("/api/admin/email-template", json!({"fromName": "Evil"})),
    ] {
        assert_eq!(reply.status, 403, "{}", reply.text);
        assert!(reply.text.contains("Cross-site request refused"));
    }
    // A browser that leaves Origin out still says where the call came from.
    let cross_site = crate::harness::client()
        .delete(format!("{}/api/clients/{id}", app.url))
        .header("Cookie", format!("debrief_session={}", user.cookie.clone().unwrap()))
        .header("Sec-Fetch-Site", "cross-site")
        .call()
        .unwrap();
    assert_eq!(cross_site.status(), 403);
    user.origin = Some(app.url.clone());
    assert_eq!(user.get(&format!("/api/clients/{id}")).status, 200, "the client is still there");
    admin.origin = Some(app.url.clone());
    assert_eq!(admin.get("/api/admin/email-template").body["fromName"], "Debrief Support");
}

#[test]
fn a_template_header_with_any_line_break_is_refused_and_the_saved_one_kept() {
    let app = spawn_app();
    assert!(create_admin(&app.data_dir, "boss").status.success());
    let mut admin = admin_browser(&app.url, "boss");
    for (field, value, message) in [
        ("fromName", "Acme\rBcc: eve@example.com", "From name contains characters that are not allowed"),
        ("fromName", "Acme\nBcc: eve@example.com", "From name contains characters that are not allowed"),
        ("emailTitle", "Notes\rBcc: eve@example.com", "Email title contains characters that are not allowed"),
        ("emailTitle", "Notes\r\nBcc: eve@example.com", "Email title contains characters that are not allowed"),
    ] {
        let refused = admin.put("/api/admin/email-template", json!({ field: value }));
        assert_eq!(refused.status, 400, "{field} {value:?}: {}", refused.text);
        assert!(refused.text.contains(message), "{}", refused.text);
    }
    let kept = admin.get("/api/admin/email-template");
    assert_eq!(
        (kept.body["fromName"].as_str(), kept.body["emailTitle"].as_str()),
        (Some("Debrief Support"), Some("Meeting Summary - [client name]"))
    );
}

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
fn users_are_listed_and_deleted_from_the_cli_while_serving() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "listed@example.com", PASSWORD);
    user.post(
        "/api/clients",
        json!({"clientData": {"name": "Jane Doe", "email": "j@client.example", "phone": "555 123 4567"}}),
    );
    let listed = text(&cli(&app.data_dir, &["user", "list"]).stdout);
    assert!(listed.contains("listed@example.com") && listed.contains("1 client"), "{listed}");
    let deleted = cli(&app.data_dir, &["user", "delete", "Listed@Example.com"]);
    assert!(deleted.status.success(), "{}", text(&deleted.stderr));
    assert_eq!(user.get("/api/auth/me").status, 401);
    assert!(!text(&cli(&app.data_dir, &["user", "list"]).stdout).contains("listed@example.com"));
}

#[test]
fn serve_tells_how_to_create_the_first_admin_until_there_is_one() {
    let mut app = spawn_app();
    assert!(app.printed().contains("No administrator yet: create one with `debrief admin create"), "{}", app.printed());
    assert!(create_admin(&app.data_dir, "first").status.success());
    assert!(app.terminate().success());
    let again = spawn_with(&app.data_dir, &["--http"]).unwrap();
    assert!(!again.printed().contains("No administrator yet"), "{}", again.printed());
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
fn template_edit_opens_the_editor_and_checks_the_result_before_saving() {
    let app = spawn_app();
    let edit = |script: &str| {
        Command::new(BIN)
            .args(["template", "edit", "--data-dir"])
            .arg(&app.data_dir)
            .env("EDITOR", script)
            .env_remove("VISUAL")
            .output()
            .unwrap()
    };
    let saved = edit("sed -i 's/Debrief Support/Acme Partners/'");
    assert!(saved.status.success(), "{}", text(&saved.stderr));
    assert!(text(&cli(&app.data_dir, &["template", "show"]).stdout).contains("Acme Partners"));

    let emptied = edit(r#"sed -i 's/"emailTitle": "[^"]*"/"emailTitle": ""/'"#);
    assert!(!emptied.status.success());
    assert!(text(&emptied.stderr).contains("Email title is required"), "{}", text(&emptied.stderr));
    let broken = edit("sed -i 's/{/[/'");
    assert!(!broken.status.success());
    assert!(text(&broken.stderr).contains("not valid JSON"));
    let shown = text(&cli(&app.data_dir, &["template", "show"]).stdout);
    assert!(shown.contains("Meeting Summary - [client name]"), "a refused edit changes nothing: {shown}");
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

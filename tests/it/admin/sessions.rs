//! The admin's session cookie and login: the token never in a body, an old
//! cookie worthless after a new login or a logout, and guessing throttled
//! harder than for users.

use serde_json::json;

use super::{admin_browser, create_admin};
use crate::browser::Browser;
use crate::harness::{ADMIN_PASSWORD, spawn_app, spawn_app_with};

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

//! Accounts through the HTTP API: scenarios with the status, what the
//! answer must contain and what it must never contain.

use serde_json::{Value, json};

use crate::browser::{Browser, signed_in_user, signup_form};
use crate::harness::{data_url, spawn_app, spawn_app_with};

const PASSWORD: &str = "correct horse";

/// Never in any answer: a password hash or a password.
fn assert_clean(reply: &crate::browser::Reply) {
    assert!(!reply.text.contains("$argon2"), "a hash leaked: {}", reply.text);
    assert!(!reply.text.contains(PASSWORD), "a password leaked: {}", reply.text);
    assert!(!reply.text.to_lowercase().contains("passwordhash"), "{}", reply.text);
}

struct Scenario {
    name: &'static str,
    method: &'static str,
    path: &'static str,
    body: Option<Value>,
    signed_in: bool,
    status: u16,
    contains: &'static [&'static str],
    absent: &'static [&'static str],
}

#[test]
fn the_account_api_answers_each_scenario_as_specified() {
    let app = spawn_app();
    let mut owner = signed_in_user(&app.url, "owner@example.com", PASSWORD);
    let scenarios = [
        Scenario {
            name: "the session check without a session",
            method: "GET",
            path: "/api/auth/me",
            body: None,
            signed_in: false,
            status: 401,
            contains: &["message"],
            absent: &["owner@example.com"],
        },
        Scenario {
            name: "the session check with a session",
            method: "GET",
            path: "/api/auth/me",
            body: None,
            signed_in: true,
            status: 200,
            contains: &["owner@example.com", "\"firstName\":\"Ana\"", "createdAt", "profileImageUrl"],
            absent: &["$argon2", "password"],
        },
        Scenario {
            name: "a duplicate signup",
            method: "POST",
            path: "/api/auth/signup",
            body: Some(signup_form("OWNER@example.com", PASSWORD)),
            signed_in: false,
            status: 409,
            contains: &["An account with this email already exists"],
            absent: &["$argon2"],
        },
        Scenario {
            name: "a signup that is not JSON",
            method: "POST",
            path: "/api/auth/signup",
            body: Some(json!("just text")),
            signed_in: false,
            status: 400,
            contains: &["message"],
            absent: &[],
        },
        Scenario {
            name: "a wrong password",
            method: "POST",
            path: "/api/auth/login",
            body: Some(json!({"email": "owner@example.com", "password": "wrong horse"})),
            signed_in: false,
            status: 401,
            contains: &["Invalid email or password"],
            absent: &["owner@example.com"],
        },
        Scenario {
            name: "an unknown email",
            method: "POST",
            path: "/api/auth/login",
            body: Some(json!({"email": "nobody@example.com", "password": "wrong horse"})),
            signed_in: false,
            status: 401,
            contains: &["Invalid email or password"],
            absent: &["nobody"],
        },
        Scenario {
            name: "a profile change without a session",
            method: "PUT",
            path: "/api/profile",
            body: Some(json!({"firstName": "Eve"})),
            signed_in: false,
            status: 401,
            contains: &["message"],
            absent: &[],
        },
        Scenario {
            name: "a password change without a session",
            method: "PUT",
            path: "/api/profile/password",
            body: Some(json!({})),
            signed_in: false,
            status: 401,
            contains: &[],
            absent: &[],
        },
        Scenario {
            name: "a picture without a session",
            method: "GET",
            path: "/api/profile/picture",
            body: None,
            signed_in: false,
            status: 401,
            contains: &[],
            absent: &[],
        },
        Scenario {
            name: "a reset request for an unknown email",
            method: "POST",
            path: "/api/auth/reset-password",
            body: Some(json!({"email": "nobody@example.com"})),
            signed_in: false,
            status: 200,
            contains: &["If an account with this email exists"],
            absent: &[],
        },
        Scenario {
            name: "a reset confirmation with a made-up token",
            method: "POST",
            path: "/api/auth/reset-password/confirm",
            body: Some(
                json!({"token": "x".repeat(43), "password": "a new password", "confirmPassword": "a new password"}),
            ),
            signed_in: false,
            status: 400,
            contains: &["This reset link is invalid or has expired"],
            absent: &[],
        },
        Scenario {
            name: "a wrong current password",
            method: "PUT",
            path: "/api/profile/password",
            body: Some(
                json!({"currentPassword": "wrong horse", "password": "a new password", "confirmPassword": "a new password"}),
            ),
            signed_in: true,
            status: 400,
            contains: &["Current password is incorrect", "currentPassword"],
            absent: &[],
        },
        Scenario {
            name: "a picture that is HTML",
            method: "POST",
            path: "/api/profile/picture",
            body: Some(
                json!({"picture": "data:image/png;base64,PGh0bWw+PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0PjwvaHRtbD4="}),
            ),
            signed_in: true,
            status: 415,
            contains: &["JPEG, PNG or WebP"],
            absent: &[],
        },
        Scenario {
            name: "a picture that is a Linux program",
            method: "POST",
            path: "/api/profile/picture",
            body: Some(json!({"picture": data_url(crate::clients::ELF)})),
            signed_in: true,
            status: 415,
            contains: &["JPEG, PNG or WebP"],
            absent: &[],
        },
        Scenario {
            name: "a picture that is a Windows program",
            method: "POST",
            path: "/api/profile/picture",
            body: Some(json!({"picture": data_url(crate::clients::PE)})),
            signed_in: true,
            status: 415,
            contains: &["JPEG, PNG or WebP"],
            absent: &[],
        },
        Scenario {
            name: "a picture whose size cannot be read from its header",
            method: "POST",
            path: "/api/profile/picture",
            // A JPEG's opening bytes and no frame header.
            body: Some(json!({"picture": data_url(&[0xFF, 0xD8, 0xFF, 0xE0, 0, 16, b'J', b'F', b'I', b'F', 0])})),
            signed_in: true,
            status: 415,
            contains: &["cannot be read: its size is not in its header"],
            absent: &[],
        },
        Scenario {
            name: "a picture over the limit",
            method: "POST",
            path: "/api/profile/picture",
            body: Some(json!({"picture": format!("data:image/png;base64,{}", "A".repeat(1_100_000))})),
            signed_in: true,
            status: 413,
            contains: &[],
            absent: &[],
        },
    ];
    for s in scenarios {
        let mut browser = if s.signed_in {
            Browser { cookie: owner.cookie.clone(), ..Browser::new(&app.url) }
        } else {
            Browser::new(&app.url)
        };
        let reply = browser.call(s.method, s.path, s.body.clone());
        assert_eq!(reply.status, s.status, "{}: {}", s.name, reply.text);
        for wanted in s.contains {
            assert!(reply.text.contains(wanted), "{}: {wanted:?} missing from {}", s.name, reply.text);
        }
        for unwanted in s.absent {
            assert!(!reply.text.contains(unwanted), "{}: {unwanted:?} present in {}", s.name, reply.text);
        }
        assert_clean(&reply);
    }
    assert_eq!(owner.get("/api/auth/me").status, 200, "the owner is still signed in");
}

/// Every case of the shared validation table, through the API.
#[test]
fn every_validation_message_reaches_the_client_as_a_field_error() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "vectors@example.com", PASSWORD);
    let vectors: Value = serde_json::from_str(include_str!("../vectors/validation.json")).unwrap();
    let forms = [
        ("signup", "POST", "/api/auth/signup"),
        ("login", "POST", "/api/auth/login"),
        ("profile", "PUT", "/api/profile"),
        ("resetRequest", "POST", "/api/auth/reset-password"),
    ];
    for (form, method, path) in forms {
        for (n, case) in vectors[form]["cases"].as_array().unwrap().iter().enumerate() {
            let mut input = vectors[form]["base"].as_object().unwrap().clone();
            for (k, v) in case["set"].as_object().unwrap() {
                input.insert(k.clone(), v.clone());
            }
            if form == "signup" && !case["set"].as_object().unwrap().contains_key("email") {
                input.insert("email".into(), json!(format!("case{n}@example.com")));
            }
            let reply = user.call(method, path, Some(Value::Object(input)));
            let expected = case["errors"].as_object().unwrap();
            let got: serde_json::Map<String, Value> = reply.body["fieldErrors"]
                .as_array()
                .map(|list| {
                    list.iter().map(|e| (e["field"].as_str().unwrap().to_owned(), e["message"].clone())).collect()
                })
                .unwrap_or_default();
            assert_eq!(&got, expected, "{form}: {} → {}", case["case"], reply.text);
            if expected.is_empty() {
                assert_ne!(reply.status, 400, "{form}: {}", case["case"]);
            } else {
                assert_eq!(reply.status, 400, "{form}: {}", case["case"]);
            }
        }
    }
}

#[test]
fn an_unknown_email_and_a_wrong_password_cannot_be_told_apart() {
    let app = spawn_app();
    signed_in_user(&app.url, "known@example.com", PASSWORD);
    let mut anyone = Browser::new(&app.url);
    let wrong = anyone.post("/api/auth/login", json!({"email": "known@example.com", "password": "wrong horse"}));
    let unknown = anyone.post("/api/auth/login", json!({"email": "unknown@example.com", "password": "wrong horse"}));
    assert_eq!(wrong.status, unknown.status);
    assert_eq!(wrong.text, unknown.text);
    assert_eq!(wrong.set_cookie, unknown.set_cookie);
}

#[test]
fn the_session_cookie_is_http_only_lax_and_scoped_to_the_site() {
    let app = spawn_app();
    let mut browser = Browser::new(&app.url);
    browser.post("/api/auth/signup", signup_form("cookie@example.com", PASSWORD));
    let login = browser.post("/api/auth/login", json!({"email": "cookie@example.com", "password": PASSWORD}));
    let cookie = login.set_cookie.iter().find(|c| c.starts_with("debrief_session=")).expect("a session cookie");
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    assert!(cookie.contains("SameSite=Lax"), "{cookie}");
    assert!(cookie.contains("Path=/"), "{cookie}");
    assert!(!cookie.contains("Secure"), "plain HTTP in tests: {cookie}");
    let token = browser.cookie.clone().unwrap();
    assert!(token.len() >= 22, "at least 128 bits");
    assert!(!login.text.contains(&token), "the token is never in a JSON body");
}

#[test]
fn each_login_gets_a_new_session_and_ends_the_one_the_browser_had() {
    let app = spawn_app();
    let mut browser = signed_in_user(&app.url, "rotate@example.com", PASSWORD);
    let first = browser.cookie.clone().unwrap();
    browser.post("/api/auth/login", json!({"email": "rotate@example.com", "password": PASSWORD}));
    let second = browser.cookie.clone().unwrap();
    assert_ne!(first, second);
    let mut replay = Browser { cookie: Some(first), ..Browser::new(&app.url) };
    assert_eq!(replay.get("/api/auth/me").status, 401);
    assert_eq!(browser.get("/api/auth/me").status, 200);
}

#[test]
fn a_cookie_kept_after_logout_is_worthless() {
    let app = spawn_app();
    let mut browser = signed_in_user(&app.url, "logout@example.com", PASSWORD);
    let kept = browser.cookie.clone();
    let out = browser.post("/api/auth/logout", json!({}));
    assert_eq!(out.status, 200);
    assert!(
        out.set_cookie.iter().any(|c| c.starts_with("debrief_session=;") || c.contains("Max-Age=0")),
        "{:?}",
        out.set_cookie
    );
    let mut replay = Browser { cookie: kept, ..Browser::new(&app.url) };
    assert_eq!(replay.get("/api/auth/me").status, 401);
}

#[test]
fn changing_the_password_signs_out_every_other_browser() {
    let app = spawn_app();
    let mut phone = signed_in_user(&app.url, "change@example.com", PASSWORD);
    let mut laptop = Browser::new(&app.url);
    laptop.post("/api/auth/login", json!({"email": "change@example.com", "password": PASSWORD}));
    assert_eq!(laptop.get("/api/auth/me").status, 200);

    let changed = phone.put(
        "/api/profile/password",
        json!({"currentPassword": PASSWORD, "password": "a new password", "confirmPassword": "a new password"}),
    );
    assert_eq!(changed.status, 200, "{}", changed.text);
    assert_eq!(phone.get("/api/auth/me").status, 200, "the browser that changed it stays signed in");
    assert_eq!(laptop.get("/api/auth/me").status, 401);
    let mut again = Browser::new(&app.url);
    assert_eq!(
        again.post("/api/auth/login", json!({"email": "change@example.com", "password": "a new password"})).status,
        200
    );
    assert_eq!(again.post("/api/auth/login", json!({"email": "change@example.com", "password": PASSWORD})).status, 401);
}

#[test]
fn a_profile_can_change_its_email_only_to_a_free_one_and_that_signs_out_other_browsers() {
    let app = spawn_app();
    signed_in_user(&app.url, "taken@example.com", PASSWORD);
    let mut phone = signed_in_user(&app.url, "mover@example.com", PASSWORD);
    let mut laptop = Browser::new(&app.url);
    laptop.post("/api/auth/login", json!({"email": "mover@example.com", "password": PASSWORD}));
    let profile = |email: &str| json!({"firstName": "Ana", "lastName": "Lopez", "email": email, "company": "Acme", "position": "Partner", "linkedinUrl": ""});

    let taken = phone.put("/api/profile", profile("Taken@Example.com"));
    assert_eq!(taken.status, 409, "{}", taken.text);
    assert_eq!(laptop.get("/api/auth/me").status, 200, "a refused change signs nobody out");

    let moved = phone.put("/api/profile", profile(" Moved@Example.com "));
    assert_eq!(moved.status, 200, "{}", moved.text);
    assert_eq!(moved.body["email"], "moved@example.com", "stored normalised");
    assert_eq!(laptop.get("/api/auth/me").status, 401);
    assert_eq!(phone.get("/api/auth/me").body["email"], "moved@example.com");
    let mut fresh = Browser::new(&app.url);
    assert_eq!(fresh.post("/api/auth/login", json!({"email": "MOVED@example.com", "password": PASSWORD})).status, 200);
}

#[test]
fn a_profile_picture_is_stored_checked_and_read_back() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "picture@example.com", PASSWORD);
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    let set = user.post("/api/profile/picture", json!({"picture": format!("data:image/png;base64,{png}")}));
    assert_eq!(set.status, 200, "{}", set.text);
    let url = set.body["profileImageUrl"].as_str().expect("a picture URL").to_owned();
    assert!(url.starts_with("/api/profile/picture?v="), "{url}");
    assert!(!url.starts_with("data:"));

    let res = crate::harness::client()
        .get(format!("{}{url}", app.url))
        .header("Cookie", format!("debrief_session={}", user.cookie.clone().unwrap()))
        .call()
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "image/png");
    assert!(res.headers()["cache-control"].to_str().unwrap().starts_with("private"));

    let removed = user.delete("/api/profile/picture");
    assert_eq!(removed.body["profileImageUrl"], Value::Null);
    assert_eq!(user.get("/api/profile/picture").status, 404);
}

#[test]
fn a_foreign_origin_cannot_change_anything() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "origin@example.com", PASSWORD);
    user.origin = Some("https://evil.example.com".into());
    let attempts = [
        ("POST", "/api/auth/logout", json!({})),
        ("PUT", "/api/profile", json!({"firstName": "Eve"})),
        ("POST", "/api/auth/login", json!({"email": "origin@example.com", "password": PASSWORD})),
        ("POST", "/api/auth/signup", signup_form("evil@example.com", PASSWORD)),
    ];
    for (method, path, body) in attempts {
        let reply = user.call(method, path, Some(body));
        assert_eq!(reply.status, 403, "{method} {path}: {}", reply.text);
        assert!(reply.text.contains("Cross-site request refused"));
        assert!(reply.closes, "{method} {path}: the unread body closes the connection");
    }
    user.origin = Some(app.url.clone());
    assert_eq!(user.get("/api/auth/me").status, 200, "the session survived");
    user.origin = None;
    assert_eq!(user.post("/api/auth/logout", json!({})).status, 200, "tools without an Origin are not browsers");
}

#[test]
fn repeated_failures_are_throttled_and_a_correct_login_works_once_the_window_passes() {
    let app = spawn_app_with(&["--login-max-failures", "3", "--login-window", "2s"]);
    signed_in_user(&app.url, "throttle@example.com", PASSWORD);
    let mut attacker = Browser::new(&app.url);
    for _ in 0..3 {
        assert_eq!(
            attacker.post("/api/auth/login", json!({"email": "throttle@example.com", "password": "guess"})).status,
            401
        );
    }
    let blocked = attacker.post("/api/auth/login", json!({"email": "throttle@example.com", "password": PASSWORD}));
    assert_eq!(blocked.status, 429, "even the right password waits: {}", blocked.text);
    assert!(blocked.text.contains("Too many failed sign-in attempts"));
    std::thread::sleep(std::time::Duration::from_millis(2100));
    assert_eq!(
        attacker.post("/api/auth/login", json!({"email": "throttle@example.com", "password": PASSWORD})).status,
        200
    );
}

#[test]
fn an_expired_session_is_refused() {
    let app = spawn_app_with(&["--session-ttl", "1s"]);
    let mut user = signed_in_user(&app.url, "short@example.com", PASSWORD);
    assert_eq!(user.get("/api/auth/me").status, 200);
    std::thread::sleep(std::time::Duration::from_millis(1200));
    assert_eq!(user.get("/api/auth/me").status, 401);
}

#[test]
fn a_json_body_announced_over_its_limit_is_refused_before_it_is_sent() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "big@example.com", PASSWORD);
    let id = crate::clients::create(&mut user, "Big Client");
    let cookie = user.cookie.clone().unwrap();
    for (path, length) in [
        ("/api/auth/login".to_owned(), 65 * 1024),
        ("/api/profile/picture".into(), 64 << 20),
        (format!("/api/clients/{id}/photo"), 64 << 20),
    ] {
        assert_eq!(
            crate::harness::status_before_body(&app.url, &path, &cookie, "application/json", length),
            413,
            "{path}"
        );
    }
    assert_eq!(user.get("/api/auth/me").status, 200, "the server goes on serving");
}

//! Forgotten passwords: the emailed link, used once, before it expires.

use std::path::Path;

use serde_json::json;

use crate::browser::{Browser, signed_in_user};
use crate::harness::{spawn_app, spawn_app_with};
use crate::smtp::SmtpServer;

const PASSWORD: &str = "correct horse";

/// An email's text with quoted-printable soft breaks undone.
fn unfold(message: &str) -> String {
    message.replace("=\r\n", "").replace("=\n", "").replace("=3D", "=")
}

/// The reset link in an email.
fn link_in(message: &str) -> String {
    let unfolded = unfold(message);
    let start = unfolded.find("/reset-password?token=").expect("a reset link in the email");
    let token: String = unfolded[start + "/reset-password?token=".len()..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    token
}

fn outbox_messages(data_dir: &Path) -> Vec<String> {
    let Ok(dir) = std::fs::read_dir(data_dir.join("outbox")) else { return Vec::new() };
    dir.filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect()
}

fn wait_for<T>(mut probe: impl FnMut() -> Option<T>) -> T {
    for _ in 0..100 {
        if let Some(found) = probe() {
            return found;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("gave up waiting");
}

fn new_password(token: &str, password: &str) -> serde_json::Value {
    json!({"token": token, "password": password, "confirmPassword": password})
}

#[test]
fn a_reset_sent_through_smtp_sets_a_new_password_from_the_emailed_link() {
    let smtp = SmtpServer::start();
    let app = spawn_app_with(&["--smtp-url", &smtp.url(), "--mail-from", "debrief@example.com"]);
    let mut phone = signed_in_user(&app.url, "reset@example.com", PASSWORD);

    let mut anyone = Browser::new(&app.url);
    assert_eq!(anyone.post("/api/auth/reset-password", json!({"email": "Reset@Example.com"})).status, 200);
    let message = wait_for(|| smtp.messages().into_iter().next());
    assert!(
        message.contains("To: \"Ana Lopez\" <reset@example.com>")
            || message.contains("To: Ana Lopez <reset@example.com>"),
        "{message}"
    );
    assert!(message.contains("X-RcptTo: reset@example.com"), "{message}");
    assert!(message.contains(&format!("{}/reset-password?token=", app.url)), "the link uses the public URL: {message}");
    let token = link_in(&message);

    let done = anyone.post("/api/auth/reset-password/confirm", new_password(&token, "a brand new password"));
    assert_eq!(done.status, 200, "{}", done.text);
    assert_eq!(phone.get("/api/auth/me").status, 401, "every session ends with a reset");
    let signed_in =
        anyone.post("/api/auth/login", json!({"email": "reset@example.com", "password": "a brand new password"}));
    assert_eq!(signed_in.status, 200);
}

#[test]
fn the_emailed_reset_token_is_43_url_safe_characters() {
    let app = spawn_app();
    signed_in_user(&app.url, "strong@example.com", PASSWORD);
    Browser::new(&app.url).post("/api/auth/reset-password", json!({"email": "strong@example.com"}));
    let message = wait_for(|| outbox_messages(&app.data_dir).into_iter().next());
    // Read up to the end of the link, not just its URL-safe part, so that
    // any other character in the token shows.
    let unfolded = unfold(&message);
    let rest =
        &unfolded[unfolded.find("/reset-password?token=").expect("a reset link") + "/reset-password?token=".len()..];
    let token: String = rest.chars().take_while(|c| !c.is_whitespace() && !"\"'<>&".contains(*c)).collect();
    // 43 base64url characters carry 256 random bits.
    assert!(
        token.len() == 43 && token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
        "{token:?}"
    );
}

#[test]
fn the_database_keeps_no_copy_of_a_reset_token() {
    use base64::Engine;
    let mut app = spawn_app();
    signed_in_user(&app.url, "hashed@example.com", PASSWORD);
    Browser::new(&app.url).post("/api/auth/reset-password", json!({"email": "hashed@example.com"}));
    let token = link_in(&wait_for(|| outbox_messages(&app.data_dir).into_iter().next()));
    assert!(app.terminate().success());
    let database = std::fs::read(app.data_dir.join("debrief.redb")).unwrap();
    // Neither the link's text nor the random bytes it encodes.
    let raw = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(&token).unwrap();
    let found = |needle: &[u8]| database.windows(needle.len()).any(|w| w == needle);
    assert!(!found(token.as_bytes()) && !found(&raw), "the token is stored as it was sent");
}

#[test]
fn a_reset_link_works_once() {
    let app = spawn_app();
    signed_in_user(&app.url, "once@example.com", PASSWORD);
    let mut anyone = Browser::new(&app.url);
    anyone.post("/api/auth/reset-password", json!({"email": "once@example.com"}));
    let token = link_in(&wait_for(|| outbox_messages(&app.data_dir).into_iter().next()));
    assert_eq!(anyone.post("/api/auth/reset-password/confirm", new_password(&token, "first new password")).status, 200);
    let second = anyone.post("/api/auth/reset-password/confirm", new_password(&token, "second new password"));
    assert_eq!(second.status, 400);
    assert!(second.text.contains("invalid or has expired"));
}

#[test]
fn an_expired_reset_link_fails() {
    let app = spawn_app_with(&["--reset-ttl", "1s"]);
    signed_in_user(&app.url, "late@example.com", PASSWORD);
    let mut anyone = Browser::new(&app.url);
    anyone.post("/api/auth/reset-password", json!({"email": "late@example.com"}));
    let token = link_in(&wait_for(|| outbox_messages(&app.data_dir).into_iter().next()));
    std::thread::sleep(std::time::Duration::from_millis(1200));
    let late = anyone.post("/api/auth/reset-password/confirm", new_password(&token, "too late password"));
    assert_eq!(late.status, 400);
    assert_eq!(anyone.post("/api/auth/login", json!({"email": "late@example.com", "password": PASSWORD})).status, 200);
}

#[test]
fn a_reset_request_for_an_unknown_email_sends_nothing_and_answers_the_same() {
    let app = spawn_app();
    signed_in_user(&app.url, "exists@example.com", PASSWORD);
    let mut anyone = Browser::new(&app.url);
    let known = anyone.post("/api/auth/reset-password", json!({"email": "exists@example.com"}));
    let unknown = anyone.post("/api/auth/reset-password", json!({"email": "ghost@example.com"}));
    assert_eq!((known.status, &known.text), (unknown.status, &unknown.text));
    wait_for(|| (!outbox_messages(&app.data_dir).is_empty()).then_some(()));
    std::thread::sleep(std::time::Duration::from_millis(300));
    let all = outbox_messages(&app.data_dir);
    assert_eq!(all.len(), 1, "only the known account gets an email");
    assert!(all[0].contains("exists@example.com"));
}

#[test]
fn the_cli_prints_a_working_reset_link_while_the_server_runs_and_when_it_does_not() {
    let mut app = spawn_app();
    signed_in_user(&app.url, "cli@example.com", PASSWORD);

    let out = crate::harness::cli(&app.data_dir, &["user", "reset-password", "CLI@example.com"]);
    assert!(out.status.success(), "{}", crate::harness::text(&out.stderr));
    let link = crate::harness::text(&out.stdout).trim().to_owned();
    assert!(link.starts_with(&format!("{}/reset-password?token=", app.url)), "{link}");
    let mut anyone = Browser::new(&app.url);
    assert_eq!(
        anyone.post("/api/auth/reset-password/confirm", new_password(&link_in(&link), "set from the cli")).status,
        200
    );

    let unknown = crate::harness::cli(&app.data_dir, &["user", "reset-password", "ghost@example.com"]);
    assert!(!unknown.status.success());
    assert!(crate::harness::text(&unknown.stderr).contains("no account"));

    assert!(app.terminate().success());
    let out = crate::harness::cli(
        &app.data_dir,
        &["user", "reset-password", "cli@example.com", "--public-url", "https://debrief.example.com"],
    );
    assert!(out.status.success(), "{}", crate::harness::text(&out.stderr));
    let offline = crate::harness::text(&out.stdout).trim().to_owned();
    assert!(offline.starts_with("https://debrief.example.com/reset-password?token="), "{offline}");

    let again = crate::harness::spawn_with(&app.data_dir, &["--http"]).unwrap();
    let mut anyone = Browser::new(&again.url);
    assert_eq!(
        anyone.post("/api/auth/reset-password/confirm", new_password(&link_in(&offline), "set offline")).status,
        200
    );
    assert_eq!(
        anyone.post("/api/auth/login", json!({"email": "cli@example.com", "password": "set offline"})).status,
        200
    );
}

#[test]
fn the_reset_link_names_the_configured_address_whatever_host_the_request_claims() {
    use std::io::{Read, Write};
    let app = spawn_app_with(&["--public-url", "https://debrief.example.com"]);
    signed_in_user(&app.url, "forged@example.com", PASSWORD);
    let address = app.url.trim_start_matches("http://");
    let body = json!({"email": "forged@example.com"}).to_string();
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    write!(
        stream,
        "POST /api/auth/reset-password HTTP/1.1\r\nHost: evil.example\r\nX-Forwarded-Host: evil.example\r\n\
         X-Forwarded-Proto: http\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let message = unfold(&wait_for(|| outbox_messages(&app.data_dir).into_iter().next()));
    assert!(message.contains("https://debrief.example.com/reset-password?token="), "{message}");
    assert!(!message.contains("evil.example"), "{message}");
}

#[test]
fn a_reset_email_the_mail_server_refuses_is_logged_without_its_token() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let app = spawn_app_with(&["--smtp-url", &format!("smtp://{closed}"), "--mail-from", "debrief@example.com"]);
    signed_in_user(&app.url, "unlucky@example.com", PASSWORD);
    let reply = Browser::new(&app.url).post("/api/auth/reset-password", json!({"email": "unlucky@example.com"}));
    assert_eq!(reply.status, 200, "the answer never depends on the mail server");
    let log = wait_for(|| Some(app.printed()).filter(|p| p.contains("sending a password-reset email")));
    assert!(!log.contains("token="), "{log}");
    // No run of 43 URL-safe characters (a token) anywhere in the log.
    let longest_run =
        log.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_')).map(str::len).max().unwrap_or(0);
    assert!(longest_run < 43, "{log}");
}

#[test]
fn a_flood_of_reset_requests_sends_three_emails_and_answers_every_one_alike() {
    let app = spawn_app();
    signed_in_user(&app.url, "flooded@example.com", PASSWORD);
    let mut anyone = Browser::new(&app.url);
    let answers: Vec<_> =
        (0..6).map(|_| anyone.post("/api/auth/reset-password", json!({"email": "flooded@example.com"}))).collect();
    let unknown = anyone.post("/api/auth/reset-password", json!({"email": "ghost@example.com"}));
    for answer in &answers {
        assert_eq!((answer.status, &answer.text), (unknown.status, &unknown.text), "the limit tells nothing");
    }
    wait_for(|| (outbox_messages(&app.data_dir).len() >= 3).then_some(()));
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(outbox_messages(&app.data_dir).len(), 3, "one inbox gets at most three links while a link lives");
}

#[test]
fn a_reset_link_is_refused_after_a_password_change_and_after_an_email_change() {
    let app = spawn_app();
    let mut owner = signed_in_user(&app.url, "moved@example.com", PASSWORD);
    let mut seen: Vec<String> = Vec::new();
    // Asks for a reset link and returns the one that arrives.
    let mut request_link = || {
        let mut anyone = Browser::new(&app.url);
        assert_eq!(anyone.post("/api/auth/reset-password", json!({"email": "moved@example.com"})).status, 200);
        let link = wait_for(|| outbox_messages(&app.data_dir).iter().map(|m| link_in(m)).find(|l| !seen.contains(l)));
        seen.push(link.clone());
        link
    };
    let try_link = |link: &str, password: &str| {
        Browser::new(&app.url).post("/api/auth/reset-password/confirm", new_password(link, password))
    };

    let before_password_change = request_link();
    let changed = owner.put(
        "/api/profile/password",
        json!({"currentPassword": PASSWORD, "password": "changed by the owner", "confirmPassword": "changed by the owner"}),
    );
    assert_eq!(changed.status, 200, "{}", changed.text);
    let stale = try_link(&before_password_change, "someone else's pw");
    assert_eq!(stale.status, 400, "a link sent before the password change: {}", stale.text);

    let before_email_change = request_link();
    let profile = json!({"firstName": "Ana", "lastName": "Lopez", "email": "elsewhere@example.com", "company": "Acme", "position": "Partner", "linkedinUrl": ""});
    let moved = owner.put("/api/profile", profile);
    assert_eq!(moved.status, 200, "{}", moved.text);
    let stale = try_link(&before_email_change, "someone else's pw");
    assert_eq!(stale.status, 400, "a link sent to the old address: {}", stale.text);

    let login = json!({"email": "elsewhere@example.com", "password": "changed by the owner"});
    assert_eq!(Browser::new(&app.url).post("/api/auth/login", login).status, 200, "the owner's password still works");
}

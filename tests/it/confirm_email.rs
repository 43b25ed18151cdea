//! Sign-up by domain: an account may sign in at once but sends no follow-up
//! and shows no Reply-To until the link mailed to its address is opened; a
//! new address in the profile waits for its own link; the admin and the CLI
//! vouch for an address without one.

use serde_json::json;

use crate::admin::{admin_browser, create_admin};
use crate::browser::{Browser, sign_up_and_in, signed_in_user};
use crate::follow_up::client_with_summary;
use crate::harness::{cli, spawn_app, spawn_app_with, text};
use crate::smtp::SmtpServer;

const PASSWORD: &str = "correct horse";

/// The token of the confirmation link in the one message to `to`.
fn confirmation_token(smtp: &SmtpServer, count: usize, to: &str) -> String {
    let messages = smtp.wait_for(count);
    let message = messages
        .iter()
        .find(|m| m.contains(&format!("X-RcptTo: {to}")) && m.contains("Confirm your email address"))
        .unwrap_or_else(|| panic!("no confirmation for {to} in {messages:?}"));
    let unfolded = message.replace("=\r\n", "").replace("=\n", "").replace("=3D", "=");
    let start = unfolded.find("/confirm-email?token=").expect("a confirmation link") + "/confirm-email?token=".len();
    unfolded[start..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect()
}

fn profile(email: &str) -> serde_json::Value {
    json!({"firstName": "Ana", "lastName": "Silva", "email": email, "company": "Firm", "position": "Partner",
           "linkedinUrl": ""})
}

fn domain_app(smtp: &SmtpServer) -> crate::harness::TestApp {
    let app = spawn_app_with(&["--smtp-url", &smtp.url(), "--mail-from", "debrief@example.com"]);
    let set = cli(&app.data_dir, &["signup", "set", "open", "--domain", "firm.example"]);
    assert!(set.status.success(), "{}", text(&set.stderr));
    app
}

#[test]
fn an_account_signed_up_by_domain_sends_nothing_until_its_address_is_confirmed_by_the_mailed_link() {
    let smtp = SmtpServer::start();
    let app = domain_app(&smtp);
    let mut ana = signed_in_user(&app.url, "ana@firm.example", PASSWORD);
    assert_eq!(ana.get("/api/auth/me").body["emailConfirmed"], false, "signed in at once, not yet confirmed");
    let token = confirmation_token(&smtp, 1, "ana@firm.example");

    let client = client_with_summary(&mut ana);
    let preview = ana.get(&format!("/api/clients/{client}/email"));
    assert_eq!(preview.status, 200, "{}", preview.text);
    assert_eq!(preview.body["replyTo"], "", "no Reply-To from an address nobody has shown to be theirs");
    let refused = ana.post(&format!("/api/clients/{client}/send-email"), json!({}));
    assert_eq!(refused.status, 403, "{}", refused.text);
    assert!(refused.text.contains("confirm your email address"), "{}", refused.text);
    assert_eq!(smtp.messages().len(), 1, "only the confirmation went out");

    let wrong = Browser::new(&app.url).post("/api/auth/confirm-email", json!({"token": "x".repeat(43)}));
    assert_eq!(wrong.status, 400, "{}", wrong.text);
    let confirmed = Browser::new(&app.url).post("/api/auth/confirm-email", json!({"token": token}));
    assert_eq!(confirmed.status, 200, "{}", confirmed.text);
    let again = Browser::new(&app.url).post("/api/auth/confirm-email", json!({"token": token}));
    assert_eq!(again.status, 400, "a link works once: {}", again.text);

    assert_eq!(ana.get("/api/auth/me").body["emailConfirmed"], true);
    assert_eq!(ana.get(&format!("/api/clients/{client}/email")).body["replyTo"], "ana@firm.example");
    let sent = ana.post(&format!("/api/clients/{client}/send-email"), json!({}));
    assert_eq!(sent.status, 200, "{}", sent.text);
    let follow_up = smtp.wait_for(2).into_iter().find(|m| m.contains("X-RcptTo: jane@client.example")).unwrap();
    assert!(follow_up.contains("Reply-To:") && follow_up.contains("ana@firm.example"), "{follow_up}");
}

#[test]
fn without_domains_in_the_policy_an_account_is_confirmed_from_the_start() {
    let smtp = SmtpServer::start();
    let app = spawn_app_with(&["--smtp-url", &smtp.url(), "--mail-from", "debrief@example.com"]);
    let mut ana = signed_in_user(&app.url, "ana@anywhere.example", PASSWORD);
    assert_eq!(ana.get("/api/auth/me").body["emailConfirmed"], true);
    let moved = ana.put("/api/profile", profile("ana@elsewhere.example"));
    assert_eq!(moved.body["email"], "ana@elsewhere.example", "the spec's flow: the change is made at once");
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(smtp.messages().is_empty(), "no link is mailed");
}

#[test]
fn a_new_address_in_the_profile_takes_effect_only_when_its_link_is_opened() {
    let smtp = SmtpServer::start();
    let app = domain_app(&smtp);
    let mut ana = signed_in_user(&app.url, "ana@firm.example", PASSWORD);
    let first = confirmation_token(&smtp, 1, "ana@firm.example");
    assert_eq!(Browser::new(&app.url).post("/api/auth/confirm-email", json!({"token": first})).status, 200);

    let outside = ana.put("/api/profile", profile("ana@elsewhere.example"));
    assert_eq!(outside.status, 400, "the policy holds for a new address: {}", outside.text);
    let asked = ana.put(
        "/api/profile",
        json!({"firstName": "Anabel", "lastName": "Silva", "email": "anabel@firm.example",
                                                "company": "Firm", "position": "Partner", "linkedinUrl": ""}),
    );
    assert_eq!(asked.status, 200, "{}", asked.text);
    assert_eq!(asked.body["email"], "ana@firm.example", "the address waits for its link");
    assert_eq!(asked.body["pendingEmail"], "anabel@firm.example");
    assert_eq!(asked.body["firstName"], "Anabel", "the rest of the form is saved at once");
    let token = confirmation_token(&smtp, 2, "anabel@firm.example");

    let mut laptop = Browser::new(&app.url);
    let signed = laptop.post("/api/auth/login", json!({"email": "ana@firm.example", "password": PASSWORD}));
    assert_eq!(signed.status, 200, "the old address still signs in meanwhile");
    let done = ana.post("/api/auth/confirm-email", json!({"token": token}));
    assert_eq!(done.status, 200, "{}", done.text);
    let me = ana.get("/api/auth/me");
    assert_eq!((me.body["email"].as_str(), me.body["pendingEmail"].is_null()), (Some("anabel@firm.example"), true));
    assert_eq!(laptop.get("/api/auth/me").status, 401, "the change signs the other browsers out");
    let old =
        Browser::new(&app.url).post("/api/auth/login", json!({"email": "ana@firm.example", "password": PASSWORD}));
    assert_eq!(old.status, 401);
}

#[test]
fn an_admin_edit_and_the_cli_vouch_for_an_address_and_the_outbox_lists_the_links() {
    let app = spawn_app();
    let set = cli(&app.data_dir, &["signup", "set", "open", "--domain", "firm.example"]);
    assert!(set.status.success(), "{}", text(&set.stderr));
    let mut ana = sign_up_and_in(Browser::new(&app.url), "ana@firm.example", PASSWORD);
    let mut ben = sign_up_and_in(Browser::new(&app.url), "ben@firm.example", PASSWORD);
    assert_eq!(ana.get("/api/auth/me").body["emailConfirmed"], false);

    create_admin(&app.data_dir, "root");
    let mut admin = admin_browser(&app.url, "root");
    let mut outbox = json!([]);
    for _ in 0..100 {
        outbox = admin.get("/api/admin/outbox").body;
        if outbox.as_array().is_some_and(|lines| lines.len() == 2) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let lines = outbox.as_array().expect("the outbox as a list");
    assert_eq!(lines.len(), 2, "{outbox}");
    assert!(lines.iter().all(|l| l["subject"] == "Confirm your email address for Debrief"), "{outbox}");
    assert!(lines.iter().all(|l| l["result"].as_str().is_some_and(|r| r.starts_with("outbox: "))), "{outbox}");

    let id = ana.get("/api/auth/me").body["id"].as_u64().unwrap();
    let edited = admin.put(
        &format!("/api/admin/users/{id}"),
        json!({"firstName": "Ana", "lastName": "Silva",
        "email": "ana@firm.example", "company": "Firm", "position": "Partner"}),
    );
    assert_eq!(edited.status, 200, "{}", edited.text);
    assert_eq!(ana.get("/api/auth/me").body["emailConfirmed"], true, "the admin's edit vouches for the address");

    let vouched = cli(&app.data_dir, &["user", "confirm-email", "ben@firm.example"]);
    assert!(vouched.status.success(), "{}", text(&vouched.stderr));
    assert!(text(&vouched.stdout).contains("the address ben@firm.example is confirmed"), "{}", text(&vouched.stdout));
    assert_eq!(ben.get("/api/auth/me").body["emailConfirmed"], true);
    assert!(
        app.printed().contains("an administrator") && app.printed().contains("confirmed the address"),
        "both are logged: {}",
        app.printed()
    );
}

#[test]
fn the_link_can_be_sent_again_but_not_to_a_confirmed_address() {
    let smtp = SmtpServer::start();
    let app = domain_app(&smtp);
    let mut ana = signed_in_user(&app.url, "ana@firm.example", PASSWORD);
    smtp.wait_for(1);
    let again = ana.post("/api/profile/confirm-email", json!({}));
    assert_eq!(again.status, 200, "{}", again.text);
    let token = confirmation_token(&smtp, 2, "ana@firm.example");
    assert_eq!(Browser::new(&app.url).post("/api/auth/confirm-email", json!({"token": token})).status, 200);
    let none = ana.post("/api/profile/confirm-email", json!({}));
    assert_eq!(none.status, 400, "{}", none.text);
}

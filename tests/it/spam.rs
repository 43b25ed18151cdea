//! What a receiver's spam filter makes of our emails: SpamAssassin (Debian's
//! `spamassassin`, stock rules, local tests only) on a follow-up and a reset
//! email exactly as they reached a real SMTP server.

use serde_json::json;

use crate::browser::{Browser, signed_in_user};
use crate::follow_up::client_with_summary;
use crate::harness::spawn_app_with;
use crate::smtp::SmtpServer;

/// Most of a point is already the mark of a message receivers frown at.
const MAX_SCORE: f64 = 0.5;

/// What SpamAssassin says of one message.
struct Verdict {
    score: f64,
    rules: Vec<String>,
    report: String,
}

fn spamassassin(raw: &str) -> Verdict {
    use std::io::Write;
    // Its per-user files (Bayes, auto-whitelist) go to a home of their own.
    let home = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new("spamassassin")
        .args(["-t", "-L"])
        .env("HOME", home.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run spamassassin ({e}); scripts/install-system-packages installs it"));
    child.stdin.take().unwrap().write_all(raw.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let checked = String::from_utf8_lossy(&out.stdout).into_owned();
    let mail = mailparse::parse_mail(checked.as_bytes()).unwrap();
    let status = mail
        .headers
        .iter()
        .find(|h| h.get_key().eq_ignore_ascii_case("X-Spam-Status"))
        .map(|h| h.get_value())
        .unwrap_or_else(|| {
            panic!("no X-Spam-Status from spamassassin:\n{checked}\n{}", String::from_utf8_lossy(&out.stderr))
        });
    let field = |name: &str| {
        status.split_whitespace().find_map(|w| w.strip_prefix(name)).unwrap_or_else(|| panic!("no {name} in {status}"))
    };
    let score = field("score=").parse().unwrap();
    let rules = field("tests=").split(',').map(str::to_owned).filter(|r| !r.is_empty() && r != "none").collect();
    Verdict { score, rules, report: checked }
}

/// Rules about broken or forged headers: none may fire on our mail.
fn header_rules(rules: &[String]) -> Vec<&String> {
    rules
        .iter()
        .filter(|r| {
            r.starts_with("MISSING_") || r.contains("FORGED") || r.starts_with("DATE_") || r.starts_with("MSGID_")
        })
        .collect()
}

fn assert_clean(what: &str, raw: &str) {
    let verdict = spamassassin(raw);
    println!("{what}: score {} ({})", verdict.score, verdict.rules.join(", "));
    assert!(
        header_rules(&verdict.rules).is_empty(),
        "{what} hits header rules {:?}:\n{}",
        verdict.rules,
        verdict.report
    );
    assert!(verdict.score <= MAX_SCORE, "{what} scores {} > {MAX_SCORE}:\n{}", verdict.score, verdict.report);
}

fn server(smtp: &SmtpServer) -> crate::harness::TestApp {
    spawn_app_with(&[
        "--smtp-url",
        &smtp.url(),
        "--mail-from",
        "debrief@consulting.example.com",
        "--public-url",
        "https://debrief.consulting.example.com",
    ])
}

#[test]
fn a_follow_up_email_passes_spamassassin_without_a_header_rule() {
    let smtp = SmtpServer::start();
    let app = server(&smtp);
    let mut ana = signed_in_user(&app.url, "ana@consulting.example.com", "correct horse");
    let id = client_with_summary(&mut ana);
    assert_eq!(ana.post(&format!("/api/clients/{id}/send-email"), json!({})).status, 200);
    assert_clean("the follow-up", &smtp.wait_for(1)[0]);
}

#[test]
fn a_reset_email_passes_spamassassin_without_a_header_rule() {
    let smtp = SmtpServer::start();
    let app = server(&smtp);
    signed_in_user(&app.url, "ana@consulting.example.com", "correct horse");
    let reset = Browser::new(&app.url).post("/api/auth/reset-password", json!({"email": "ana@consulting.example.com"}));
    assert_eq!(reset.status, 200);
    assert_clean("the reset email", &smtp.wait_for(1)[0]);
}

#[test]
fn the_header_rule_families_are_recognised_by_name() {
    let rules: Vec<String> = [
        "MISSING_MID",
        "FORGED_MUA_OUTLOOK",
        "HDR_FORGED_X",
        "DATE_IN_PAST_03_06",
        "MSGID_FROM_MTA_HEADER",
        "HTML_MESSAGE",
    ]
    .map(String::from)
    .to_vec();
    let hit: Vec<&str> = header_rules(&rules).into_iter().map(String::as_str).collect();
    assert_eq!(
        hit,
        ["MISSING_MID", "FORGED_MUA_OUTLOOK", "HDR_FORGED_X", "DATE_IN_PAST_03_06", "MSGID_FROM_MTA_HEADER"]
    );
}

//! The summary email template, set from the dashboard, the CLI or an
//! editor: every way in is validated, a header cannot smuggle in a line
//! break, and a refused edit keeps what was saved.

use std::process::Command;

use serde_json::json;

use super::{admin_browser, create_admin};
use crate::harness::{BIN, cli, spawn_app, text};

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

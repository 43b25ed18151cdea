//! One server per data directory, the CLI beside it, and a clean stop.

use crate::harness::{cli, client, spawn_app, spawn_app_with, spawn_with, text};

#[test]
fn a_second_server_on_the_same_data_dir_refuses_and_names_the_first() {
    let app = spawn_app();
    let err = spawn_with(&app.data_dir, &["--http"]).err().expect("the second server must not start");
    assert!(err.contains("already running"), "{err}");
    assert!(err.contains(&format!("pid {}", app.pid())), "{err}");
    assert!(err.contains(&app.url), "{err}");

    let second = cli(&app.data_dir, &["serve", "--http", "--bind", "127.0.0.1:0"]);
    assert!(!second.status.success());
    // The first one keeps serving.
    assert_eq!(client().get(format!("{}/api/health", app.url)).call().unwrap().status(), 200);
}

#[test]
fn the_lock_is_released_when_the_server_is_killed_outright() {
    let app = spawn_app();
    let data_dir = app.data_dir.clone();
    crate::harness::signal(app.pid(), "KILL");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let again = spawn_with(&data_dir, &["--http"]).expect("a new server starts after kill -9");
    assert_eq!(client().get(format!("{}/api/health", again.url)).call().unwrap().status(), 200);
    drop(app);
}

#[test]
fn sigterm_stops_the_server_cleanly_and_frees_the_data_dir() {
    let mut app = spawn_app();
    let data_dir = app.data_dir.clone();
    let status = app.terminate();
    assert!(status.success(), "exit status {status:?}");
    assert!(!data_dir.join("control.sock").exists());
    spawn_with(&data_dir, &["--http"]).expect("the data dir is free again");
}

#[test]
fn doctor_reports_through_the_control_socket_while_the_server_runs() {
    let app = spawn_app();
    let out = cli(&app.data_dir, &["doctor"]);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}{}", text(&out.stderr));
    assert!(report.contains("running"), "{report}");
    assert!(report.contains(&format!("pid {}", app.pid())), "{report}");
    assert!(report.contains("through the running server"), "{report}");
    assert!(report.lines().any(|l| l.starts_with("disk") && l.contains("MB free")), "{report}");
}

/// Doctor's `mail` line.
fn mail_line(report: &str) -> &str {
    report.lines().find(|l| l.starts_with("mail ")).unwrap_or_else(|| panic!("no mail line in:\n{report}"))
}

#[test]
fn a_sender_receivers_cannot_check_is_warned_about_at_start_and_by_doctor() {
    let app = spawn_app();
    let banner = app.printed();
    assert!(
        banner
            .lines()
            .any(|l| l.trim_start().starts_with("warning:") && l.contains("no --mail-from") && l.contains("SPF")),
        "{banner}"
    );
    let report = text(&cli(&app.data_dir, &["doctor"]).stdout);
    let line = mail_line(&report);
    assert!(line.contains("warning") && line.contains("set --mail-from"), "{line}");

    let public = spawn_app_with(&["--mail-from", "debrief@example.com"]);
    assert!(!public.printed().contains("warning:"), "{}", public.printed());
    let report = text(&cli(&public.data_dir, &["doctor"]).stdout);
    assert_eq!(
        mail_line(&report).split_whitespace().collect::<Vec<_>>(),
        ["mail", "ok", "sender", "debrief@example.com"]
    );
}

#[test]
fn without_a_server_doctor_checks_the_sender_it_is_given() {
    let dir = tempfile::tempdir().unwrap();
    let report = text(&cli(dir.path(), &["doctor", "--mail-from", "debrief@nas.lan"]).stdout);
    let line = mail_line(&report);
    assert!(line.contains("warning") && line.contains("nas.lan is not a public domain"), "{line}");
    let report = text(&cli(dir.path(), &["doctor", "--mail-from", "debrief@example.com"]).stdout);
    assert!(mail_line(&report).contains("ok"), "{report}");
}

#[test]
fn doctor_opens_the_database_itself_when_no_server_runs() {
    let mut app = spawn_app();
    let data_dir = app.data_dir.clone();
    assert!(app.terminate().success());
    let out = cli(&data_dir, &["doctor"]);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}{}", text(&out.stderr));
    assert!(report.contains("stopped"), "{report}");
    assert!(
        report.lines().any(|l| l.starts_with("database")
            && l.contains("ok")
            && l.contains(&format!("schema {}", debrief::store::SCHEMA_VERSION))),
        "{report}"
    );
}

#[test]
fn the_control_socket_and_lock_are_private_to_the_owner() {
    use std::os::unix::fs::PermissionsExt;
    let app = spawn_app();
    let mode = std::fs::metadata(app.data_dir.join("control.sock")).unwrap().permissions().mode();
    assert_eq!(mode & 0o077, 0, "socket mode {mode:o}");
}

#[test]
fn invalid_configuration_exits_non_zero_with_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = cli(dir.path(), &["serve", "--bind", "not-an-address"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("--bind"), "{err}");

    let out = cli(dir.path(), &["serve", "--tls-cert", "/nonexistent.pem"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("--tls-key"), "{}", text(&out.stderr));
}

#[test]
fn a_port_already_taken_is_reported_not_panicked_over() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    let out = cli(dir.path(), &["serve", "--http", "--bind", &format!("127.0.0.1:{port}")]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("cannot listen on"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn every_subcommand_takes_the_data_dir_from_the_environment() {
    let app = spawn_app();
    let out = std::process::Command::new(crate::harness::BIN)
        .arg("doctor")
        .env("DEBRIEF_DATA_DIR", &app.data_dir)
        .output()
        .unwrap();
    assert!(text(&out.stdout).contains(&format!("pid {}", app.pid())), "{}", text(&out.stdout));
}

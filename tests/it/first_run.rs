//! A fresh box, set up by script before its first `serve`: the admin CLI on
//! an empty data directory, and what `serve` and `doctor` say there.

use std::fs::{File, OpenOptions};

use crate::admin::{admin_browser, create_admin};
use crate::harness::{cli, spawn_with, text};

#[test]
fn a_new_data_directory_takes_an_admin_and_a_template_before_the_first_serve_and_the_admin_then_signs_in() {
    let temp = tempfile::tempdir().unwrap();
    let data_dir = temp.path().join("fresh");
    let models = temp.path().join("no-models");

    let created = create_admin(&data_dir, "root");
    assert!(created.status.success(), "{}", text(&created.stderr));
    let set = cli(&data_dir, &["template", "set", "fromName", "Acme"]);
    assert!(set.status.success(), "{}", text(&set.stderr));
    let shown = cli(&data_dir, &["template", "show"]);
    assert!(shown.status.success(), "{}", text(&shown.stderr));
    let template: serde_json::Value = serde_json::from_slice(&shown.stdout).unwrap();
    assert_eq!(template["fromName"], "Acme", "{template}");
    let users = cli(&data_dir, &["user", "list"]);
    assert!(users.status.success() && users.stdout.is_empty(), "{}", text(&users.stderr));
    let backup = temp.path().join("before-serve.redb");
    let backed_up = cli(&data_dir, &["backup", backup.to_str().unwrap()]);
    assert!(backed_up.status.success() && backup.is_file(), "{}", text(&backed_up.stderr));

    let app = spawn_with(&data_dir, &["--http", "--models-dir", models.to_str().unwrap()]).expect("serve starts");

    let printed = app.printed();
    assert!(!printed.contains("No administrator yet"), "{printed}");
    let hints: Vec<&str> = printed.lines().filter(|l| l.contains("No speech model yet")).collect();
    assert_eq!(hints.len(), 1, "said once: {printed}");
    let command = format!("debrief models install --recommended --data-dir {}", data_dir.display());
    assert!(hints[0].contains(&format!("{command} --models-dir {}", models.display())), "{}", hints[0]);
    let mut admin = admin_browser(&app.url, "root");
    assert_eq!(admin.get("/api/admin/email-template").body["fromName"], "Acme");
}

#[test]
fn an_admin_command_refuses_a_data_directory_whose_lock_another_process_holds() {
    let temp = tempfile::tempdir().unwrap();
    // The lock a starting server takes before it opens the database (a
    // fake: the window in which a real server holds it silently is too
    // short to hit).
    let lock = OpenOptions::new().create(true).truncate(false).write(true).open(temp.path().join("debrief.lock"));
    let lock: File = lock.unwrap();
    lock.try_lock().unwrap();

    let created = create_admin(temp.path(), "root");

    assert_eq!(created.status.code(), Some(1));
    assert!(text(&created.stderr).contains("holds"), "{}", text(&created.stderr));
    assert!(!temp.path().join("debrief.redb").exists(), "the database is not created under another's lock");
    drop(lock);
    let created = create_admin(temp.path(), "root");
    assert!(created.status.success(), "{}", text(&created.stderr));
}

#[test]
fn doctor_on_a_new_data_directory_ends_every_line_and_names_how_to_create_it() {
    let temp = tempfile::tempdir().unwrap();
    let data_dir = temp.path().join("fresh");

    let out = cli(&data_dir, &["doctor", "--models-dir", temp.path().join("models").to_str().unwrap()]);

    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.ends_with('\n') && out.stderr.is_empty(), "{report:?} {:?}", text(&out.stderr));
    let last = report.lines().last().unwrap();
    assert!(last.starts_with("data dir") && last.contains("debrief admin create"), "{last}");
    assert!(report.contains("debrief models install --recommended"), "{report}");
    // The int8 kernel this processor runs is named once it gave the portable sums.
    let kernels = report.lines().find(|l| l.starts_with("kernels")).unwrap_or_default();
    assert!(kernels.contains(" ok ") && kernels.contains("(checked)"), "{report}");
    assert!(!data_dir.exists(), "doctor only looks");
}

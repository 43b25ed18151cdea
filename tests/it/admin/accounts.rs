//! Admin accounts, which only the CLI makes and removes: with the server
//! stopped or running, a removed admin's session ending at once, and the
//! hint `serve` prints until the first admin exists.

use super::{admin_browser, create_admin};
use crate::harness::{cli, spawn_app, spawn_with, text};

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
fn serve_tells_how_to_create_the_first_admin_until_there_is_one() {
    let mut app = spawn_app();
    assert!(app.printed().contains("No administrator yet: create one with `debrief admin create"), "{}", app.printed());
    assert!(create_admin(&app.data_dir, "first").status.success());
    assert!(app.terminate().success());
    let again = spawn_with(&app.data_dir, &["--http"]).unwrap();
    assert!(!again.printed().contains("No administrator yet"), "{}", again.printed());
}

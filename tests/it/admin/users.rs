//! Users and their clients as an admin manages them, from the dashboard
//! API and from the CLI: deleting a user removes all of theirs, and an
//! admin's edits are checked like the user's own.

use serde_json::json;

use super::{PASSWORD, admin_browser, create_admin};
use crate::browser::{Browser, signed_in_user};
use crate::harness::{cli, spawn_app, text};

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

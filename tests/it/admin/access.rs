//! Who may call the admin API: no one signed out, no user (whatever the
//! signup form claims), and no page of another site, even with an admin's
//! or a user's cookie.

use serde_json::json;

use super::{PASSWORD, admin_browser, create_admin};
use crate::browser::{Browser, signed_in_user, signup_form};
use crate::harness::spawn_app;

const ADMIN_ROUTES: [(&str, &str); 18] = [
    ("GET", "/api/admin/users/1/picture"),
    ("GET", "/api/admin/session"),
    ("GET", "/api/admin/users"),
    ("PUT", "/api/admin/users/1"),
    ("DELETE", "/api/admin/users/1"),
    ("GET", "/api/admin/clients"),
    ("PUT", "/api/admin/clients/1"),
    ("DELETE", "/api/admin/clients/1"),
    ("GET", "/api/admin/email-template"),
    ("PUT", "/api/admin/email-template"),
    ("GET", "/api/admin/users"),
    ("GET", "/api/admin/signup-policy"),
    ("PUT", "/api/admin/signup-policy"),
    ("POST", "/api/admin/invitations"),
    ("GET", "/api/admin/insights"),
    ("GET", "/api/admin/storage"),
    ("PUT", "/api/admin/storage"),
    ("GET", "/api/admin/outbox"),
];

#[test]
fn every_admin_route_is_401_for_anyone_and_403_for_a_user_even_one_who_claims_a_role() {
    let app = spawn_app();
    let mut claimer = Browser::new(&app.url);
    let mut form = signup_form("claimer@example.com", PASSWORD);
    form["isAdmin"] = json!(true);
    form["role"] = json!("admin");
    assert_eq!(claimer.post("/api/auth/signup", form).status, 201);
    claimer.post("/api/auth/login", json!({"email": "claimer@example.com", "password": PASSWORD}));
    assert!(claimer.cookie.is_some());
    let mut anyone = Browser::new(&app.url);
    for (method, path) in ADMIN_ROUTES {
        let body = (method != "GET" && method != "DELETE").then(|| json!({}));
        assert_eq!(anyone.call(method, path, body.clone()).status, 401, "{method} {path} anonymous");
        let as_user = claimer.call(method, path, body);
        assert_eq!(as_user.status, 403, "{method} {path} as a user: {}", as_user.text);
    }
}

#[test]
fn another_sites_page_can_neither_delete_a_client_nor_write_as_an_admin() {
    let app = spawn_app();
    assert!(create_admin(&app.data_dir, "boss").status.success());
    let mut user = signed_in_user(&app.url, "target@example.com", PASSWORD);
    let id = crate::clients::create(&mut user, "Kept Client");
    let mut admin = admin_browser(&app.url, "boss");
    user.origin = Some("https://evil.example.com".into());
    admin.origin = Some("https://evil.example.com".into());
    for reply in [
        user.delete(&format!("/api/clients/{id}")),
        admin.put("/api/admin/email-template", json!({"fromName": "Evil"})),
    ] {
        assert_eq!(reply.status, 403, "{}", reply.text);
        assert!(reply.text.contains("Cross-site request refused"));
    }
    // A browser that leaves Origin out still says where the call came from.
    let cross_site = crate::harness::client()
        .delete(format!("{}/api/clients/{id}", app.url))
        .header("Cookie", format!("debrief_session={}", user.cookie.clone().unwrap()))
        .header("Sec-Fetch-Site", "cross-site")
        .call()
        .unwrap();
    assert_eq!(cross_site.status(), 403);
    user.origin = Some(app.url.clone());
    assert_eq!(user.get(&format!("/api/clients/{id}")).status, 200, "the client is still there");
    admin.origin = Some(app.url.clone());
    assert_eq!(admin.get("/api/admin/email-template").body["fromName"], "Debrief Support");
}

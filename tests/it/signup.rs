//! Sign-up under the admin's control: open, by invitation or closed,
//! optionally for some e-mail domains only; set from the dashboard's API and
//! from the CLI.

use serde_json::{Value, json};

use crate::admin::{admin_browser, create_admin};
use crate::browser::{Browser, signup_form};
use crate::harness::{cli, spawn_app, spawn_with, text};

const PASSWORD: &str = "correct horse";

/// The token of an invitation link.
fn token_of(link: &str) -> String {
    link.rsplit_once("invitation=").expect("an invitation link").1.to_owned()
}

fn signup_with(app_url: &str, email: &str, invitation: Option<&str>) -> crate::browser::Reply {
    let mut form = signup_form(email, PASSWORD);
    if let Some(token) = invitation {
        form["invitation"] = Value::from(token);
    }
    Browser::new(app_url).post("/api/auth/signup", form)
}

#[test]
fn each_sign_up_policy_admits_whom_it_says_through_the_api() {
    let app = spawn_app();
    create_admin(&app.data_dir, "gatekeeper");
    let mut admin = admin_browser(&app.url, "gatekeeper");
    let policy = |b: &mut Browser| Browser::new(&b.base).get("/api/auth/signup-policy").body;
    assert_eq!(policy(&mut admin), json!({"mode": "open", "domains": []}), "open until the admin says otherwise");
    assert_eq!(signup_with(&app.url, "first@anywhere.example", None).status, 201);

    // Open, for some domains only.
    let set = admin.put("/api/admin/signup-policy", json!({"mode": "open", "domains": ["@Firm.Example"]}));
    assert_eq!(set.status, 200, "{}", set.text);
    assert_eq!(set.body, json!({"mode": "open", "domains": ["firm.example"]}));
    let outsider = signup_with(&app.url, "eve@evilfirm.example", None);
    assert_eq!(outsider.status, 400, "{}", outsider.text);
    assert_eq!(outsider.body["fieldErrors"][0]["field"], "email");
    assert!(outsider.text.contains("Sign-up is limited to addresses at firm.example"), "{}", outsider.text);
    assert_eq!(signup_with(&app.url, "ana@firm.example", None).status, 201);

    // By invitation: a link for one address, used once.
    assert_eq!(admin.put("/api/admin/signup-policy", json!({"mode": "invitation"})).status, 200);
    let uninvited = signup_with(&app.url, "bob@firm.example", None);
    assert_eq!(uninvited.status, 403);
    assert!(uninvited.text.contains("Sign-up on this server is by invitation"), "{}", uninvited.text);
    let made = admin.post("/api/admin/invitations", json!({"email": "Guest@Partner.Example"}));
    assert_eq!(made.status, 201, "{}", made.text);
    assert_eq!(made.body["email"], "guest@partner.example");
    let link = made.body["link"].as_str().unwrap();
    assert!(link.starts_with(&format!("{}/signup?invitation=", app.url)), "{link}");
    let token = token_of(link);
    let someone_else = signup_with(&app.url, "eve@partner.example", Some(&token));
    assert_eq!(someone_else.status, 403, "the link is for another address: {}", someone_else.text);
    assert_eq!(signup_with(&app.url, "guest@partner.example", Some(&token)).status, 201, "any domain when invited");
    let again = signup_with(&app.url, "guest2@partner.example", Some(&token));
    assert_eq!(again.status, 403, "used once: {}", again.text);
    assert!(again.text.contains("invitation link is invalid"), "{}", again.text);
    let forged = signup_with(&app.url, "guest3@partner.example", Some("not-a-token"));
    assert_eq!(forged.status, 403);
    // Back to open: a used link left in the address bar does not stand in the way.
    assert_eq!(admin.put("/api/admin/signup-policy", json!({"mode": "open"})).status, 200);
    assert_eq!(signup_with(&app.url, "guest4@partner.example", Some(&token)).status, 201);

    // Closed: nobody, not even with an unused link.
    let spare = token_of(admin.post("/api/admin/invitations", json!({})).body["link"].as_str().unwrap());
    assert_eq!(admin.put("/api/admin/signup-policy", json!({"mode": "closed"})).status, 200);
    let closed = signup_with(&app.url, "late@firm.example", Some(&spare));
    assert_eq!(closed.status, 403);
    assert!(closed.text.contains("Sign-up is closed on this server"), "{}", closed.text);
    assert_eq!(policy(&mut admin)["mode"], "closed");

    let nonsense = admin.put("/api/admin/signup-policy", json!({"mode": "sometimes"}));
    assert_eq!(nonsense.status, 400, "{}", nonsense.text);
    let bad_domain = admin.put("/api/admin/signup-policy", json!({"mode": "open", "domains": ["not a domain"]}));
    assert_eq!(bad_domain.status, 400, "{}", bad_domain.text);
    assert_eq!(policy(&mut admin)["mode"], "closed", "a refused change changes nothing");
}

#[test]
fn the_cli_sets_the_policy_and_makes_invitation_links_before_the_first_serve() {
    let dir = tempfile::tempdir().unwrap();
    let set = cli(dir.path(), &["signup", "set", "invitation", "--domain", "firm.example"]);
    assert!(set.status.success(), "{}", text(&set.stderr));
    assert!(text(&set.stdout).contains("sign-up: invitation"), "{}", text(&set.stdout));
    let invite = cli(dir.path(), &["signup", "invite", "--email", "new@firm.example", "--days", "2"]);
    assert!(invite.status.success(), "{}", text(&invite.stderr));
    let link = text(&invite.stdout).trim().to_owned();
    assert!(text(&invite.stderr).contains("for new@firm.example"), "{}", text(&invite.stderr));
    let refused = cli(dir.path(), &["signup", "set", "sometimes"]);
    assert!(!refused.status.success());
    assert!(text(&refused.stderr).contains("use open, invitation or closed"), "{}", text(&refused.stderr));

    let app = spawn_with(dir.path(), &["--http"]).expect("the server starts");
    assert_eq!(signup_with(&app.url, "new@firm.example", None).status, 403);
    assert_eq!(signup_with(&app.url, "new@firm.example", Some(&token_of(&link))).status, 201);
    // While the server runs, the CLI goes through it.
    let closed = cli(dir.path(), &["signup", "set", "closed"]);
    assert!(closed.status.success(), "{}", text(&closed.stderr));
    assert_eq!(Browser::new(&app.url).get("/api/auth/signup-policy").body["mode"], "closed");
    let shown = text(&cli(dir.path(), &["signup", "show"]).stdout);
    assert!(shown.contains("sign-up: closed") && shown.contains("domains: any"), "{shown}");
}

#[test]
fn the_sign_up_domains_hold_for_an_address_changed_in_the_profile_too() {
    let app = spawn_app();
    let set = cli(&app.data_dir, &["signup", "set", "open", "--domain", "firm.example"]);
    assert!(set.status.success(), "{}", text(&set.stderr));
    let mut ana = crate::browser::signed_in_user(&app.url, "ana@firm.example", PASSWORD);
    let profile = |email: &str| {
        json!({"firstName": "Ana", "lastName": "Silva", "email": email, "company": "Firm", "position": "Partner",
               "linkedinUrl": ""})
    };
    let moved = ana.put("/api/profile", profile("ana@elsewhere.example"));
    assert_eq!(moved.status, 400, "{}", moved.text);
    assert_eq!(moved.body["fieldErrors"][0]["field"], "email");
    assert!(moved.text.contains("Sign-up is limited to addresses at firm.example"), "{}", moved.text);
    assert_eq!(ana.get("/api/auth/me").body["email"], "ana@firm.example", "the address stays");
    let within = ana.put("/api/profile", profile("ana.silva@firm.example"));
    assert_eq!(within.status, 200, "{}", within.text);
}

#[test]
fn accounts_made_from_one_address_are_throttled_with_when_to_come_back() {
    let app = crate::harness::spawn_app_with(&["--signups-per-hour", "3"]);
    for n in 0..3 {
        assert_eq!(signup_with(&app.url, &format!("user{n}@anywhere.example"), None).status, 201);
    }
    let fourth = signup_with(&app.url, "user3@anywhere.example", None);
    assert_eq!(fourth.status, 429, "{}", fourth.text);
    assert!(fourth.text.contains("Too many accounts were created from this address"), "{}", fourth.text);
}

//! The follow-up tracker through the API: a step ticked or re-dated from
//! the tracker is the client's step, another user's steps and clients are
//! not found through any of its routes, the calendar feed reads as
//! calendar apps read it, and the figures and the clients waiting for a
//! follow-up follow what was sent.

use serde_json::{Value, json};
use time::{Duration, OffsetDateTime};

use crate::admin::{admin_browser, create_admin};
use crate::browser::{Browser, signed_in_user};
use crate::clients::{create, upload_with, wav};
use crate::harness::{client, spawn_app, spawn_app_with};
use crate::python::read_with;
use crate::smtp::SmtpServer;

const PASSWORD: &str = "correct horse";

fn with_contact(name: &str, extra: Value) -> Value {
    let mut body = json!({"name": name, "email": "jane@client.example", "phone": "+1 (555) 123-4567"});
    body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    body
}

/// A client of `user` named `name` with `items`; returns its id and the
/// ids of its items.
fn client_with_steps(user: &mut Browser, name: &str, items: Value) -> (u64, Vec<u64>) {
    let id = create(user, name);
    let reply =
        user.call("PATCH", &format!("/api/clients/{id}"), Some(with_contact(name, json!({"actionItems": items}))));
    assert_eq!(reply.status, 200, "{}", reply.text);
    let ids = reply.body["actionItems"].as_array().unwrap().iter().map(|i| i["id"].as_u64().unwrap()).collect();
    (id, ids)
}

fn day(offset_days: i64) -> String {
    let date = OffsetDateTime::now_utc().date() + Duration::days(offset_days);
    format!("{:04}-{:02}-{:02}", date.year(), u8::from(date.month()), date.day())
}

/// The events of an iCalendar text as Python's `icalendar` package reads
/// them: uid, summary, whether start and end are dates, and the start day.
fn parse_ics(text: &str) -> Vec<Value> {
    const READ: &str = r#"
import datetime, json, sys, icalendar
cal = icalendar.Calendar.from_ical(sys.stdin.buffer.read())
events = []
for e in cal.walk("VEVENT"):
    start, end = e.decoded("DTSTART"), e.decoded("DTEND")
    events.append({
        "uid": str(e["UID"]),
        "summary": str(e["SUMMARY"]),
        "description": str(e["DESCRIPTION"]),
        "allDay": type(start) is datetime.date and type(end) is datetime.date and (end - start).days == 1,
        "start": start.isoformat(),
    })
print(json.dumps(events))
"#;
    let events = read_with(READ, text);
    events.as_array().unwrap().clone()
}

/// GET `path` with no cookie, as a calendar app polls: status, content
/// type and body.
fn poll(base: &str, path: &str) -> (u16, String, String) {
    let mut res = client().get(format!("{base}{path}")).call().unwrap();
    let kind = res.headers().get("content-type").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    (res.status().as_u16(), kind, res.body_mut().read_to_string().unwrap_or_default())
}

#[test]
fn a_step_ticked_or_redated_in_the_tracker_is_the_client_pages_step_and_its_email_line() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "owner@example.com", PASSWORD);
    let (client, ids) = client_with_steps(
        &mut user,
        "Jane Client",
        json!([{"who": "me", "action": "Send the contract", "dueText": "by Friday", "dueDate": "2026-03-06"},
               {"who": "client", "action": "Share the floor plan"}]),
    );
    let step = |n: usize| format!("/api/next-steps/{}", ids[n]);

    let ticked = user.call("PATCH", &step(0), Some(json!({"done": true})));
    assert_eq!(ticked.status, 200, "{}", ticked.text);
    assert_eq!((&ticked.body["done"], &ticked.body["clientId"]), (&json!(true), &json!(client)));
    let page = user.get(&format!("/api/clients/{client}")).body;
    assert_eq!(page["actionItems"][0]["done"], true, "{page}");
    assert_eq!(user.get("/api/next-steps?status=done").body[0]["id"], ids[0]);

    let dated = user.call("PATCH", &step(1), Some(json!({"dueDate": "2026-03-10"})));
    assert_eq!(dated.status, 200, "{}", dated.text);
    assert_eq!((&dated.body["dueDate"], &dated.body["source"]), (&json!("2026-03-10"), &json!("added")));
    let page = user.get(&format!("/api/clients/{client}")).body;
    assert_eq!(
        page["nextSteps"], "I will send the contract by Friday.\nYou will share the floor plan by Tuesday 10 March.",
        "the email reads the new date"
    );
    let cleared = user.call("PATCH", &step(1), Some(json!({"dueDate": null})));
    assert_eq!((&cleared.body["dueDate"], &cleared.body["dueText"]), (&Value::Null, &Value::Null));

    let bad = user.call("PATCH", &step(1), Some(json!({"dueDate": "next week"})));
    assert_eq!(bad.status, 400, "{}", bad.text);
    assert_eq!(bad.body["fieldErrors"][0]["message"], "A due date must be a date (YYYY-MM-DD)");
    assert_eq!(user.call("PATCH", "/api/next-steps/999999", Some(json!({"done": true}))).status, 404);
    assert_eq!(user.call("PATCH", "/api/next-steps/abc", Some(json!({"done": true}))).status, 404);

    let undated = user.get(&format!("{}/calendar.ics", step(1)));
    assert_eq!((undated.status, undated.body["message"].as_str()), (409, Some("This next step has no due date")));
    let ics = user.get(&format!("{}/calendar.ics", step(0)));
    assert_eq!(ics.status, 200, "{}", ics.text);
    let events = parse_ics(&ics.text);
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["uid"], format!("next-step-{}@debrief", ids[0]));
    assert_eq!((&events[0]["allDay"], &events[0]["start"]), (&json!(true), &json!("2026-03-06")));
    assert_eq!(events[0]["summary"], "Send the contract (Jane Client)");
}

#[test]
fn another_users_steps_and_clients_are_not_found_through_any_tracker_route() {
    let app = spawn_app();
    let mut owner = signed_in_user(&app.url, "owner@example.com", PASSWORD);
    let mut stranger = signed_in_user(&app.url, "stranger@example.com", PASSWORD);
    let (theirs, their_steps) = client_with_steps(
        &mut owner,
        "Secret Client",
        json!([{"who": "me", "action": "Secret step", "dueDate": "2026-03-01"}]),
    );
    let summary = json!({"summary": "Secret summary"});
    let reply = owner.call("PATCH", &format!("/api/clients/{theirs}"), Some(with_contact("Secret Client", summary)));
    assert_eq!(reply.status, 200, "{}", reply.text);
    let step = their_steps[0];

    let routes: [(&str, String, Option<Value>, &str); 5] = [
        ("PATCH", format!("/api/next-steps/{step}"), Some(json!({"done": true})), "Next step not found"),
        ("GET", format!("/api/next-steps/{step}/calendar.ics"), None, "Next step not found"),
        ("POST", format!("/api/clients/{theirs}/followed-up"), None, "Client not found"),
        ("DELETE", format!("/api/clients/{theirs}/followed-up"), None, "Client not found"),
        ("GET", format!("/api/clients/{theirs}"), None, "Client not found"),
    ];
    for (method, path, body, message) in &routes {
        let reply = stranger.call(method, path, body.clone());
        assert_eq!((reply.status, reply.body["message"].as_str()), (404, Some(*message)), "{method} {path}");
        let anonymous = Browser::new(&app.url).call(method, path, body.clone());
        assert_eq!(anonymous.status, 401, "{method} {path} without a session");
    }
    for path in ["/api/next-steps", "/api/next-steps?status=done", "/api/insights"] {
        let reply = stranger.get(path);
        assert_eq!(reply.status, 200, "{path}: {}", reply.text);
        assert!(!reply.text.contains("Secret"), "{path}: {}", reply.text);
    }
    let feed = stranger.post("/api/profile/calendar-feed", json!({}));
    let (_, _, ics) = poll(&app.url, feed.body["path"].as_str().unwrap());
    assert!(parse_ics(&ics).is_empty(), "{ics}");
    let mine = owner.get(&format!("/api/next-steps/{step}/calendar.ics"));
    assert_eq!(mine.status, 200, "the owner still has it: {}", mine.text);
    assert_eq!(owner.get("/api/next-steps").body[0]["done"], false, "the stranger's tick changed nothing");
}

#[test]
fn the_calendar_feed_holds_exactly_the_owners_open_dated_steps_until_its_link_is_revoked() {
    let app = spawn_app();
    let mut owner = signed_in_user(&app.url, "owner@example.com", PASSWORD);
    let mut other = signed_in_user(&app.url, "other@example.com", PASSWORD);
    let (_, ids) = client_with_steps(
        &mut owner,
        "Ana O'Neil-Smith Jr.",
        json!([{"who": "me", "action": "Send the contract, signed; with annex \\ B", "dueDate": "2026-03-10"},
               {"who": "client", "action": "Share the floor plan"},
               {"who": "me", "action": "Order the samples", "dueDate": "2026-03-02", "done": true}]),
    );
    let (_, globex) = client_with_steps(
        &mut owner,
        "Globex Buyer",
        json!([{"who": "we", "action": format!("Book the site visit {}", "and the long walk ".repeat(8)), "dueDate": "2026-02-27"}]),
    );
    client_with_steps(
        &mut other,
        "Initech Buyer",
        json!([{"who": "me", "action": "Not theirs", "dueDate": "2026-03-01"}]),
    );

    assert_eq!(owner.get("/api/profile/calendar-feed").body, json!({"active": false, "createdAt": null}));
    let made = owner.post("/api/profile/calendar-feed", json!({}));
    assert_eq!(made.status, 201, "{}", made.text);
    let path = made.body["path"].as_str().unwrap().to_owned();
    assert!(path.starts_with("/api/next-steps.ics?token="), "{path}");
    let state = owner.get("/api/profile/calendar-feed").body;
    assert_eq!(state["active"], true);
    assert!(state.get("path").is_none(), "the link is shown once: {state}");

    let (status, kind, ics) = poll(&app.url, &path);
    assert_eq!(status, 200, "{ics}");
    assert!(kind.starts_with("text/calendar"), "{kind}");
    let events = parse_ics(&ics);
    let found: Vec<(&str, &str)> =
        events.iter().map(|e| (e["uid"].as_str().unwrap(), e["start"].as_str().unwrap())).collect();
    let (first, second) = (format!("next-step-{}@debrief", globex[0]), format!("next-step-{}@debrief", ids[0]));
    assert_eq!(found, [(first.as_str(), "2026-02-27"), (second.as_str(), "2026-03-10")], "{ics}");
    assert!(events.iter().all(|e| e["allDay"] == true), "{events:?}");
    assert_eq!(events[1]["summary"], "Send the contract, signed; with annex \\ B (Ana O'Neil-Smith Jr.)");
    assert!(events[0]["summary"].as_str().unwrap().ends_with("long walk (Globex Buyer)"), "folded lines unfold");

    // Ticked off, a step leaves the feed at the next poll.
    assert_eq!(owner.call("PATCH", &format!("/api/next-steps/{}", globex[0]), Some(json!({"done": true}))).status, 200);
    assert_eq!(parse_ics(&poll(&app.url, &path).2).len(), 1);

    let revoked = owner.delete("/api/profile/calendar-feed");
    assert_eq!(revoked.body, json!({"active": false, "createdAt": null}));
    assert_eq!(poll(&app.url, &path).0, 404, "a revoked link is not found");
    let again = owner.post("/api/profile/calendar-feed", json!({})).body["path"].as_str().unwrap().to_owned();
    assert_ne!(again, path);
    let newer = owner.post("/api/profile/calendar-feed", json!({})).body["path"].as_str().unwrap().to_owned();
    assert_eq!(poll(&app.url, &again).0, 404, "a new link ends the one before");
    assert_eq!(poll(&app.url, &newer).0, 200);
    let changed = owner.put(
        "/api/profile/password",
        json!({"currentPassword": PASSWORD, "password": "a new password 2", "confirmPassword": "a new password 2"}),
    );
    assert_eq!(changed.status, 200, "{}", changed.text);
    assert_eq!(poll(&app.url, &newer).0, 404, "a new password ends the feed a stolen session could have made");
    for bad in ["/api/next-steps.ics", "/api/next-steps.ics?token=short", "/api/next-steps.ics?token=%00"] {
        let (status, _, body) = poll(&app.url, bad);
        assert_eq!(status, 404, "{bad}: {body}");
        assert!(body.contains("Calendar feed not found"), "{bad}: {body}");
    }
}

#[test]
fn clients_wait_for_a_follow_up_until_it_is_emailed_or_marked_and_the_figures_count_it() {
    let smtp = SmtpServer::start();
    let app = spawn_app_with(&["--smtp-url", &smtp.url(), "--mail-from", "debrief@example.com"]);
    let mut user = signed_in_user(&app.url, "owner@example.com", PASSWORD);
    let cookie = user.cookie.clone().unwrap();
    let now = OffsetDateTime::now_utc();
    let meeting = |user: &mut Browser, name: &str, hours_ago: i64| {
        let id = create(user, name);
        let at = ((now - Duration::hours(hours_ago)).unix_timestamp() * 1000).to_string();
        let headers = [("X-Recorded-At", at.as_str()), ("X-Time-Zone-Offset", "0")];
        let (status, body) = upload_with(&app.url, &cookie, id, &wav(0.5), &headers);
        assert_eq!(status, 200, "{body}");
        let summary = with_contact(name, json!({"summary": format!("We met {name}.")}));
        assert_eq!(user.call("PATCH", &format!("/api/clients/{id}"), Some(summary)).status, 200);
        id
    };
    let (older, newer) = (meeting(&mut user, "Older Client", 30), meeting(&mut user, "Newer Client", 3));
    create(&mut user, "No Summary Client");
    let today = format!("/api/insights?today={}", day(0));
    let waiting = |user: &mut Browser| -> Vec<u64> {
        let reply = user.get(&today);
        assert_eq!(reply.status, 200, "{}", reply.text);
        reply.body["waiting"].as_array().unwrap().iter().map(|c| c["id"].as_u64().unwrap()).collect()
    };
    assert_eq!(waiting(&mut user), [older, newer], "oldest meeting first, only clients with a summary");

    let sent = user.post(&format!("/api/clients/{newer}/send-email"), json!({}));
    assert_eq!((sent.status, sent.body["delivery"].as_str()), (200, Some("sent")), "{}", sent.text);
    smtp.wait_for(1);
    assert_eq!(waiting(&mut user), [older]);

    let marked = user.post(&format!("/api/clients/{older}/followed-up"), json!({}));
    assert_eq!(marked.status, 200, "{}", marked.text);
    assert!(marked.body["followedUpAt"].is_string(), "{}", marked.text);
    assert_eq!(waiting(&mut user), Vec::<u64>::new());
    let undone = user.delete(&format!("/api/clients/{older}/followed-up"));
    assert_eq!(undone.body["followedUpAt"], Value::Null);
    assert_eq!(waiting(&mut user), [older]);

    let figures = user.get(&today).body;
    assert_eq!(figures["followUpsThisMonth"], 1, "{figures}");
    let hours = figures["medianHoursToFollowUp"].as_f64().unwrap();
    assert!((2.9..=3.2).contains(&hours), "the email went out about 3 hours after the meeting: {figures}");
    let met = figures["meetingsThisMonth"].as_u64().unwrap() + figures["meetingsLastMonth"].as_u64().unwrap();
    assert_eq!(met, 2, "{figures}");
    let weeks = figures["weeks"].as_array().unwrap();
    assert_eq!(weeks.len(), 12);
    assert_eq!(weeks.iter().map(|w| w["meetings"].as_u64().unwrap()).sum::<u64>(), 2, "{figures}");
    assert_eq!(user.get("/api/insights?today=tomorrow").status, 400);
}

#[test]
fn a_follow_up_filed_in_the_outbox_leaves_the_client_waiting() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "owner@example.com", PASSWORD);
    let id = create(&mut user, "Jane Client");
    let summary = with_contact("Jane Client", json!({"summary": "We met."}));
    assert_eq!(user.call("PATCH", &format!("/api/clients/{id}"), Some(summary)).status, 200);
    let filed = user.post(&format!("/api/clients/{id}/send-email"), json!({}));
    assert_eq!(filed.body["delivery"], "outbox", "{}", filed.text);
    let insights = user.get("/api/insights").body;
    assert_eq!(insights["waiting"][0]["id"], id, "{insights}");
    assert_eq!(insights["followUpsThisMonth"], 0, "{insights}");
}

#[test]
fn the_admin_sees_everyones_figures_as_counts_only() {
    let app = spawn_app();
    let created = create_admin(&app.data_dir, "root");
    assert!(created.status.success(), "{created:?}");
    let mut ana = signed_in_user(&app.url, "ana@example.com", PASSWORD);
    let mut ben = signed_in_user(&app.url, "ben@example.com", PASSWORD);
    let yesterday = day(-1);
    client_with_steps(&mut ana, "Secret Client", json!([{"who": "me", "action": "Secret step", "dueDate": yesterday}]));
    client_with_steps(
        &mut ben,
        "Other Client",
        json!([{"who": "me", "action": "Call"}, {"who": "me", "action": "Write"}]),
    );

    let mut admin = admin_browser(&app.url, "root");
    let all = admin.get(&format!("/api/admin/insights?today={}", day(0)));
    assert_eq!(all.status, 200, "{}", all.text);
    assert_eq!(
        (&all.body["users"], &all.body["openItems"], &all.body["overdueItems"]),
        (&json!(2), &json!(3), &json!(1))
    );
    assert!(all.body.get("waiting").is_none() && !all.text.contains("Secret"), "{}", all.text);
    assert_eq!(ana.get("/api/admin/insights").status, 403, "a user is no admin");
    assert_eq!(Browser::new(&app.url).get("/api/admin/insights").status, 401);
}

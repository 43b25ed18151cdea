//! Next steps as action items through the API: the owner's list saved and
//! rendered into `nextSteps` and the email, text edits kept in step with
//! the items, bad lists refused, and Regenerate replacing only what nobody
//! touched.

use std::time::Duration;

use serde_json::{Value, json};

use crate::browser::{Browser, signed_in_user};
use crate::clients::{create, upload_with};
use crate::harness::spawn_app;
use crate::jobs::{models_folder, serve, wait_for_status};
use crate::speech::spoken;

const PASSWORD: &str = "correct horse";

fn patch(user: &mut Browser, id: u64, body: Value) -> crate::browser::Reply {
    user.call("PATCH", &format!("/api/clients/{id}"), Some(body))
}

/// The contact details every PATCH carries, with `extra` fields.
fn with_contact(extra: Value) -> Value {
    let mut body = json!({"name": "Jane Client", "email": "jane@client.example", "phone": "+1 (555) 123-4567"});
    body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    body
}

fn items(client: &Value) -> Vec<Value> {
    client["actionItems"].as_array().cloned().unwrap_or_default()
}

#[test]
fn an_owners_items_become_the_next_steps_text_and_the_lines_of_the_email() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "owner@example.com", PASSWORD);
    let id = create(&mut user, "Jane Client");
    assert_eq!(user.get(&format!("/api/clients/{id}")).body["actionItems"], json!([]));

    let reply = patch(
        &mut user,
        id,
        with_contact(json!({"summary": "We went through the renewal.", "actionItems": [
            {"who": "me", "action": "Send the revised proposal", "dueText": "by Friday", "dueDate": "2026-03-06"},
            {"who": "client", "action": "Confirm the stock count"},
            {"who": "Maria Silva", "action": "Book the workshop room", "done": true},
        ]})),
    );
    assert_eq!(reply.status, 200, "{}", reply.text);
    let saved = items(&reply.body);
    assert_eq!(saved.len(), 3);
    assert_eq!(saved[0]["who"], "me");
    assert_eq!(saved[0]["dueDate"], "2026-03-06");
    assert_eq!(saved[0]["source"], "added");
    assert_eq!(saved[2]["done"], true);
    let lines = "I will send the revised proposal by Friday.\nYou will confirm the stock count.\nMaria Silva will book the workshop room.";
    assert_eq!(reply.body["nextSteps"], lines);
    assert_eq!(saved[1]["line"], "You will confirm the stock count.");

    let email = user.get(&format!("/api/clients/{id}/email"));
    assert_eq!(email.status, 200, "{}", email.text);
    let text = email.body["text"].as_str().unwrap();
    let by_owner = "From us\n- Send the revised proposal — by Friday 6 March\n\nFrom you\n- Confirm the stock count\n\n\
                    Others\n- Maria Silva: book the workshop room\n";
    assert!(text.contains(by_owner), "the email lists the steps by owner, each with its date: {text}");

    // Reworded, one removed, one new: ids stay with the items that stay.
    let first = saved[0]["id"].clone();
    let reply = patch(
        &mut user,
        id,
        with_contact(json!({"actionItems": [
            {"id": first, "who": "me", "action": "Send the revised proposal with both options", "dueText": "by Friday", "dueDate": "2026-03-06"},
            {"who": "we", "action": "Meet again after the audit"},
        ]})),
    );
    assert_eq!(reply.status, 200, "{}", reply.text);
    let now = items(&reply.body);
    assert_eq!(now.iter().map(|i| i["id"].clone()).next(), Some(first));
    assert_eq!(now.len(), 2);
    assert_eq!(
        reply.body["nextSteps"],
        "I will send the revised proposal with both options by Friday.\nWe will meet again after the audit."
    );
    let read = user.get(&format!("/api/clients/{id}")).body;
    assert_eq!(items(&read), now, "what was saved is what is read back");
}

#[test]
fn next_steps_written_as_text_keep_the_items_whose_lines_stay() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "owner@example.com", PASSWORD);
    let id = create(&mut user, "Jane Client");
    let reply = patch(
        &mut user,
        id,
        with_contact(json!({"actionItems": [
            {"who": "me", "action": "Send the revised proposal", "dueText": "by Friday", "dueDate": "2026-03-06"},
            {"who": "client", "action": "Confirm the stock count"},
        ]})),
    );
    let kept = items(&reply.body)[0].clone();

    let text = "- I will send the revised proposal by Friday.\n- Call the bank about the guarantee";
    let reply = patch(&mut user, id, with_contact(json!({"nextSteps": text})));
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.body["nextSteps"], text, "the owner's own words stay as written");
    let now = items(&reply.body);
    assert_eq!(now.len(), 2, "{now:?}");
    assert_eq!(now[0]["id"], kept["id"]);
    assert_eq!(now[0]["dueDate"], "2026-03-06", "the kept line keeps its date");
    assert_eq!(now[1]["action"], "Call the bank about the guarantee");
    assert_eq!(now[1]["who"], "unattributed");

    let reply = patch(&mut user, id, with_contact(json!({"nextSteps": ""})));
    assert_eq!(reply.body["nextSteps"], Value::Null);
    assert_eq!(reply.body["actionItems"], json!([]));
}

#[test]
fn a_list_of_next_steps_that_breaks_a_rule_is_refused_and_nothing_changes() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "owner@example.com", PASSWORD);
    let mut stranger = signed_in_user(&app.url, "stranger@example.com", PASSWORD);
    let id = create(&mut user, "Jane Client");
    let good = json!({"actionItems": [{"who": "me", "action": "Send the secret plan"}]});
    let saved = patch(&mut user, id, with_contact(good.clone()));
    assert_eq!(saved.status, 200, "{}", saved.text);
    let step = saved.body["actionItems"][0]["id"].clone();

    let many: Vec<Value> = (0..51).map(|i| json!({"action": format!("Step {i}")})).collect();
    let cases = [
        (json!({"actionItems": [{"who": "me", "action": "  "}]}), "Every next step needs an action"),
        (
            json!({"actionItems": [{"action": "Call", "dueDate": "2026-02-30"}]}),
            "A due date must be a date (YYYY-MM-DD)",
        ),
        (json!({"actionItems": [{"action": "x".repeat(501)}]}), "A next step must be less than 500 characters"),
        (json!({"actionItems": [{"action": "Call\u{1b}[2J"}]}), "Next steps contain characters that are not allowed"),
        (json!({"actionItems": many}), "Next steps must be at most 50 items"),
        (
            json!({"actionItems": [{"id": step, "action": "Send the secret plan"}, {"id": step, "action": "Again"}]}),
            "A next step may be listed only once",
        ),
    ];
    for (body, message) in cases {
        let reply = patch(&mut user, id, with_contact(body.clone()));
        assert_eq!(reply.status, 400, "{body}: {}", reply.text);
        assert!(reply.text.contains(message), "{body}: {}", reply.text);
    }
    let client = user.get(&format!("/api/clients/{id}")).body;
    assert_eq!(client["nextSteps"], "I will send the secret plan.", "a refused list changes nothing");

    let reply = patch(&mut stranger, id, with_contact(good));
    assert_eq!(reply.status, 404, "{}", reply.text);
    assert!(!reply.text.contains("secret"), "nothing of the client leaks: {}", reply.text);
}

#[test]
fn regenerate_rewrites_only_the_steps_nobody_touched_keeping_their_ids_and_dates_them_by_the_phones_day() {
    let models = models_folder(&["whisper-tiny.en-ct2"]);
    let data = tempfile::tempdir().unwrap();
    let app = serve(data.path(), models.path(), &["--summariser", "lexical"]);
    let mut user = signed_in_user(&app.url, "owner@example.com", PASSWORD);
    let id = create(&mut user, "Jane Client");
    let wav = spoken(
        "Thanks for your time today. I will send you the revised proposal tomorrow. \
         I will also call the bank about the guarantee next week.",
        "en-us",
    );
    // 23:30 in London is 01:30 the next day in Athens: the phone said Athens.
    let recorded_at = 1_772_494_200_000_i64.to_string(); // 2026-03-02T23:30:00Z
    let headers = [("X-Recorded-At", recorded_at.as_str()), ("X-Time-Zone-Offset", "120")];
    let (status, body) = upload_with(&app.url, user.cookie.as_deref().unwrap(), id, &wav, &headers);
    assert_eq!(status, 200, "{body}");
    let client = wait_for_status(&mut user, id, &["done"], Duration::from_secs(120));
    let first = items(&client);
    assert!(first.len() >= 2, "{client}");
    assert!(first.iter().all(|i| i["source"] == "summary"), "{first:?}");
    let proposal =
        first.iter().find(|i| i["action"].as_str().unwrap().contains("proposal")).expect("the proposal step");
    assert_eq!(proposal["dueDate"], "2026-03-04", "tomorrow of Tuesday 3 March, the phone's day: {proposal}");

    // The owner rewords the proposal step, ticks nothing else, and adds one.
    let mut list: Vec<Value> = first
        .iter()
        .map(|i| json!({"id": i["id"], "who": i["who"], "action": i["action"], "dueText": i["dueText"], "dueDate": i["dueDate"]}))
        .collect();
    let at = first.iter().position(|i| i["id"] == proposal["id"]).unwrap();
    list[at]["action"] = json!("Send the revised proposal with the two options");
    list.push(json!({"who": "client", "action": "Share the audit dates"}));
    let reply = patch(&mut user, id, with_contact(json!({"actionItems": list})));
    assert_eq!(reply.status, 200, "{}", reply.text);
    let untouched: Vec<Value> =
        items(&reply.body).into_iter().filter(|i| i["source"] == "summary").map(|i| i["id"].clone()).collect();
    assert!(!untouched.is_empty());
    // The tracker ticks the edited step off and moves its date.
    let tracked = user.call(
        "PATCH",
        &format!("/api/next-steps/{}", proposal["id"]),
        Some(json!({"done": true, "dueDate": "2026-03-09"})),
    );
    assert_eq!(tracked.status, 200, "{}", tracked.text);

    let reply = user.post(&format!("/api/clients/{id}/summary/regenerate"), Value::Null);
    assert_eq!(reply.status, 202, "{}", reply.text);
    let client = wait_for_status(&mut user, id, &["done"], Duration::from_secs(60));
    let after = items(&client);
    let actions: Vec<&str> = after.iter().map(|i| i["action"].as_str().unwrap()).collect();
    assert_eq!(after[0]["id"], proposal["id"], "the edited step stays, first: {actions:?}");
    assert_eq!(after[0]["source"], "edited");
    assert_eq!((&after[0]["done"], &after[0]["dueDate"]), (&json!(true), &json!("2026-03-09")), "{}", after[0]);
    assert!(actions.contains(&"Share the audit dates"), "{actions:?}");
    assert_eq!(
        actions.iter().filter(|a| a.contains("proposal")).count(),
        1,
        "the edited step is not listed again: {actions:?}"
    );
    let guarantee = after.iter().find(|i| i["action"].as_str().unwrap().contains("guarantee"));
    let guarantee = guarantee.unwrap_or_else(|| panic!("the untouched step is written anew: {actions:?}"));
    assert!(untouched.contains(&guarantee["id"]), "written again, it keeps its id (and its calendar event): {after:?}");
    let lines: Vec<&str> = client["nextSteps"].as_str().unwrap().lines().collect();
    assert_eq!(lines.len(), after.len(), "{client}");
}

#[test]
fn a_recording_time_without_its_zone_or_out_of_range_is_refused() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "owner@example.com", PASSWORD);
    let id = create(&mut user, "Jane Client");
    let wav = spoken("Hello.", "en-us");
    let cookie = user.cookie.clone().unwrap();
    let cases: [(&[(&str, &str)], &str); 4] = [
        (&[("X-Recorded-At", "1772494200000")], "Send X-Recorded-At and X-Time-Zone-Offset together"),
        (
            &[("X-Recorded-At", "1772494200000"), ("X-Time-Zone-Offset", "900")],
            "X-Time-Zone-Offset must be minutes east of UTC",
        ),
        (
            // The smallest 16-bit number, whose absolute value overflows.
            &[("X-Recorded-At", "1772494200000"), ("X-Time-Zone-Offset", "-32768")],
            "X-Time-Zone-Offset must be minutes east of UTC",
        ),
        (
            &[("X-Recorded-At", "yesterday"), ("X-Time-Zone-Offset", "60")],
            "X-Recorded-At must be a time in Unix milliseconds",
        ),
    ];
    for (headers, message) in cases {
        let (status, body) = upload_with(&app.url, &cookie, id, &wav, headers);
        assert_eq!(status, 400, "{headers:?}: {body}");
        assert!(body["message"].as_str().unwrap().contains(message), "{headers:?}: {body}");
    }
    assert_eq!(user.get(&format!("/api/clients/{id}")).body["recording"], Value::Null, "nothing was kept");
}

#[test]
fn a_users_next_steps_across_clients_come_soonest_due_first_and_no_one_elses() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "owner@example.com", PASSWORD);
    let mut stranger = signed_in_user(&app.url, "stranger@example.com", PASSWORD);
    let (acme, globex) = (create(&mut user, "Acme Buyer"), create(&mut user, "Globex Buyer"));
    let theirs = create(&mut stranger, "Initech Buyer");
    let save = |user: &mut Browser, id: u64, name: &str, list: Value| {
        let reply = patch(user, id, with_contact(json!({"name": name, "actionItems": list})));
        assert_eq!(reply.status, 200, "{}", reply.text);
    };
    save(
        &mut user,
        acme,
        "Acme Buyer",
        json!([
            {"who": "me", "action": "Send the contract", "dueDate": "2026-03-10"},
            {"who": "me", "action": "Order the samples", "done": true},
        ]),
    );
    save(
        &mut user,
        globex,
        "Globex Buyer",
        json!([
            {"who": "client", "action": "Share the floor plan"},
            {"who": "me", "action": "Book the site visit", "dueDate": "2026-03-04"},
        ]),
    );
    save(
        &mut stranger,
        theirs,
        "Initech Buyer",
        json!([{"who": "me", "action": "Secret step", "dueDate": "2026-03-01"}]),
    );

    let open = user.get("/api/next-steps");
    assert_eq!(open.status, 200, "{}", open.text);
    let listed: Vec<(&str, &str)> = open
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["action"].as_str().unwrap(), s["clientName"].as_str().unwrap()))
        .collect();
    assert_eq!(
        listed,
        [
            ("Book the site visit", "Globex Buyer"),
            ("Send the contract", "Acme Buyer"),
            ("Share the floor plan", "Globex Buyer")
        ]
    );
    assert!(!open.text.contains("Secret"), "{}", open.text);
    let done = user.get("/api/next-steps?status=done");
    assert_eq!(done.body.as_array().unwrap().len(), 1);
    assert_eq!(done.body[0]["action"], "Order the samples");
    assert_eq!(done.body[0]["clientId"], acme);
    assert_eq!(user.get("/api/next-steps?status=late").status, 400);

    assert_eq!(user.delete(&format!("/api/clients/{globex}")).status, 200);
    let open = user.get("/api/next-steps").body;
    assert_eq!(open.as_array().unwrap().len(), 1, "a deleted client's steps go with it: {open}");
    assert_eq!(Browser::new(&app.url).get("/api/next-steps").status, 401);
}

#[test]
fn a_client_sent_back_whole_changes_the_next_steps_it_changed_text_or_items() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "owner@example.com", PASSWORD);
    let id = create(&mut user, "Jane Client");
    let first = patch(&mut user, id, with_contact(json!({"actionItems": [{"who": "me", "action": "Send the quote"}]})));
    assert_eq!(first.status, 200, "{}", first.text);

    // The text changed, the items sent back as read: the text is meant.
    let mut whole = first.body.clone();
    whole["nextSteps"] = json!("I will send the quote.\nCall the bank");
    let reply = patch(&mut user, id, whole);
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(items(&reply.body).len(), 2);
    assert_eq!(items(&reply.body)[0]["id"], items(&first.body)[0]["id"]);

    // The items changed, the text sent back as read: the items are meant.
    let mut whole = reply.body.clone();
    whole["actionItems"][1]["action"] = json!("Call the bank about the guarantee");
    let reply = patch(&mut user, id, whole);
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.body["nextSteps"], "I will send the quote.\nCall the bank about the guarantee.");

    // Both changed: which one is meant cannot be told.
    let mut whole = reply.body.clone();
    whole["nextSteps"] = json!("Something else");
    whole["actionItems"][0]["action"] = json!("Send the final quote");
    let reply = patch(&mut user, id, whole);
    assert_eq!(reply.status, 409, "{}", reply.text);
    assert_eq!(reply.body["message"], "Change the next steps as text or as items, not both at once");
    let stored = user.get(&format!("/api/clients/{id}")).body;
    assert_eq!(stored["nextSteps"], "I will send the quote.\nCall the bank about the guarantee.", "nothing changed");
}

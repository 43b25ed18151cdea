//! 32 writers at once through the HTTP API: every change they were told
//! succeeded is kept, none undone by another's read-modify-write.

use std::collections::HashSet;
use std::sync::Barrier;

use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::json;

use crate::admin::{admin_browser, create_admin};
use crate::browser::{Browser, signed_in_user};
use crate::clients::{create, upload};
use crate::crash::{photo, sha, wav};
use crate::harness::{client, spawn_app};

const WRITERS: usize = 32;
const PASSWORD: &str = "correct horse";

/// `n` in letters, for names that only take letters.
fn letters(mut n: usize) -> String {
    let mut out = String::new();
    loop {
        out.insert(0, char::from(b'a' + (n % 26) as u8));
        n /= 26;
        if n == 0 {
            return out;
        }
    }
}

/// Runs `work(i)` on `WRITERS` threads released at the same moment.
fn at_once<T: Send>(work: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let start = Barrier::new(WRITERS);
    std::thread::scope(|threads| {
        let handles: Vec<_> = (0..WRITERS)
            .map(|i| {
                let (start, work) = (&start, &work);
                threads.spawn(move || {
                    start.wait();
                    work(i)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a writer failed")).collect()
    })
}

fn get_bytes(base: &str, cookie: &str, path: &str) -> (u16, Vec<u8>) {
    let mut res =
        client().get(format!("{base}{path}")).header("Cookie", format!("debrief_session={cookie}")).call().unwrap();
    (res.status().as_u16(), res.body_mut().read_to_vec().unwrap())
}

#[test]
fn thirty_two_writers_creating_clients_at_once_each_keep_a_client_of_their_own() {
    const EACH: usize = 8;
    let app = spawn_app();
    let cookie = signed_in_user(&app.url, "many@example.com", PASSWORD).cookie;
    let made: Vec<Vec<(u64, String)>> = at_once(|i| {
        let mut user = Browser::new(&app.url).with_cookie(cookie.clone());
        (0..EACH)
            .map(|n| {
                let name = format!("Writer {} Client {}", letters(i), letters(n));
                let reply = user.post(
                    "/api/clients",
                    json!({"clientData": {"name": name, "email": "c@client.example", "phone": "555 123 4567"}}),
                );
                assert_eq!(reply.status, 201, "writer {i}, client {n}: {}", reply.text);
                (reply.body["id"].as_u64().unwrap(), name)
            })
            .collect()
    });

    let made: Vec<(u64, String)> = made.into_iter().flatten().collect();
    let ids: HashSet<u64> = made.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids.len(), WRITERS * EACH, "every create got an id of its own");
    let mut user = Browser::new(&app.url).with_cookie(cookie);
    let listed: HashSet<u64> =
        user.get("/api/clients").body.as_array().unwrap().iter().map(|c| c["id"].as_u64().unwrap()).collect();
    assert_eq!(listed, ids, "the list holds exactly the acknowledged clients");
    for (id, name) in &made {
        let client = user.get(&format!("/api/clients/{id}"));
        assert_eq!((client.status, client.body["name"].as_str()), (200, Some(name.as_str())), "client {id}");
    }
}

const TEMPLATE_FIELDS: [&str; 5] =
    ["fromName", "emailTitle", "firstContentSection", "secondContentSection", "thirdContentSection"];

#[test]
fn thirty_two_admins_editing_template_fields_at_once_lose_no_update() {
    const ROUNDS: usize = 15;
    let app = spawn_app();
    let created = create_admin(&app.data_dir, "root");
    assert!(created.status.success(), "{}", crate::harness::text(&created.stderr));
    let admin_cookie = admin_browser(&app.url, "root").extra_cookie;

    // Writer i edits only field i % 5, each PUT carrying that field alone:
    // the server merges it into the template as it is at that moment.
    let last: Vec<String> = at_once(|i| {
        let mut admin = Browser { extra_cookie: admin_cookie.clone(), ..Browser::new(&app.url) };
        let field = TEMPLATE_FIELDS[i % TEMPLATE_FIELDS.len()];
        let mut value = String::new();
        for round in 0..ROUNDS {
            value = format!("writer {i} round {round}");
            let reply = admin.put("/api/admin/email-template", json!({ field: value }));
            assert_eq!(reply.status, 200, "writer {i}, round {round}: {}", reply.text);
            assert_eq!(reply.body[field], value.as_str(), "writer {i}, round {round}: the answer shows the change");
        }
        value
    });

    // A field's final value is the last write of one of its writers: each
    // writer's writes are in order, so any older value means a lost update.
    let mut admin = Browser { extra_cookie: admin_cookie, ..Browser::new(&app.url) };
    let template = admin.get("/api/admin/email-template");
    assert_eq!(template.status, 200);
    for (f, field) in TEMPLATE_FIELDS.iter().enumerate() {
        let candidates: Vec<&str> = (f..WRITERS).step_by(TEMPLATE_FIELDS.len()).map(|i| last[i].as_str()).collect();
        let value = template.body[field].as_str().unwrap();
        assert!(candidates.contains(&value), "{field} is {value:?}, none of its writers' last values {candidates:?}");
    }
}

/// What each writer on the shared client changes.
#[derive(Clone, Copy)]
enum Part {
    Summary,
    NextSteps,
    Photo,
    Recording,
}

const PARTS: [Part; 4] = [Part::Summary, Part::NextSteps, Part::Photo, Part::Recording];

#[test]
fn thirty_two_writers_changing_different_parts_of_one_client_at_once_lose_no_update() {
    const ROUNDS: usize = 6;
    let app = spawn_app();
    let mut owner = signed_in_user(&app.url, "shared@example.com", PASSWORD);
    let id = create(&mut owner, "Shared Client");
    let cookie = owner.cookie.clone().unwrap();
    let contact = json!({"name": "Shared Client", "email": "shared@client.example", "phone": "555 123 4567", "company": "Globex", "position": "CTO"});

    // A PATCH carries the whole contact form (the same for all) and one of
    // the texts; a text left out is kept. Photos and recordings replace
    // their own part only.
    let last: Vec<String> = at_once(|i| {
        let mut user = Browser::new(&app.url).with_cookie(Some(cookie.clone()));
        let mut rng = StdRng::seed_from_u64(i as u64);
        let mut acknowledged = String::new();
        for round in 0..ROUNDS {
            let what = format!("writer {i} round {round}");
            acknowledged = match PARTS[i % PARTS.len()] {
                Part::Summary | Part::NextSteps => {
                    let key = if matches!(PARTS[i % PARTS.len()], Part::Summary) { "summary" } else { "nextSteps" };
                    let mut body = contact.clone();
                    body[key] = json!(what);
                    let reply = user.call("PATCH", &format!("/api/clients/{id}"), Some(body));
                    assert_eq!(reply.status, 200, "{what}: {}", reply.text);
                    assert_eq!(reply.body[key], what.as_str(), "{what}: the answer shows the change");
                    what
                }
                Part::Photo => {
                    let png = photo(&mut rng);
                    let reply = user
                        .post(&format!("/api/clients/{id}/photo"), json!({"photo": crate::harness::data_url(&png)}));
                    assert_eq!(reply.status, 200, "{what}: {}", reply.text);
                    sha(&png)
                }
                Part::Recording => {
                    let file = wav(&mut rng, 0.2);
                    let (status, body) = upload(&app.url, &cookie, id, &file);
                    assert_eq!(status, 200, "{what}: {body}");
                    assert_eq!(body["sha256"].as_str(), Some(sha(&file).as_str()));
                    sha(&file)
                }
            };
        }
        acknowledged
    });

    let client = owner.get(&format!("/api/clients/{id}")).body;
    let candidates =
        |part: usize| -> Vec<&str> { (part..WRITERS).step_by(PARTS.len()).map(|i| last[i].as_str()).collect() };
    let photo_sha = sha(&{
        let (status, bytes) = get_bytes(&app.url, &cookie, client["photoUrl"].as_str().expect("a photo"));
        assert_eq!(status, 200);
        bytes
    });
    let recording_sha = sha(&{
        let (status, bytes) = get_bytes(&app.url, &cookie, client["recordingUrl"].as_str().expect("a recording"));
        assert_eq!(status, 200);
        bytes
    });
    assert_eq!(client["recording"]["sha256"].as_str(), Some(recording_sha.as_str()));
    let seen: [(&str, &str); 4] = [
        ("summary", client["summary"].as_str().unwrap_or("")),
        ("nextSteps", client["nextSteps"].as_str().unwrap_or("")),
        ("photo", &photo_sha),
        ("recording", &recording_sha),
    ];
    for (part, (name, value)) in seen.iter().enumerate() {
        assert!(
            candidates(part).contains(value),
            "{name} is {value:?}, none of its writers' last values {:?}",
            candidates(part)
        );
    }
    for key in ["name", "email", "phone", "company", "position"] {
        assert_eq!(client[key], contact[key], "{key}");
    }
    assert!(client["job"]["status"].is_string(), "the last recording has its job: {client}");
}

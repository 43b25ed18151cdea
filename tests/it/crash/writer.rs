//! A writer: creates, changes and deletes its own clients, their photos
//! and recordings, until the kill cuts it off, and books every answer (or
//! its absence) in the ledger.

use std::sync::{Arc, Mutex};

use rand::RngExt;
use rand::rngs::StdRng;
use serde_json::{Value, json};

use super::http::{Http, Outcome};
use super::ledger::{Entry, Fields, Known, Ledger, fields_of};
use super::payloads::{contact, multipart, photo, recording, sha};

/// Beyond this, a writer changes its clients rather than adding more, so
/// photos and recordings get replaced (and their old blobs deleted) often.
const CLIENTS_PER_WRITER: usize = 6;

enum Write {
    Create,
    Patch(u64),
    Photo(u64),
    Recording(u64),
    Delete(u64),
}

/// Writes until the server dies under it; records what was acknowledged.
pub(super) fn writer(http: Http, ledger: Arc<Mutex<Ledger>>, me: usize, mut rng: StdRng) {
    loop {
        let mine: Vec<u64> = {
            let ledger = ledger.lock().unwrap();
            let mut ids: Vec<u64> = ledger.clients.iter().filter(|(_, e)| e.writer == me).map(|(id, _)| *id).collect();
            ids.sort_unstable();
            ids
        };
        let write = if mine.is_empty() || (mine.len() < CLIENTS_PER_WRITER && rng.random_bool(0.4)) {
            Write::Create
        } else {
            let id = mine[rng.random_range(0..mine.len())];
            match rng.random_range(0..100) {
                0..35 => Write::Patch(id),
                35..65 => Write::Photo(id),
                65..92 => Write::Recording(id),
                _ => Write::Delete(id),
            }
        };
        if !write_once(&http, &ledger, me, &mut rng, write) {
            return;
        }
    }
}

/// One write and its entry in the ledger; false once the server is gone.
fn write_once(http: &Http, ledger: &Mutex<Ledger>, me: usize, rng: &mut StdRng, write: Write) -> bool {
    let (id, outcome, what) = match write {
        Write::Create => {
            let details = contact(rng);
            let outcome = http.json("POST", "/api/clients", &json!({"clientData": details}));
            let mut ledger = ledger.lock().unwrap();
            return match outcome {
                Outcome::Answered(201, body) => {
                    let client: Value = serde_json::from_slice(&body).unwrap();
                    let mut fields = details;
                    fields["summary"] = Value::Null;
                    fields["nextSteps"] = Value::Null;
                    assert_eq!(fields_of(&client), fields, "the created client as answered");
                    let entry = Entry {
                        writer: me,
                        fields: Known::new(fields),
                        photo: Known::new(None),
                        recording: Known::new(None),
                        deleted: Known::new(false),
                    };
                    ledger.clients.insert(client["id"].as_u64().unwrap(), entry);
                    ledger.acknowledged += 1;
                    true
                }
                Outcome::Answered(status, body) => {
                    panic!("create answered {status}: {}", String::from_utf8_lossy(&body))
                }
                Outcome::CutOff => {
                    ledger.lost_creates += 1;
                    ledger.cut_off += 1;
                    false
                }
            };
        }
        Write::Patch(id) => {
            let mut fields = contact(rng);
            fields["summary"] = json!(format!("Summary {}", rng.random::<u64>()));
            fields["nextSteps"] = json!(format!("Step {}\nStep {}", rng.random::<u32>(), rng.random::<u32>()));
            let outcome = http.json("PATCH", &format!("/api/clients/{id}"), &fields);
            (id, outcome, Pending::Fields(fields))
        }
        Write::Photo(id) => {
            let png = photo(rng);
            let outcome = http.json(
                "POST",
                &format!("/api/clients/{id}/photo"),
                &json!({"photo": crate::harness::data_url(&png)}),
            );
            (id, outcome, Pending::Photo(sha(&png)))
        }
        Write::Recording(id) => {
            let file = recording(rng);
            let (content_type, body) = multipart(&file);
            let outcome = http.send("POST", &format!("/api/clients/{id}/recording"), Some(&content_type), body);
            (id, outcome, Pending::Recording(sha(&file)))
        }
        Write::Delete(id) => {
            (id, http.send("DELETE", &format!("/api/clients/{id}"), None, Vec::new()), Pending::Delete)
        }
    };
    let mut ledger = ledger.lock().unwrap();
    let ledger = &mut *ledger;
    let entry = ledger.clients.get_mut(&id).unwrap();
    match outcome {
        Outcome::Answered(200, body) => {
            entry.deleted.ack(false);
            ledger.acknowledged += 1;
            let answer: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
            match what {
                Pending::Fields(fields) => {
                    assert_eq!(fields_of(&answer), fields, "client {id}: the PATCH as answered");
                    entry.fields.ack(fields);
                }
                Pending::Photo(sha) => {
                    assert!(answer["photoUrl"].is_string(), "client {id}: {answer}");
                    entry.photo.ack(Some(sha));
                }
                Pending::Recording(sha) => {
                    assert_eq!(answer["sha256"].as_str(), Some(sha.as_str()), "client {id}: the recording as answered");
                    entry.recording.ack(Some(sha));
                }
                Pending::Delete => ledger.forget(id),
            }
            true
        }
        // A delete cut off by an earlier kill may have landed after all.
        Outcome::Answered(404, _) if entry.deleted.allows(&true) => {
            ledger.forget(id);
            true
        }
        Outcome::Answered(status, body) => {
            panic!("client {id}: a write answered {status}: {}", String::from_utf8_lossy(&body))
        }
        Outcome::CutOff => {
            ledger.cut_off += 1;
            match what {
                Pending::Fields(fields) => entry.fields.lost(fields),
                Pending::Photo(sha) => entry.photo.lost(Some(sha)),
                Pending::Recording(sha) => entry.recording.lost(Some(sha)),
                Pending::Delete => entry.deleted.lost(true),
            }
            false
        }
    }
}

enum Pending {
    Fields(Fields),
    Photo(String),
    Recording(String),
    Delete,
}

//! After each restart: the file as the kill left it passes redb's
//! integrity check, and every client read back through the API matches the
//! ledger, its photo and recording whole.

use std::collections::HashSet;
use std::path::Path;

use super::http::{Http, Outcome};
use super::ledger::{Entry, Known, Ledger, fields_of};
use super::payloads::sha;

/// Reads a stored file in full: a record pointing at a missing or partial
/// blob fails here.
fn file_sha(http: &Http, url: &str, what: &str) -> String {
    match http.send("GET", url, None, Vec::new()) {
        Outcome::Answered(200, body) => sha(&body),
        Outcome::Answered(status, body) => {
            panic!("{what}: {url} is referenced but answers {status}: {}", String::from_utf8_lossy(&body))
        }
        Outcome::CutOff => panic!("{what}: {url} is referenced but cannot be read whole"),
    }
}

/// Reads every client through the API and checks it against the ledger;
/// what a lost write left is then known.
pub(super) fn verify(http: &Http, ledger: &mut Ledger, round: usize) {
    let listed: HashSet<u64> =
        http.get_json("/api/clients").as_array().unwrap().iter().map(|c| c["id"].as_u64().unwrap()).collect();
    for id in &ledger.deleted {
        assert!(!listed.contains(id), "round {round}: client {id} was deleted with a 2xx but is listed");
    }
    for id in std::mem::take(&mut ledger.newly_deleted) {
        assert_eq!(http.get(&format!("/api/clients/{id}")).0, 404, "round {round}: deleted client {id}");
    }
    let ids: Vec<u64> = ledger.clients.keys().copied().collect();
    for id in ids {
        let what = format!("round {round}, client {id}");
        let entry = ledger.clients.get_mut(&id).unwrap();
        if !listed.contains(&id) {
            assert!(entry.deleted.allows(&true), "{what}: acknowledged, never deleted, but missing from the list");
            assert_eq!(http.get(&format!("/api/clients/{id}")).0, 404, "{what}");
            ledger.clients.remove(&id);
            ledger.deleted.insert(id);
            continue;
        }
        entry.deleted.settle(false, &what);
        let client = http.get_json(&format!("/api/clients/{id}"));
        entry.fields.settle(fields_of(&client), &format!("{what}, fields"));
        let photo = client["photoUrl"].as_str().map(|url| file_sha(http, url, &what));
        entry.photo.settle(photo, &format!("{what}, photo"));
        let recording = client["recordingUrl"].as_str().map(|url| file_sha(http, url, &what));
        assert_eq!(
            client["recording"]["sha256"].as_str(),
            recording.as_deref(),
            "{what}: the recording's record and its bytes"
        );
        entry.recording.settle(recording, &format!("{what}, recording"));
    }
    // Clients whose create was cut off: at most one per such create, and whole.
    let unknown: Vec<u64> = listed.iter().filter(|id| !ledger.clients.contains_key(id)).copied().collect();
    assert!(
        unknown.len() <= ledger.lost_creates,
        "round {round}: {} clients nobody acknowledged, from {} cut-off creates",
        unknown.len(),
        ledger.lost_creates
    );
    for id in unknown {
        let what = format!("round {round}, client {id} (create cut off)");
        let client = http.get_json(&format!("/api/clients/{id}"));
        let photo = client["photoUrl"].as_str().map(|url| file_sha(http, url, &what));
        let recording = client["recordingUrl"].as_str().map(|url| file_sha(http, url, &what));
        // Kept and checked from now on; no writer changes it.
        let entry = Entry {
            writer: usize::MAX,
            fields: Known::new(fields_of(&client)),
            photo: Known::new(photo),
            recording: Known::new(recording),
            deleted: Known::new(false),
        };
        ledger.clients.insert(id, entry);
    }
    ledger.lost_creates = 0;
}

/// redb's integrity check on a copy of the file exactly as the kill left
/// it, so the restart still has to recover the original by itself.
pub(super) fn intact_after_kill(data: &Path, scratch: &Path) -> bool {
    let copy = scratch.join("killed.redb");
    std::fs::copy(data.join("debrief.redb"), &copy).unwrap();
    let intact = debrief::store::check_integrity(&copy).unwrap();
    std::fs::remove_file(&copy).unwrap();
    intact
}

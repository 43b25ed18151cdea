//! The real server killed outright (SIGKILL), at a random moment, fifty
//! times over one data directory while writers keep it busy: every restart
//! succeeds, the file passes redb's integrity check, and every write the
//! server acknowledged is there, with its photo and recording whole.

use std::collections::{HashMap, HashSet};
use std::fmt::Debug;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::browser::signed_in_user;
use crate::harness::{TestApp, spawn_with};

const ROUNDS: usize = 50;
const WRITERS: usize = 3;
/// Beyond this, a writer changes its clients rather than adding more, so
/// photos and recordings get replaced (and their old blobs deleted) often.
const CLIENTS_PER_WRITER: usize = 6;
const PASSWORD: &str = "correct horse";
/// Replays a run: the kill delays and each writer's choices (how far a
/// writer gets before the kill still depends on timing).
const SEED_VAR: &str = "DEBRIEF_CRASH_SEED";

/// How a request ended: answered in full, or cut off by the kill.
enum Outcome {
    Answered(u16, Vec<u8>),
    CutOff,
}

struct Http {
    agent: ureq::Agent,
    base: String,
    cookie: String,
}

impl Http {
    fn new(base: &str, cookie: &str) -> Self {
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(30)))
            .build()
            .new_agent();
        Self { agent, base: base.to_owned(), cookie: cookie.to_owned() }
    }

    fn send(&self, method: &str, path: &str, content_type: Option<&str>, body: Vec<u8>) -> Outcome {
        let mut req = ureq::http::Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.base))
            .header("Cookie", format!("debrief_session={}", self.cookie))
            .header("Origin", &self.base);
        if let Some(content_type) = content_type {
            req = req.header("Content-Type", content_type);
        }
        match self.agent.run(req.body(body).unwrap()) {
            Ok(mut res) => match res.body_mut().with_config().limit(16 << 20).read_to_vec() {
                Ok(bytes) => Outcome::Answered(res.status().as_u16(), bytes),
                Err(_) => Outcome::CutOff,
            },
            Err(_) => Outcome::CutOff,
        }
    }

    fn json(&self, method: &str, path: &str, body: &Value) -> Outcome {
        self.send(method, path, Some("application/json"), body.to_string().into_bytes())
    }

    /// A read of a running server, which must answer.
    fn get(&self, path: &str) -> (u16, Vec<u8>) {
        match self.send("GET", path, None, Vec::new()) {
            Outcome::Answered(status, body) => (status, body),
            Outcome::CutOff => panic!("GET {path}: no answer from a running server"),
        }
    }

    fn get_json(&self, path: &str) -> Value {
        let (status, body) = self.get(path);
        assert_eq!(status, 200, "GET {path}: {}", String::from_utf8_lossy(&body));
        serde_json::from_slice(&body).unwrap()
    }
}

/// A value as last acknowledged, and the values of writes whose answer was
/// lost to a kill: each of those may or may not have landed.
#[derive(Debug)]
struct Known<T> {
    acked: T,
    unsure: Vec<T>,
}

impl<T: PartialEq + Debug> Known<T> {
    fn new(acked: T) -> Self {
        Self { acked, unsure: Vec::new() }
    }

    fn ack(&mut self, value: T) {
        self.acked = value;
        self.unsure.clear();
    }

    fn lost(&mut self, value: T) {
        self.unsure.push(value);
    }

    fn allows(&self, value: &T) -> bool {
        self.acked == *value || self.unsure.contains(value)
    }

    /// What the server shows must be the acknowledged value or a lost one;
    /// from then on it is known.
    fn settle(&mut self, seen: T, what: &str) {
        assert!(
            self.allows(&seen),
            "{what}: the server has {seen:?}, but the last acknowledged write was {:?} (unacknowledged since: {:?})",
            self.acked,
            self.unsure
        );
        self.ack(seen);
    }
}

/// The contact fields and texts of a client, as the API shows them.
type Fields = Value;
/// The SHA-256 of a stored file.
type Sha = Option<String>;

struct Entry {
    /// Only this writer changes the client, so its history is sequential.
    writer: usize,
    fields: Known<Fields>,
    photo: Known<Sha>,
    recording: Known<Sha>,
    deleted: Known<bool>,
}

#[derive(Default)]
struct Ledger {
    clients: HashMap<u64, Entry>,
    /// Deleted with a 2xx: must stay gone.
    deleted: HashSet<u64>,
    /// Deleted since the last verification, each read once more (a 404).
    newly_deleted: Vec<u64>,
    /// Creates cut off since the last verification: each may have made a client.
    lost_creates: usize,
    acknowledged: usize,
    cut_off: usize,
}

impl Ledger {
    fn forget(&mut self, id: u64) {
        self.clients.remove(&id);
        self.deleted.insert(id);
        self.newly_deleted.push(id);
    }
}

pub fn sha(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

fn fields_of(client: &Value) -> Fields {
    json!({
        "name": client["name"], "email": client["email"], "phone": client["phone"],
        "company": client["company"], "position": client["position"],
        "summary": client["summary"], "nextSteps": client["nextSteps"],
    })
}

fn letters(rng: &mut StdRng, n: usize) -> String {
    (0..n).map(|_| char::from(b'a' + rng.random_range(0..26u8))).collect()
}

/// Contact details already in the form the server stores them in.
fn contact(rng: &mut StdRng) -> Value {
    json!({
        "name": format!("Client {}", letters(rng, 8)),
        "email": format!("{}@client.example", letters(rng, 6)),
        "phone": format!("555 {:03} {:04}", rng.random_range(0..1000), rng.random_range(0..10_000)),
        "company": format!("Company {}", rng.random::<u32>()),
        "position": format!("Position {}", rng.random::<u32>()),
    })
}

/// A PNG of noise of a random size: every photo distinct.
pub fn photo(rng: &mut StdRng) -> Vec<u8> {
    let (w, h) = (rng.random_range(1..64u32), rng.random_range(1..64u32));
    let mut pixels = vec![0u8; (w * h * 3) as usize];
    rng.fill(&mut pixels[..]);
    let mut png = Vec::new();
    image::write_buffer_with_format(
        &mut std::io::Cursor::new(&mut png),
        &pixels,
        w,
        h,
        image::ExtendedColorType::Rgb8,
        image::ImageFormat::Png,
    )
    .unwrap();
    png
}

/// A recording of a random length: mostly short, one in five over a chunk
/// (1 MiB) so the kill also lands between the chunks of one upload.
fn recording(rng: &mut StdRng) -> Vec<u8> {
    let seconds = if rng.random_bool(0.2) { rng.random_range(33.0..36.0) } else { rng.random_range(0.1..2.0) };
    wav(rng, seconds)
}

/// A 16 kHz mono 16-bit WAV of noise: every recording distinct.
pub fn wav(rng: &mut StdRng, seconds: f64) -> Vec<u8> {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: 16_000,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut out = std::io::Cursor::new(Vec::new());
    let mut writer = hound::WavWriter::new(&mut out, spec).unwrap();
    for _ in 0..(16_000.0 * seconds) as u32 {
        writer.write_sample(rng.random::<i16>() / 4).unwrap();
    }
    writer.finalize().unwrap();
    out.into_inner()
}

fn multipart(file: &[u8]) -> (String, Vec<u8>) {
    let boundary = "----debrief-crash-boundary";
    let mut body = Vec::new();
    body.extend_from_slice(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"recording\"; filename=\"recording.wav\"\r\nContent-Type: audio/wav\r\n\r\n").as_bytes());
    body.extend_from_slice(file);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

enum Write {
    Create,
    Patch(u64),
    Photo(u64),
    Recording(u64),
    Delete(u64),
}

/// Writes until the server dies under it; records what was acknowledged.
fn writer(http: Http, ledger: Arc<Mutex<Ledger>>, me: usize, mut rng: StdRng) {
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
fn verify(http: &Http, ledger: &mut Ledger, round: usize) {
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
fn intact_after_kill(data: &Path, scratch: &Path) -> bool {
    let copy = scratch.join("killed.redb");
    std::fs::copy(data.join("debrief.redb"), &copy).unwrap();
    let intact = debrief::store::check_integrity(&copy).unwrap();
    std::fs::remove_file(&copy).unwrap();
    intact
}

#[test]
fn fifty_kills_mid_write_lose_no_acknowledged_write_and_leave_no_dangling_blob() {
    let started = Instant::now();
    let seed: u64 = match std::env::var(SEED_VAR) {
        Ok(seed) => seed.parse().unwrap_or_else(|_| panic!("{SEED_VAR} must be a number")),
        Err(_) => rand::random(),
    };
    println!("crash loop seed {seed}: {SEED_VAR}={seed} replays it");
    let mut rng = StdRng::seed_from_u64(seed);
    let data = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    // No models: recordings queue jobs that wait for one, and cost nothing.
    let models = tempfile::tempdir().unwrap();
    let args = ["--http", "--models-dir", models.path().to_str().unwrap()];
    let start = |round: usize| -> TestApp {
        spawn_with(data.path(), &args)
            .unwrap_or_else(|printed| panic!("seed {seed}, round {round}: the server did not start again:\n{printed}"))
    };

    let mut spent = [Duration::ZERO; 4]; // serving, checking the file, restarting, verifying
    let mut app = start(0);
    let cookie = signed_in_user(&app.url, "crash@example.com", PASSWORD).cookie.unwrap();
    let ledger = Arc::new(Mutex::new(Ledger::default()));
    for round in 1..=ROUNDS {
        let http = Http::new(&app.url, &cookie);
        assert_eq!(http.get("/api/auth/me").0, 200, "seed {seed}, round {round}: the session outlives kill -9");
        let writers: Vec<_> = (0..WRITERS)
            .map(|me| {
                let (http, ledger, rng) =
                    (Http::new(&app.url, &cookie), ledger.clone(), StdRng::seed_from_u64(rng.random()));
                std::thread::spawn(move || writer(http, ledger, me, rng))
            })
            .collect();
        let t = Instant::now();
        std::thread::sleep(Duration::from_millis(rng.random_range(50..=1500)));
        assert_eq!(http.get("/api/health").0, 200, "seed {seed}, round {round}: the server was up until the kill");
        app.kill();
        for writer in writers {
            writer.join().unwrap_or_else(|_| panic!("seed {seed}, round {round}: a writer failed (above)"));
        }
        spent[0] += t.elapsed();
        let t = Instant::now();
        assert!(
            intact_after_kill(data.path(), scratch.path()),
            "seed {seed}, round {round}: the file fails redb's integrity check"
        );
        spent[1] += t.elapsed();

        let t = Instant::now();
        app = start(round);
        spent[2] += t.elapsed();
        // Every round: a write lost to this kill could be overwritten in the next.
        let t = Instant::now();
        verify(&Http::new(&app.url, &cookie), &mut ledger.lock().unwrap(), round);
        spent[3] += t.elapsed();
    }
    assert!(app.terminate().success());
    assert!(
        debrief::store::check_integrity(&data.path().join("debrief.redb")).unwrap(),
        "seed {seed}: after a clean stop"
    );

    let ledger = ledger.lock().unwrap();
    println!(
        "seed {seed}: {ROUNDS} kills, {} writes acknowledged, {} cut off, {} clients and {} deleted checked, in {:.1?} \
         (serving {:.1?}, checking the file {:.1?}, restarting {:.1?}, verifying {:.1?})",
        ledger.acknowledged,
        ledger.cut_off,
        ledger.clients.len(),
        ledger.deleted.len(),
        started.elapsed(),
        spent[0],
        spent[1],
        spent[2],
        spent[3]
    );
    assert!(
        ledger.acknowledged >= ROUNDS * 5,
        "seed {seed}: too few writes ({}) to prove anything",
        ledger.acknowledged
    );
}

//! The real server killed outright (SIGKILL), at a random moment, fifty
//! times over one data directory while writers keep it busy: every restart
//! succeeds, the file passes redb's integrity check, and every write the
//! server acknowledged is there, with its photo and recording whole.
//!
//! The loop is here; the files below hold its parts: the HTTP client that
//! tells a cut-off request from an answered one, the ledger of what was
//! acknowledged, the random payloads, the writers, and the verification.

mod http;
mod ledger;
mod payloads;
mod verify;
mod writer;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::browser::signed_in_user;
use crate::harness::{TestApp, spawn_with};
use http::Http;
use ledger::Ledger;
pub use payloads::{photo, sha, wav};
use verify::{intact_after_kill, verify};
use writer::writer;

const ROUNDS: usize = 50;
const WRITERS: usize = 3;

const PASSWORD: &str = "correct horse";

/// Replays a run: the kill delays and each writer's choices (how far a
/// writer gets before the kill still depends on timing).
const SEED_VAR: &str = "DEBRIEF_CRASH_SEED";

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

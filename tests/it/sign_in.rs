//! Signing in under attack: throttling by address and by account, answers
//! that do not tell accounts apart even by their timing, and password
//! hashing that never starves the rest of the server.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::browser::{Browser, signed_in_user};
use crate::harness::{client, spawn_app_with};

const PASSWORD: &str = "correct horse";

/// `POST /api/auth/login` from the loopback address `source` (Linux
/// answers on all of 127/8), so the server sees distinct clients.
fn login_from(source: Ipv4Addr, base: &str, email: &str, password: &str) -> u16 {
    let server: SocketAddr = base.trim_start_matches("http://").parse().unwrap();
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    socket.bind(&SocketAddr::from((source, 0)).into()).unwrap();
    socket.connect(&server.into()).unwrap();
    let mut stream = std::net::TcpStream::from(socket);
    let body = json!({"email": email, "password": password}).to_string();
    let request = format!(
        "POST /api/auth/login HTTP/1.1\r\nHost: {server}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer[9..12].parse().unwrap()
}

fn login(browser: &mut Browser, email: &str, password: &str) -> u16 {
    browser.post("/api/auth/login", json!({"email": email, "password": password})).status
}

#[test]
fn failures_from_one_address_block_it_even_for_other_accounts() {
    let app = spawn_app_with(&["--login-max-failures", "3"]);
    signed_in_user(&app.url, "victim@example.com", PASSWORD);
    let attacker = Ipv4Addr::new(127, 0, 0, 2);
    for n in 0..3 {
        assert_eq!(login_from(attacker, &app.url, &format!("guess{n}@example.com"), "guess"), 401);
    }
    assert_eq!(
        login_from(attacker, &app.url, "victim@example.com", PASSWORD),
        429,
        "the address is blocked, whatever the account"
    );
    assert_eq!(
        login_from(Ipv4Addr::new(127, 0, 0, 3), &app.url, "victim@example.com", PASSWORD),
        200,
        "other addresses are not"
    );
}

#[test]
fn failures_on_one_account_from_many_addresses_block_the_account() {
    let app = spawn_app_with(&["--login-max-failures", "3"]);
    signed_in_user(&app.url, "target@example.com", PASSWORD);
    signed_in_user(&app.url, "bystander@example.com", PASSWORD);
    for last in 2..5 {
        assert_eq!(login_from(Ipv4Addr::new(127, 0, 0, last), &app.url, "target@example.com", "guess"), 401);
    }
    let fresh = Ipv4Addr::new(127, 0, 0, 5);
    assert_eq!(
        login_from(fresh, &app.url, "target@example.com", PASSWORD),
        429,
        "the account is blocked, whatever the address"
    );
    assert_eq!(login_from(fresh, &app.url, "bystander@example.com", PASSWORD), 200, "other accounts are not");
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// Median times of a wrong password for a real account and of any password
/// for an unknown one, over 30 alternating attempts each.
fn login_medians(base: &str) -> (Duration, Duration) {
    let mut anyone = Browser::new(base);
    let (mut wrong, mut unknown) = (Vec::new(), Vec::new());
    for n in 0..30 {
        let started = Instant::now();
        assert_eq!(login(&mut anyone, "known@example.com", "wrong horse"), 401);
        wrong.push(started.elapsed());
        let started = Instant::now();
        assert_eq!(login(&mut anyone, &format!("nobody{n}@example.com"), "wrong horse"), 401);
        unknown.push(started.elapsed());
    }
    (median(wrong), median(unknown))
}

#[test]
fn an_unknown_email_takes_as_long_as_a_wrong_password() {
    let app = spawn_app_with(&["--login-max-failures", "1000"]);
    signed_in_user(&app.url, "known@example.com", PASSWORD);
    let within = |(a, b): (Duration, Duration)| a.abs_diff(b).as_secs_f64() <= 0.2 * a.max(b).as_secs_f64();
    let first = login_medians(&app.url);
    // Other tests share the cores: only a difference seen twice counts.
    let second = if within(first) { first } else { login_medians(&app.url) };
    assert!(
        within(second),
        "median wrong password {:?} vs unknown email {:?} (first try {first:?})",
        second.0,
        second.1
    );
}

/// 99th percentile of `GET /api/health` over `samples` calls while
/// `logins` threads sign in over and over.
fn health_p99_during_logins(base: &str, logins: usize, samples: usize) -> Duration {
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let workers: Vec<_> = (0..logins)
        .map(|_| {
            let (base, stop) = (base.to_owned(), stop.clone());
            std::thread::spawn(move || {
                let mut browser = Browser::new(&base);
                let mut done = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    assert_eq!(login(&mut browser, "busy@example.com", PASSWORD), 200);
                    done += 1;
                }
                done
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let agent = client();
    let mut times = Vec::with_capacity(samples);
    for _ in 0..samples {
        let started = Instant::now();
        assert_eq!(agent.get(format!("{base}/api/health")).call().unwrap().status(), 200);
        times.push(started.elapsed());
        std::thread::sleep(Duration::from_millis(10));
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let logged_in: u32 = workers.into_iter().map(|w| w.join().unwrap()).sum();
    assert!(logged_in >= logins as u32, "every thread signed in at least once ({logged_in} logins)");
    times.sort();
    times[samples * 99 / 100]
}

#[test]
fn the_server_answers_quickly_while_eight_browsers_sign_in_at_once() {
    let app = spawn_app_with(&[]);
    signed_in_user(&app.url, "busy@example.com", PASSWORD);
    let budget = Duration::from_millis(100);
    let first = health_p99_during_logins(&app.url, 8, 200);
    // Other tests share the cores: only a slow answer seen twice counts.
    let p99 = if first < budget { first } else { health_p99_during_logins(&app.url, 8, 200) };
    assert!(p99 < budget, "GET /api/health p99 {p99:?} during 8 concurrent logins (first try {first:?})");
}

#[test]
fn probing_signup_for_existing_accounts_is_throttled_like_password_guessing() {
    let app = spawn_app_with(&["--login-max-failures", "3"]);
    for n in 0..3 {
        signed_in_user(&app.url, &format!("member{n}@example.com"), PASSWORD);
    }
    let mut prober = Browser::new(&app.url);
    for n in 0..3 {
        let taken =
            prober.post("/api/auth/signup", crate::browser::signup_form(&format!("member{n}@example.com"), PASSWORD));
        assert_eq!(taken.status, 409, "{}", taken.text);
    }
    let blocked = prober.post("/api/auth/signup", crate::browser::signup_form("newcomer@example.com", PASSWORD));
    assert_eq!(blocked.status, 429, "{}", blocked.text);
    assert!(blocked.text.contains("Too many failed"), "{}", blocked.text);
}

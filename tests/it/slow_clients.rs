//! Clients that hold connections without using them: a cap on connections
//! in all and per address, a minimum rate for request bodies, and a cap on
//! the event streams of one sign-in. The server keeps answering others.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use crate::browser::signed_in_user;
use crate::clients::{create, wav};
use crate::harness::{TestApp, spawn_app, spawn_app_with};
use crate::probe::multipart;

/// A connection to `app` from the loopback address `from` (all of 127/8
/// is this machine), so tests can be several clients at once.
fn connect_from(app: &TestApp, from: &str) -> TcpStream {
    let server: SocketAddr = app.url.trim_start_matches("http://").parse().unwrap();
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    socket.bind(&format!("{from}:0").parse::<SocketAddr>().unwrap().into()).unwrap();
    socket.connect(&server.into()).unwrap();
    socket.into()
}

/// The status of `GET /api/health` asked from `from`, and how long it took.
fn health_from(app: &TestApp, from: &str) -> (u16, Duration) {
    let started = Instant::now();
    let mut stream = connect_from(app, from);
    stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    stream.write_all(b"GET /api/health HTTP/1.1\r\nHost: debrief\r\nConnection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    (status_of(&answer), started.elapsed())
}

fn status_of(answer: &str) -> u16 {
    answer.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0)
}

/// A sign-in whose body is announced at 60,000 bytes and never sent.
fn hold_a_login(app: &TestApp, from: &str) -> TcpStream {
    let mut stream = connect_from(app, from);
    let head = format!(
        "POST /api/auth/login HTTP/1.1\r\nHost: debrief\r\nOrigin: {}\r\nContent-Type: application/json\r\n\
         Content-Length: 60000\r\n\r\n{{",
        app.url
    );
    let _ = stream.write_all(head.as_bytes());
    stream
}

/// Whether the server has closed `stream`: a read meets its end or a reset
/// at once, where an open connection makes it wait.
fn closed_by_server(stream: &mut TcpStream) -> bool {
    stream.set_read_timeout(Some(Duration::from_millis(300))).unwrap();
    match stream.read(&mut [0u8; 1]) {
        Ok(n) => n == 0,
        Err(e) => !matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut),
    }
}

#[test]
fn connections_past_the_per_address_cap_are_closed_while_another_address_is_served_at_once() {
    let app = spawn_app_with(&["--max-connections-per-address", "20"]);
    let mut held: Vec<TcpStream> = (0..40).map(|_| hold_a_login(&app, "127.0.0.1")).collect();
    std::thread::sleep(Duration::from_millis(500));
    let closed = held.iter_mut().map(closed_by_server).filter(|c| *c).count();
    assert_eq!(closed, 20, "twenty held, twenty closed unread");
    let (status, took) = health_from(&app, "127.0.0.2");
    assert_eq!(status, 200);
    assert!(took < Duration::from_secs(1), "{took:?}");
    let lines = app.printed().matches("refused connections").count();
    assert_eq!(lines, 1, "one log line a minute, whatever the count:\n{}", app.printed());
    assert!(app.printed().contains("20 are open from one address"), "{}", app.printed());
    drop(held);
    std::thread::sleep(Duration::from_millis(300));
    let (status, _) = health_from(&app, "127.0.0.1");
    assert_eq!(status, 200, "closed connections leave the count");
}

#[test]
fn a_trickling_body_is_cut_off_with_408_while_a_slow_steady_upload_finishes() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "owner@example.com", "correct horse");
    let id = create(&mut user, "Jane Client");
    let cookie = user.cookie.clone().unwrap();
    std::thread::scope(|s| {
        let trickle = s.spawn(|| {
            let started = Instant::now();
            let mut stream = hold_a_login(&app, "127.0.0.3");
            stream.set_read_timeout(Some(Duration::from_millis(100))).unwrap();
            let mut answer = Vec::new();
            while started.elapsed() < Duration::from_secs(50) {
                let _ = stream.write_all(b" ");
                let mut piece = [0u8; 4096];
                let waited = Instant::now();
                while waited.elapsed() < Duration::from_secs(5) {
                    match stream.read(&mut piece) {
                        Ok(0) => return (answer, started.elapsed()),
                        Ok(n) => answer.extend_from_slice(&piece[..n]),
                        Err(_) => {}
                    }
                }
            }
            (answer, started.elapsed())
        });
        // 1.2 MB at 40 KB a second: half a minute, above the minimum rate.
        let steady = s.spawn(|| {
            let (content_type, body) = multipart("recording", &wav(37.0));
            let mut stream = connect_from(&app, "127.0.0.4");
            let head = format!(
                "POST /api/clients/{id}/recording HTTP/1.1\r\nHost: debrief\r\nOrigin: {}\r\n\
                 Cookie: debrief_session={cookie}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
                app.url,
                body.len()
            );
            stream.write_all(head.as_bytes()).unwrap();
            for piece in body.chunks(4096) {
                stream.write_all(piece).unwrap();
                std::thread::sleep(Duration::from_millis(100));
            }
            stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
            let mut answer = vec![0u8; 4096];
            let n = stream.read(&mut answer).unwrap();
            String::from_utf8_lossy(&answer[..n]).into_owned()
        });
        let (answer, took) = trickle.join().unwrap();
        let answer = String::from_utf8_lossy(&answer).into_owned();
        assert_eq!(status_of(&answer), 408, "{answer}");
        assert!(answer.contains("The request body arrived too slowly"), "{answer}");
        assert!((Duration::from_secs(29)..Duration::from_secs(45)).contains(&took), "{took:?}");
        let steady = steady.join().unwrap();
        assert_eq!(status_of(&steady), 200, "{steady}");
    });
}

#[test]
fn one_sign_in_holds_at_most_eight_event_streams_and_a_closed_one_makes_room() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "owner@example.com", "correct horse");
    let id = create(&mut user, "Jane Client");
    let cookie = user.cookie.clone().unwrap();
    let open = || {
        let mut stream = connect_from(&app, "127.0.0.1");
        let head = format!(
            "GET /api/clients/{id}/events HTTP/1.1\r\nHost: debrief\r\nCookie: debrief_session={cookie}\r\n\
             Accept: text/event-stream\r\n\r\n"
        );
        stream.write_all(head.as_bytes()).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut answer = vec![0u8; 1024];
        let n = stream.read(&mut answer).unwrap_or(0);
        (status_of(&String::from_utf8_lossy(&answer[..n])), stream)
    };
    let mut streams: Vec<TcpStream> = (0..8)
        .map(|_| {
            let (status, stream) = open();
            assert_eq!(status, 200);
            stream
        })
        .collect();
    assert_eq!(open().0, 429, "a ninth stream of the same sign-in");
    let mut other = signed_in_user(&app.url, "other@example.com", "correct horse");
    let theirs = create(&mut other, "Their Client");
    assert_eq!(other.get(&format!("/api/clients/{theirs}")).status, 200, "another sign-in is not held back");
    streams.pop();
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(open().0, 200, "a closed stream makes room");
}

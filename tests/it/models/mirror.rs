//! A loopback HTTP server for the install tests: real sockets, Range
//! honoured, and faults on the first request of a file.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the mirror does to the first request for a file.
#[derive(Clone, Copy, PartialEq)]
pub enum Fault {
    None,
    /// Sends this many bytes of the body, then closes the connection.
    CutAfter(usize),
    /// Sends this many bytes of the body, then goes quiet.
    StallAfter(usize),
    /// Answers every request with the whole file (200), Range or not.
    IgnoreRange,
}

/// Each request the mirror saw: its path and its Range header.
pub type Seen = Mutex<Vec<(String, Option<String>)>>;

pub struct Mirror {
    pub base: String,
    pub seen: Arc<Seen>,
}

impl Mirror {
    pub fn start(files: Vec<(&str, Vec<u8>)>, fault: Fault) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let files: Arc<HashMap<String, Vec<u8>>> =
            Arc::new(files.into_iter().map(|(p, b)| (format!("/{p}"), b)).collect());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let shared = seen.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (files, seen) = (files.clone(), shared.clone());
                std::thread::spawn(move || serve(stream, &files, &seen, fault));
            }
        });
        Self { base, seen }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}/{path}", self.base)
    }

    pub fn ranges(&self, path: &str) -> Vec<Option<String>> {
        self.seen.lock().unwrap().iter().filter(|(p, _)| p == &format!("/{path}")).map(|(_, r)| r.clone()).collect()
    }
}

pub fn serve(mut stream: TcpStream, files: &HashMap<String, Vec<u8>>, seen: &Seen, fault: Fault) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut request_line = String::new();
    reader.read_line(&mut request_line).unwrap();
    let path = request_line.split_whitespace().nth(1).unwrap_or("/").to_owned();
    let mut range = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("range")
        {
            range = Some(value.trim().to_owned());
        }
    }
    let first = {
        let mut seen = seen.lock().unwrap();
        let first = !seen.iter().any(|(p, _)| *p == path);
        seen.push((path.clone(), range.clone()));
        first
    };
    let Some(body) = files.get(&path) else {
        let _ = stream.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        return;
    };
    let start = range
        .as_deref()
        .filter(|_| fault != Fault::IgnoreRange)
        .and_then(|r| r.strip_prefix("bytes=")?.strip_suffix('-')?.parse::<usize>().ok());
    let (head, rest) = match start {
        Some(start) if start >= body.len() => {
            let head = format!(
                "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */{}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                body.len()
            );
            (head, &body[..0])
        }
        Some(start) => (
            format!(
                "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes {start}-{}/{}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len() - 1,
                body.len(),
                body.len() - start
            ),
            &body[start..],
        ),
        None => (format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len()), &body[..]),
    };
    let _ = stream.write_all(head.as_bytes());
    match fault {
        Fault::CutAfter(n) if first => {
            let _ = stream.write_all(&rest[..n]);
        }
        Fault::StallAfter(n) if first => {
            let _ = stream.write_all(&rest[..n]);
            let _ = stream.flush();
            // Quiet long enough for the test to interrupt the client.
            std::thread::sleep(Duration::from_secs(30));
        }
        _ => {
            let _ = stream.write_all(rest);
        }
    }
}

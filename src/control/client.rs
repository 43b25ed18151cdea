use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::Duration;

use super::{Request, Response};

/// Sends one request to the server listening on `path`.
///
/// Fails with `NotFound`/`ConnectionRefused` when no server listens there,
/// which callers take as "open the database directly".
pub fn call(path: &Path, request: &Request, timeout: Duration) -> std::io::Result<Response> {
    let mut stream = UnixStream::connect(path)?;
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(timeout))?;
    let mut line = serde_json::to_vec(request)?;
    line.push(b'\n');
    stream.write_all(&line)?;
    let mut answer = String::new();
    BufReader::new(stream).read_line(&mut answer)?;
    serde_json::from_str(&answer).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

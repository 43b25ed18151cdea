//! A real SMTP server on loopback (aiosmtpd, from PyPI) that files every
//! message it receives in a maildir, with the envelope recipients as
//! `X-RcptTo` headers.

use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub struct SmtpServer {
    port: u16,
    maildir: tempfile::TempDir,
    child: Child,
}

impl SmtpServer {
    pub fn start() -> Self {
        let python = std::env::var("DEBRIEF_TEST_PYTHON").unwrap_or_else(|_| "python3".to_owned());
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let maildir = tempfile::tempdir().unwrap();
        let mut child = Command::new(&python)
            .args(["-m", "aiosmtpd", "-n", "-l", &format!("127.0.0.1:{port}"), "-c", "aiosmtpd.handlers.Mailbox"])
            .arg(maildir.path().join("mail"))
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start aiosmtpd with {python} ({e}); scripts/test installs it"));
        for _ in 0..100 {
            if TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Self { port, maildir, child };
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = child.kill();
        let _ = child.wait();
        panic!("aiosmtpd did not start listening on {port}");
    }

    /// Plain SMTP on loopback, as `--smtp-url` takes it.
    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// Every message received so far, raw.
    pub fn messages(&self) -> Vec<String> {
        let new: PathBuf = self.maildir.path().join("mail/new");
        let Ok(entries) = std::fs::read_dir(new) else { return Vec::new() };
        entries.filter_map(Result::ok).filter_map(|e| std::fs::read_to_string(e.path()).ok()).collect()
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

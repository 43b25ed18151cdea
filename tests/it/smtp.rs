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

    /// The messages once `count` of them have arrived (within 5 s).
    pub fn wait_for(&self, count: usize) -> Vec<String> {
        for _ in 0..100 {
            let found = self.messages();
            if found.len() >= count {
                return found;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("{count} message(s) expected, {} arrived", self.messages().len());
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::SmtpServer;
    use crate::browser::{Browser, signed_in_user};
    use crate::follow_up::client_with_summary;
    use crate::harness::spawn_app_with;

    #[test]
    fn every_email_carries_a_message_id_on_the_sender_domain_and_a_date() {
        let smtp = SmtpServer::start();
        let app = spawn_app_with(&["--smtp-url", &smtp.url(), "--mail-from", "debrief@mail.example.com"]);
        let mut ana = signed_in_user(&app.url, "ana@consulting.example", "correct horse");
        let id = client_with_summary(&mut ana);
        assert_eq!(ana.post(&format!("/api/clients/{id}/send-email"), json!({})).status, 200);
        let reset = Browser::new(&app.url).post("/api/auth/reset-password", json!({"email": "ana@consulting.example"}));
        assert_eq!(reset.status, 200);

        let messages = smtp.wait_for(2);
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
        let mut ids = Vec::new();
        for raw in &messages {
            let mail = mailparse::parse_mail(raw.as_bytes()).unwrap();
            let one = |name: &str| {
                let values: Vec<String> = mail
                    .headers
                    .iter()
                    .filter(|h| h.get_key().eq_ignore_ascii_case(name))
                    .map(|h| h.get_value())
                    .collect();
                assert_eq!(values.len(), 1, "one {name} header in:\n{raw}");
                values[0].clone()
            };
            let id = one("Message-ID");
            assert!(id.starts_with('<') && id.ends_with("@mail.example.com>"), "{id}");
            ids.push(id);
            let date = mailparse::dateparse(&one("Date")).unwrap();
            assert!((date - now).abs() < 60, "Date {date} is not the sending time {now}");
        }
        assert_ne!(ids[0], ids[1], "each email has its own Message-ID");
    }
}

//! Starts the real `debrief` binary on port 0 with a fresh data directory,
//! and talks to it over HTTP(S) like a browser would.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub const BIN: &str = env!("CARGO_BIN_EXE_debrief");
pub const ADMIN_PASSWORD: &str = "a long admin passphrase";

pub struct TestApp {
    pub url: String,
    pub data_dir: PathBuf,
    child: Child,
    output: Arc<Mutex<Vec<String>>>,
    _temp: Option<tempfile::TempDir>,
}

/// Plain HTTP on 127.0.0.1, a fresh data directory.
pub fn spawn_app() -> TestApp {
    spawn_app_with(&[])
}

/// [`spawn_app`] with more `serve` flags (shorter lifetimes, SMTP, …).
pub fn spawn_app_with(args: &[&str]) -> TestApp {
    let temp = tempfile::tempdir().unwrap();
    let data_dir = temp.path().to_owned();
    let mut all = vec!["--http"];
    all.extend_from_slice(args);
    let mut app = spawn_with(&data_dir, &all).expect("the server starts");
    app._temp = Some(temp);
    app
}

/// `debrief serve ARGS` on `data_dir`, bound to 127.0.0.1:0 unless ARGS
/// say otherwise; the error carries everything the process printed when it
/// exits before its ready line.
pub fn spawn_with(data_dir: &Path, args: &[&str]) -> Result<TestApp, String> {
    spawn_program(Command::new(BIN), data_dir, args)
}

/// [`spawn_with`] for `program`, a command that runs some build of debrief
/// (the Raspberry Pi's under an emulator, say).
pub fn spawn_program(mut program: Command, data_dir: &Path, args: &[&str]) -> Result<TestApp, String> {
    let bind: &[&str] = if args.contains(&"--bind") { &[] } else { &["--bind", "127.0.0.1:0"] };
    let mut child = program
        .arg("serve")
        .args(bind)
        .arg("--data-dir")
        .arg(data_dir)
        .args(args)
        .env_remove("DEBRIEF_DEV_ASSETS")
        // Tests sign many accounts up from one address; the throttle's own
        // test sets it with the flag, which wins over this.
        .env("DEBRIEF_SIGNUPS_PER_HOUR", "100000")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let output = Arc::new(Mutex::new(Vec::new()));
    let (ready_tx, ready_rx) = mpsc::channel();
    for stream in [
        Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
        Box::new(child.stderr.take().unwrap()),
    ] {
        let output = output.clone();
        let ready_tx = ready_tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                let ready = line.strip_prefix("ready: ").map(str::to_owned);
                output.lock().unwrap().push(line);
                if let Some(url) = ready {
                    let _ = ready_tx.send(url);
                }
            }
        });
    }
    drop(ready_tx);
    match ready_rx.recv_timeout(Duration::from_secs(30)) {
        Ok(url) => Ok(TestApp { url, data_dir: data_dir.to_owned(), child, output, _temp: None }),
        Err(_) => {
            let _ = child.kill();
            let _ = child.wait();
            Err(output.lock().unwrap().join("\n"))
        }
    }
}

impl TestApp {
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGTERM, then wait for the exit status; the data directory stays.
    pub fn terminate(&mut self) -> std::process::ExitStatus {
        signal(self.child.id(), "TERM");
        wait_with_timeout(&mut self.child, Duration::from_secs(15))
    }

    /// SIGKILL, as a power cut or the OOM killer would: no clean-up runs.
    pub fn kill(&mut self) {
        signal(self.child.id(), "KILL");
        wait_with_timeout(&mut self.child, Duration::from_secs(15));
    }

    pub fn printed(&self) -> String {
        self.output.lock().unwrap().join("\n")
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn signal(pid: u32, name: &str) {
    let status = Command::new("kill").arg(format!("-{name}")).arg(pid.to_string()).status().unwrap();
    assert!(status.success());
}

fn wait_with_timeout(child: &mut Child, timeout: Duration) -> std::process::ExitStatus {
    let deadline = std::time::Instant::now() + timeout;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(std::time::Instant::now() < deadline, "the server did not exit within {timeout:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// An HTTP client that returns every status as a response, not an error.
pub fn client() -> ureq::Agent {
    ureq::Agent::config_builder().http_status_as_error(false).build().new_agent()
}

/// An HTTP client that trusts only `ca_pem` (the local authority of a
/// data directory, or a certificate of one's own).
pub fn agent_trusting(ca_pem: &[u8]) -> ureq::Agent {
    let ca = ureq::tls::Certificate::from_pem(ca_pem).unwrap();
    let tls = ureq::tls::TlsConfig::builder().root_certs(ureq::tls::RootCerts::Specific(Arc::new(vec![ca]))).build();
    ureq::Agent::config_builder().tls_config(tls).http_status_as_error(false).build().new_agent()
}

/// Runs `debrief ARGS --data-dir DIR` to completion.
pub fn cli(data_dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(BIN).args(args).arg("--data-dir").arg(data_dir).output().expect("the binary runs")
}

/// `debrief admin create --username NAME --password-stdin` run by
/// `program`, some build of debrief.
pub fn create_admin_with(mut program: Command, data_dir: &Path, username: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = program
        .args(["admin", "create", "--username", username, "--password-stdin", "--data-dir"])
        .arg(data_dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().unwrap().write_all(format!("{ADMIN_PASSWORD}\n").as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

pub fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

/// Sends only the head of a POST announcing `content_length` bytes, waiting
/// for "100 Continue" as careful clients do, and returns the status the
/// server answers before any body arrives.
pub fn status_before_body(base: &str, path: &str, cookie: &str, content_type: &str, content_length: u64) -> u16 {
    use std::io::{Read, Write};
    let address = base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nOrigin: {base}\r\nCookie: debrief_session={cookie}\r\n\
         Content-Type: {content_type}\r\nContent-Length: {content_length}\r\nExpect: 100-continue\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut answer = [0u8; 12];
    stream.read_exact(&mut answer).unwrap();
    String::from_utf8_lossy(&answer[9..12]).parse().unwrap()
}

/// The real models and speech fetched by `scripts/test-models`; a test that
/// needs them fails (never skips) when they are missing.
pub fn test_models() -> PathBuf {
    let dir = std::env::var_os("DEBRIEF_TEST_MODELS")
        .map(PathBuf::from)
        .unwrap_or_else(|| "/var/cache/debrief/models".into());
    assert!(dir.join("librivox").is_dir(), "test models missing in {}: run scripts/test-models", dir.display());
    dir
}

/// `bytes` as the browser sends a photo: a data URL claiming a PNG.
pub fn data_url(bytes: &[u8]) -> String {
    use base64::Engine;
    format!("data:image/png;base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes))
}

/// A 16 kHz mono 16-bit WAV of `samples`, as the browser's recorder makes.
pub fn wav_of(samples: impl IntoIterator<Item = i16>) -> Vec<u8> {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: 16_000,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut out = std::io::Cursor::new(Vec::new());
    let mut writer = hound::WavWriter::new(&mut out, spec).unwrap();
    for sample in samples {
        writer.write_sample(sample).unwrap();
    }
    writer.finalize().unwrap();
    out.into_inner()
}

//! Downloads one catalogue file into a folder and verifies it.
//!
//! The bytes go to `NAME.part`, written as they arrive, so an interrupted
//! run (a cut connection, Ctrl-C) leaves a prefix that the next run resumes
//! with a Range request; a server that ignores Range sends everything again
//! and the part file starts over. Only a file whose sha256 matches is
//! renamed to `NAME`; a mismatch deletes the part file.
//!
//! A download cache (`--download-cache`), when given, keeps a copy of each
//! verified file under its sha256, so that installing on several boxes or
//! again with `--force` downloads nothing twice. A cached file is verified
//! again before it is used.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use sha2::{Digest, Sha256};
use ureq::tls::{Certificate, PemItem, RootCerts, TlsConfig, parse_pem};

use super::catalog::RemoteFile;
use crate::progress::Progress;

/// Fetches catalogue files: over HTTP, or from the download cache.
pub struct Downloader {
    agent: ureq::Agent,
    cache: Option<PathBuf>,
}

impl Downloader {
    pub fn new(cache: Option<PathBuf>) -> Self {
        Self { agent: agent(), cache }
    }

    /// Downloads `file` into `dir` unless a verified copy is there or in the
    /// cache already, and returns the verified file.
    pub fn fetch(&self, file: &RemoteFile, sha256: &str, dir: &Path, label: &str) -> anyhow::Result<PathBuf> {
        let done = dir.join(file.download_name());
        if done.is_file() {
            if sha256_of(&done)?.eq_ignore_ascii_case(sha256) {
                return Ok(done);
            }
            fs::remove_file(&done)?;
        }
        let cached = self.cache.as_ref().map(|cache| cache.join(sha256.to_ascii_lowercase()));
        if let Some(cached) = cached.as_ref().filter(|c| c.is_file()) {
            let part = dir.join(format!("{}.part", file.download_name()));
            fs::copy(cached, &part).with_context(|| format!("cannot copy {}", cached.display()))?;
            if sha256_of(&part)?.eq_ignore_ascii_case(sha256) {
                eprintln!("{label}: {} taken from the download cache", file.download_name());
                fs::rename(&part, &done)?;
                return Ok(done);
            }
            // A damaged cache entry is replaced by a fresh download.
            fs::remove_file(&part)?;
            fs::remove_file(cached)?;
        }
        download(&self.agent, file, sha256, dir, label)?;
        if let Some(cached) = cached {
            keep(&done, &cached);
        }
        Ok(done)
    }
}

/// Copies a verified download into the cache; a cache that cannot be
/// written costs only the next download.
fn keep(done: &Path, cached: &Path) {
    let Some(cache) = cached.parent() else { return };
    let temporary = cache.join(format!(".{}-{}", std::process::id(), done.file_name().unwrap_or_default().display()));
    let copied = fs::create_dir_all(cache)
        .and_then(|()| fs::copy(done, &temporary))
        .and_then(|_| fs::rename(&temporary, cached));
    if let Err(e) = copied {
        let _ = fs::remove_file(&temporary);
        eprintln!("warning: cannot keep {} in the download cache {}: {e}", done.display(), cache.display());
    }
}

/// An HTTP client for downloads: statuses are handled here, a read that
/// stalls for a minute fails (and leaves a resumable part file).
pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_connect(Some(Duration::from_secs(30)))
        .timeout_per_read(Some(Duration::from_secs(60)))
        .user_agent(concat!("debrief/", env!("CARGO_PKG_VERSION")))
        .tls_config(TlsConfig::builder().root_certs(root_certs()).build())
        .build()
        .new_agent()
}

/// Where Linux distributions keep the bundle of trusted certificates.
const SYSTEM_BUNDLES: [&str; 3] =
    ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/cert.pem"];

/// The authorities this machine trusts (`SSL_CERT_FILE`, or the system's
/// bundle), as curl and pip do: a network that inspects TLS adds its own
/// there. Mozilla's built-in list when there is none. The checksums, not
/// the connection, are what prove a download genuine.
fn root_certs() -> RootCerts {
    let bundle = std::env::var_os("SSL_CERT_FILE")
        .map(PathBuf::from)
        .into_iter()
        .chain(SYSTEM_BUNDLES.iter().map(PathBuf::from))
        .find(|path| path.is_file());
    let pem = bundle.and_then(|path| fs::read(path).ok()).unwrap_or_default();
    let certs: Vec<Certificate<'static>> = parse_pem(&pem)
        .filter_map(|item| match item {
            Ok(PemItem::Certificate(cert)) => Some(cert),
            _ => None,
        })
        .collect();
    if certs.is_empty() { RootCerts::WebPki } else { RootCerts::new_with_certs(&certs) }
}

/// Downloads `file` into `dir` as `NAME` and verifies it, resuming a part
/// file an earlier run left.
fn download(agent: &ureq::Agent, file: &RemoteFile, sha256: &str, dir: &Path, label: &str) -> anyhow::Result<()> {
    let name = file.download_name();
    let done = dir.join(&name);
    let part = dir.join(format!("{name}.part"));
    let offset = fs::metadata(&part).map(|m| m.len()).unwrap_or(0);
    let label = format!("{label}: {name}");

    let mut request = agent.get(&file.url);
    if offset > 0 {
        request = request.header("Range", format!("bytes={offset}-"));
    }
    let response = request.call().with_context(|| format!("{label}: cannot download {}", file.url))?;
    let status = response.status().as_u16();
    let length = response.body().content_length();
    // What the response holds: the rest of the part file, all of it, or nothing more.
    let (start, total) = match status {
        206 if offset > 0 => {
            let range = response.headers().get("content-range").and_then(|v| v.to_str().ok()).unwrap_or_default();
            if content_range_start(range) != Some(offset) {
                bail!(
                    "{label}: the server answered a resumed download with the range '{range}'; delete {} and try again",
                    part.display()
                );
            }
            (offset, length.map(|l| offset + l))
        }
        200 => {
            if offset > 0 {
                eprintln!("{label}: the server cannot resume downloads; starting again");
            }
            (0, length)
        }
        // The part file holds everything already (the run stopped before verifying).
        416 if offset > 0 => (offset, Some(offset)),
        _ => bail!("{label}: {} answered HTTP {status}", file.url),
    };

    if status != 416 {
        let mut out = if start == 0 { File::create(&part) } else { OpenOptions::new().append(true).open(&part) }
            .with_context(|| format!("cannot write {}", part.display()))?;
        let mut progress = Progress::bytes(&label, start, total.or(Some(file.size)));
        let copied = copy(response.into_body().into_reader(), &mut out, &mut progress);
        if let Err(e) = copied {
            let have = fs::metadata(&part).map(|m| m.len()).unwrap_or(0);
            bail!("{label}: the download stopped after {have} bytes ({e}); run the same command again to resume");
        }
        progress.finish();
    }

    let actual = sha256_of(&part)?;
    if !actual.eq_ignore_ascii_case(sha256) {
        fs::remove_file(&part)?;
        bail!(
            "{label}: checksum mismatch for {}: expected sha256 {sha256}, got {actual}. \
             The download was deleted and nothing was installed; if this happens again, the file upstream has changed",
            file.url
        );
    }
    fs::rename(&part, &done)?;
    Ok(())
}

/// Copies as the bytes arrive (no buffer to lose on Ctrl-C beyond one read).
fn copy(mut from: impl Read, to: &mut File, progress: &mut Progress) -> io::Result<()> {
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        let n = match from.read(&mut buffer) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        to.write_all(&buffer[..n])?;
        progress.advance(n as u64);
    }
}

/// The first byte of `bytes START-END/TOTAL`.
fn content_range_start(value: &str) -> Option<u64> {
    value.strip_prefix("bytes ")?.split('-').next()?.trim().parse().ok()
}

pub fn sha256_of(path: &Path) -> anyhow::Result<String> {
    let mut file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut hasher = Sha256::new();
    io::copy(&mut file, &mut hasher)?;
    Ok(hex(&hasher.finalize()))
}

/// Lowercase hex, as catalogues write a sha256.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

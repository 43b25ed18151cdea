//! `debrief doctor`: one line per part, each ok or not with the fix.

use std::time::Duration;

use crate::asr::{AsrChoice, Plan};
use crate::control::{self, Request, Response};
use crate::datadir::DataDir;
use crate::mail::Sender;
use crate::models::{Kind, ModelsDir, install_hint};
use crate::store::Store;
use crate::summarise::SummariserStatus;
use crate::tls::{CertInfo, LocalCa};

#[derive(Debug, Default, clap::Args)]
pub struct DoctorArgs {
    /// The sender address to check when no server runs (a running server
    /// reports its own) [default: debrief@HOST.local]
    #[arg(long, env = "DEBRIEF_MAIL_FROM", value_name = "ADDRESS")]
    mail_from: Option<String>,
}

struct Report {
    failed: bool,
}

impl Report {
    fn line(&mut self, part: &str, state: State, detail: impl AsRef<str>) {
        if state == State::Error {
            self.failed = true;
        }
        println!("{part:<10} {:<8} {}", state.label(), detail.as_ref());
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Ok,
    Missing,
    Error,
    Running,
    Stopped,
    /// Works, but will not for long (disk space).
    Low,
    /// Works here, but fails elsewhere (mail receivers).
    Warning,
}

impl State {
    fn label(self) -> &'static str {
        match self {
            State::Ok => "ok",
            State::Missing => "missing",
            State::Error => "error",
            State::Running => "running",
            State::Stopped => "stopped",
            State::Low => "low",
            State::Warning => "warning",
        }
    }
}

pub fn run(data_dir: &DataDir, models: &ModelsDir, args: &DoctorArgs) -> anyhow::Result<i32> {
    let mut report = Report { failed: false };
    check_ocr(&mut report);
    check_engines(&mut report, models);
    if !data_dir.root().is_dir() {
        report.line(
            "data dir",
            State::Missing,
            format!("{} (created by `debrief serve` or `debrief admin create`)", data_dir.root().display()),
        );
        return Ok(0);
    }
    match data_dir.open_to_others() {
        Some(mode) => report.line(
            "data dir",
            State::Warning,
            format!(
                "{} can be read by other accounts on this machine (mode {mode:o}): `chmod 700 {}`",
                data_dir.root().display(),
                data_dir.root().display()
            ),
        ),
        None => report.line("data dir", State::Ok, data_dir.root().display().to_string()),
    }
    let size = std::fs::metadata(data_dir.database()).map(|m| m.len()).unwrap_or(0);
    match data_dir.free_bytes() {
        Some(free) if free < 500_000_000 => report.line(
            "disk",
            State::Low,
            format!(
                "{} free, database {}: free some space (uploads stop below 100 MB)",
                megabytes(free),
                megabytes(size)
            ),
        ),
        Some(free) => report.line(
            "disk",
            State::Ok,
            format!(
                "{} free, database {} (`debrief compact` shrinks it after deletions)",
                megabytes(free),
                megabytes(size)
            ),
        ),
        None => report.line("disk", State::Missing, "free space unknown"),
    }

    match control::call(&data_dir.control_socket(), &Request::Status, Duration::from_secs(5)) {
        Ok(Response::Status(status)) => {
            report.line(
                "server",
                State::Running,
                format!("pid {}, {} (version {}, up {} s)", status.pid, status.url, status.version, status.uptime_secs),
            );
            for url in &status.lan_urls {
                report.line("", State::Ok, format!("phones: {url}"));
            }
            report.line(
                "database",
                State::Ok,
                format!("schema {} (through the running server)", status.schema_version),
            );
            check_storage(&mut report, data_dir);
            report.line("tls", State::Ok, status.tls);
            check_sender(&mut report, &status.mail_from, status.mail_warning.as_deref());
        }
        Ok(Response::Error { message }) => report.line("server", State::Error, message),
        Ok(other) => report.line("server", State::Error, format!("unexpected answer: {other:?}")),
        Err(_) => match data_dir.running_instance() {
            Some(holder) => report.line(
                "server",
                State::Error,
                format!(
                    "pid {} holds the data directory but its control socket does not answer; restart it",
                    holder.pid
                ),
            ),
            None => {
                report.line("server", State::Stopped, "start it with `debrief serve`");
                check_database(&mut report, data_dir);
                if data_dir.database().exists() {
                    check_storage(&mut report, data_dir);
                }
                check_local_ca(&mut report, data_dir);
                let sender = Sender::new(args.mail_from.as_deref(), None);
                check_sender(&mut report, &sender.address, sender.warning.as_deref());
            }
        },
    }
    Ok(if report.failed { 1 } else { 0 })
}

/// Each engine and model, and what `auto` would pick: the server starts
/// without any of them, so this is where a user learns what is missing.
fn check_engines(report: &mut Report, models: &ModelsDir) {
    let found = |path: Option<std::path::PathBuf>| path.map(|p| p.display().to_string());
    let lines = [
        (
            "libvosk",
            crate::asr::vosk::find_library(models).map(|lib| lib.location().to_owned()).map_err(|e| e.to_string()),
        ),
        ("vosk", found(models.vosk_model()).ok_or_else(|| format!("no Vosk model: `{}`", install_hint(Kind::Vosk)))),
        (
            "whisper",
            found(models.whisper_model()).ok_or_else(|| format!("no Whisper model: `{}`", install_hint(Kind::Whisper))),
        ),
    ];
    for (part, state) in lines {
        match state {
            Ok(detail) => report.line(part, State::Ok, detail),
            Err(fix) => report.line(part, State::Missing, fix),
        }
    }
    let kernels = crate::asr::Kernels::detect();
    report.line(
        "kernels",
        State::Ok,
        format!("{}: int8 decoder on {} (checked), f32 products on {}", kernels.cpu, kernels.int8, kernels.f32),
    );
    for refused in kernels.int8_refused {
        report.line("", State::Error, format!("{refused} gives other sums than the portable code and is not used"));
    }
    match crate::asr::plan(AsrChoice::Auto, models) {
        Ok(Plan::Whisper { .. }) => report.line("speech", State::Ok, "transcribes with Whisper (--asr auto)"),
        Ok(Plan::Vosk { .. }) => report.line("speech", State::Ok, "transcribes with Vosk (--asr auto)"),
        Err(e) => report.line("speech", State::Missing, format!("recordings wait until a model is installed. {e}")),
    }
    let summaries = SummariserStatus::of(models);
    report.line("summary", State::Ok, format!("summarises with {} (--summariser auto)", summaries.auto()));
    for missing in summaries.missing() {
        report.line("", State::Missing, missing);
    }
}

/// Tesseract, and the language data cards are read with: the Latin script
/// keeps the accents of European names, English alone drops them.
fn check_ocr(report: &mut Report) {
    use crate::ocr::tesseract::{self, ENGLISH, LATIN};
    let Some(version) = tesseract::version() else {
        let fix = "business-card scanning needs: apt-get install tesseract-ocr tesseract-ocr-script-latn";
        return report.line("ocr", State::Missing, fix);
    };
    report.line("ocr", State::Ok, version);
    let installed = tesseract::installed().map(|i| i.languages).unwrap_or_default();
    let has = |language: &str| installed.iter().any(|l| l == language);
    let latin_fix = "apt-get install tesseract-ocr-script-latn";
    if has(LATIN) {
        report.line("ocr data", State::Ok, "Latin script: accented names of European languages are read");
    } else if has(ENGLISH) {
        report.line("ocr data", State::Missing, format!("English only, accents are dropped: {latin_fix}"));
    } else {
        report.line("ocr data", State::Missing, format!("no language data, cards cannot be read: {latin_fix}"));
    }
}

fn check_database(report: &mut Report, data_dir: &DataDir) {
    let path = data_dir.database();
    if !path.exists() {
        report.line(
            "database",
            State::Missing,
            format!("{} (created by `debrief serve` or `debrief admin create`)", path.display()),
        );
        return;
    }
    match Store::open(&path).and_then(|store| store.schema_version()) {
        Ok(version) => report.line("database", State::Ok, format!("schema {version}, {}", path.display())),
        Err(e) => report.line("database", State::Error, format!("{e}; restore a backup or move the file away")),
    }
}

/// Where the space goes, through the running server when there is one.
fn check_storage(report: &mut Report, data_dir: &DataDir) {
    match super::remote::run(data_dir, Request::StorageShow, super::remote::default_context) {
        Ok(Response::Storage { storage }) => {
            let state = if storage.low_on_space { State::Low } else { State::Ok };
            report.line("storage", state, super::storage::describe(&storage));
        }
        Ok(other) => report.line("storage", State::Error, format!("unexpected answer: {other:?}")),
        Err(e) => report.line("storage", State::Error, e.to_string()),
    }
}

fn check_local_ca(report: &mut Report, data_dir: &DataDir) {
    let ca = LocalCa::new(data_dir.tls_dir());
    match std::fs::read_to_string(ca.ca_cert_path()).ok().as_deref().and_then(CertInfo::parse) {
        Some(info) => {
            report.line("tls", State::Ok, format!("local certificate authority valid until {}", info.not_after.date()))
        }
        None => report.line(
            "tls",
            State::Missing,
            "the local certificate authority is created by `debrief serve` (not needed with --http or --tls-cert)",
        ),
    }
}

/// Whether mail from this sender can pass SPF and DMARC at its receivers.
fn check_sender(report: &mut Report, address: &str, warning: Option<&str>) {
    match warning {
        Some(warning) => report.line("mail", State::Warning, warning),
        None => report.line("mail", State::Ok, format!("sender {address}")),
    }
}

fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

//! Lifetimes, windows and outside services of a running server. Each is a
//! flag and a `DEBRIEF_*` variable with a sensible default; tests shorten
//! the lifetimes instead of sleeping.

use std::time::Duration;

use clap::Args;

#[derive(Debug, Clone, Args)]
pub struct Settings {
    /// The address phones and emailed links use, and the only origin allowed
    /// to change anything [default: the first LAN URL printed at start-up]
    #[arg(long, env = "DEBRIEF_PUBLIC_URL", value_name = "URL", value_parser = parse_public_url)]
    pub public_url: Option<String>,

    /// SMTP server for outgoing email: smtps://user:pass@host:465,
    /// smtp://user:pass@host:587?tls=required, or smtp://host:25 (no TLS).
    /// Without it, emails are written to the outbox folder in the data dir.
    #[arg(long, env = "DEBRIEF_SMTP_URL", value_name = "URL", hide_env_values = true)]
    pub smtp_url: Option<String>,

    /// Sender address of outgoing email [default: debrief@HOST.local]
    #[arg(long, env = "DEBRIEF_MAIL_FROM", value_name = "ADDRESS")]
    pub mail_from: Option<String>,

    /// How long a sign-in lasts without use (sliding), e.g. 30d, 12h, 90s.
    #[arg(long, env = "DEBRIEF_SESSION_TTL", default_value = "30d", value_parser = parse_duration, value_name = "DURATION")]
    pub session_ttl: Duration,

    /// How long a password-reset link stays valid.
    #[arg(long, env = "DEBRIEF_RESET_TTL", default_value = "1h", value_parser = parse_duration, value_name = "DURATION")]
    pub reset_ttl: Duration,

    /// Most connections open at once; by default half of what the open-file
    /// limit leaves after the database and model files, at most 4096.
    #[arg(long, env = "DEBRIEF_MAX_CONNECTIONS", value_name = "N")]
    pub max_connections: Option<usize>,

    /// Most connections open at once from one client address (an IPv6 /64).
    #[arg(long, env = "DEBRIEF_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = 64, value_name = "N")]
    pub max_connections_per_address: usize,

    /// Accounts one client address may create in an hour (an IPv6 /64).
    /// Behind a reverse proxy every sign-up comes from the proxy's address:
    /// raise it there.
    #[arg(long, env = "DEBRIEF_SIGNUPS_PER_HOUR", default_value_t = 10, value_name = "N")]
    pub signups_per_hour: usize,

    /// Failed sign-ins allowed per client address and per account within the window.
    #[arg(long, env = "DEBRIEF_LOGIN_MAX_FAILURES", default_value_t = 10, value_name = "N")]
    pub login_max_failures: usize,

    /// The window of --login-max-failures.
    #[arg(long, env = "DEBRIEF_LOGIN_WINDOW", default_value = "15m", value_parser = parse_duration, value_name = "DURATION")]
    pub login_window: Duration,

    /// An admin session ends after this long without use …
    #[arg(long, env = "DEBRIEF_ADMIN_IDLE", default_value = "30m", value_parser = parse_duration, value_name = "DURATION")]
    pub admin_idle: Duration,

    /// … and after this long in any case.
    #[arg(long, env = "DEBRIEF_ADMIN_MAX_AGE", default_value = "8h", value_parser = parse_duration, value_name = "DURATION")]
    pub admin_max_age: Duration,

    /// Failed admin sign-ins allowed per address and per username within --login-window.
    #[arg(long, env = "DEBRIEF_ADMIN_LOGIN_MAX_FAILURES", default_value_t = 5, value_name = "N")]
    pub admin_login_max_failures: usize,

    /// Shortest time between two follow-up emails to the same client.
    #[arg(long, env = "DEBRIEF_SEND_WINDOW", default_value = "60s", value_parser = parse_duration, value_name = "DURATION")]
    pub send_window: Duration,

    /// Most follow-up emails one user may send in an hour.
    #[arg(long, env = "DEBRIEF_FOLLOW_UPS_PER_HOUR", default_value_t = 30, value_name = "N")]
    pub follow_ups_per_hour: usize,

    /// How long emails stay in the outbox folder (they hold clients' personal data).
    #[arg(long, env = "DEBRIEF_OUTBOX_RETENTION", default_value = "30d", value_parser = parse_duration, value_name = "DURATION")]
    pub outbox_retention: Duration,

    /// Uploads are refused (507) when they would leave less free disk than this, in bytes.
    #[arg(long, env = "DEBRIEF_MIN_FREE_DISK", default_value_t = 100_000_000, value_name = "BYTES")]
    pub min_free_disk: u64,

    /// Largest recording accepted, in bytes [default: 3 hours of 16 kHz mono]
    #[arg(long, env = "DEBRIEF_MAX_RECORDING", default_value_t = 400_000_000, value_name = "BYTES")]
    pub max_recording: u64,

    /// Longest recording accepted, read from its WAV header before it is
    /// stored: transcription holds the whole of it in memory (3 h take 690 MB).
    #[arg(long, env = "DEBRIEF_MAX_RECORDING_DURATION", default_value = "3h", value_parser = parse_duration, value_name = "DURATION")]
    pub max_recording_duration: Duration,

    /// Speech-to-text engine: auto takes what is installed (with both,
    /// Whisper on x86_64 with 4 or more cores, Vosk otherwise).
    #[arg(long, env = "DEBRIEF_ASR", default_value = "auto", value_enum)]
    pub asr: crate::asr::AsrChoice,

    /// How Whisper's decoder holds its weights: int8 is faster and smaller
    /// at the same words on the speech benchmark, f32 the reference.
    #[arg(long, env = "DEBRIEF_ASR_PRECISION", default_value = "int8", value_enum)]
    pub asr_precision: crate::asr::AsrPrecision,

    /// Summariser: auto takes the sentence-embedding model when installed,
    /// else a lexical method that needs no model.
    #[arg(long, env = "DEBRIEF_SUMMARISER", default_value = "auto", value_enum)]
    pub summariser: crate::summarise::SummariserChoice,

    /// Recordings processed at once (each keeps the cores busy for minutes).
    #[arg(long, env = "DEBRIEF_WORKERS", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=16), value_name = "N")]
    pub workers: u16,

    /// Password hashes computed at once (each takes 19 MiB and a core).
    #[arg(long, env = "DEBRIEF_HASH_CONCURRENCY", default_value_t = 2, value_name = "N")]
    pub hash_concurrency: usize,
}

/// `90s`, `15m`, `12h`, `30d`, or plain seconds.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let split = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let n: u64 = number.parse().map_err(|_| format!("'{text}' is not a duration like 90s, 15m, 12h or 30d"))?;
    let seconds = match unit {
        "" | "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => return Err(format!("'{text}' has an unknown unit; use s, m, h or d")),
    };
    Ok(Duration::from_secs(n.saturating_mul(seconds)))
}

/// An http(s) origin, optionally with a path; kept without a trailing slash.
fn parse_public_url(text: &str) -> Result<String, String> {
    let url = text.trim().trim_end_matches('/');
    if crate::domain::text::is_web_url(url) {
        Ok(url.to_owned())
    } else {
        Err(format!("'{text}' is not an http(s) URL such as https://debrief.example.com"))
    }
}

/// The origin (`scheme://host[:port]`) of a URL.
pub fn origin_of(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("https", url));
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    format!("{}://{}", scheme.to_ascii_lowercase(), host.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_with_their_units() {
        assert_eq!(parse_duration("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("15m"), Ok(Duration::from_secs(900)));
        assert_eq!(parse_duration("30d"), Ok(Duration::from_secs(30 * 86_400)));
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("3w").is_err());
    }

    #[test]
    fn origins_drop_paths_and_case() {
        assert_eq!(origin_of("https://Debrief.example.com/app/"), "https://debrief.example.com");
        assert_eq!(origin_of("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
    }
}

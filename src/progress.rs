//! Progress of long work on stderr: a bar on a terminal, a plain line every
//! tenth of the way otherwise (a log file or a pipe wants no redraws). Used
//! for downloads (in bytes) and for transcribing and summarising (in percent).

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

pub struct Progress {
    label: String,
    unit: Unit,
    total: Option<u64>,
    done: u64,
    shown: Shown,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Unit {
    Bytes,
    Percent,
}

enum Shown {
    Bar(ProgressBar),
    /// The last tenth printed.
    Lines(u64),
}

impl Progress {
    /// A download from `done` bytes (a resumed one) of `total`, if known.
    pub fn bytes(label: &str, done: u64, total: Option<u64>) -> Self {
        let template = "{msg} [{bar:30}] {decimal_bytes}/{decimal_total_bytes} {decimal_bytes_per_sec} {eta}";
        let progress = Self::start(label, Unit::Bytes, done, total, template);
        if matches!(progress.shown, Shown::Lines(_)) {
            let size = total.map(|t| format!(" {}", megabytes(t))).unwrap_or_default();
            let from = if done > 0 { format!(", resuming at {}", megabytes(done)) } else { String::new() };
            eprintln!("{label}: downloading{size}{from}");
        }
        progress
    }

    /// Work measured in percent.
    pub fn percent(label: &str) -> Self {
        Self::start(label, Unit::Percent, 0, Some(100), "{msg:<14} [{bar:40}] {pos:>3}% {elapsed}")
    }

    fn start(label: &str, unit: Unit, done: u64, total: Option<u64>, template: &str) -> Self {
        let shown = if std::io::stderr().is_terminal() {
            let bar = total.map_or_else(ProgressBar::no_length, ProgressBar::new);
            let style = ProgressStyle::with_template(template)
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
            bar.set_style(style);
            bar.set_message(label.to_owned());
            bar.set_position(done);
            Shown::Bar(bar)
        } else {
            Shown::Lines(tenths(done, total))
        };
        Self { label: label.to_owned(), unit, total, done, shown }
    }

    /// `bytes` more are done.
    pub fn advance(&mut self, bytes: u64) {
        self.set(self.done + bytes);
    }

    /// `done` of the total are done.
    pub fn set(&mut self, done: u64) {
        self.done = done;
        match &mut self.shown {
            Shown::Bar(bar) => bar.set_position(done),
            Shown::Lines(last) => {
                let now = tenths(done, self.total);
                if now > *last && now < 10 {
                    *last = now;
                    match self.unit {
                        Unit::Bytes => eprintln!("{}: {now}0% ({})", self.label, megabytes(done)),
                        Unit::Percent => eprintln!("{}: {now}0%", self.label),
                    }
                }
            }
        }
    }

    pub fn finish(self) {
        match (&self.shown, self.unit) {
            // The bar stays, full, on its own line: one line per file or stage.
            (Shown::Bar(bar), _) => bar.finish(),
            (Shown::Lines(_), Unit::Bytes) => eprintln!("{}: downloaded {}", self.label, megabytes(self.done)),
            (Shown::Lines(_), Unit::Percent) => eprintln!("{}: done", self.label),
        }
    }
}

impl Drop for Progress {
    /// Work that stopped (an error, a cut download) leaves its bar where it
    /// stopped and ends the line, so the error that follows has its own.
    fn drop(&mut self) {
        if let Shown::Bar(bar) = &self.shown
            && !bar.is_finished()
        {
            bar.abandon();
        }
    }
}

fn tenths(done: u64, total: Option<u64>) -> u64 {
    total.filter(|t| *t > 0).map_or(0, |t| done.saturating_mul(10) / t)
}

pub fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

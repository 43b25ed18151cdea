//! `debrief jobs list|retry|retranscribe|export`: the transcription and summary jobs,
//! and the transcripts they wrote.

use clap::Subcommand;

use super::remote::{self, default_context};
use crate::control::{Request, Response};
use crate::datadir::DataDir;
use crate::domain::ids::ClientId;
use crate::ops::jobs::JobLine;

#[derive(Debug, Subcommand)]
pub enum JobsCommand {
    /// Every recording's job: unfinished first, then the latest.
    List {
        /// One JSON array instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Run a failed job again from the stage that failed.
    Retry {
        /// The client's id (the first column of `debrief jobs list`).
        client: ClientId,
    },
    /// Transcribe recordings again from their kept audio (after an
    /// upgrade that transcribes better), then summarise them again keeping
    /// the owners' edits and ticks of the next steps. Skips recordings whose
    /// audio the retention policy removed and, unless --force, transcripts
    /// their owner corrected.
    Retranscribe {
        /// The client's id (the first column of `debrief jobs list`).
        #[arg(long, required_unless_present = "all", conflicts_with = "all")]
        client: Option<ClientId>,
        /// Every client's recording.
        #[arg(long)]
        all: bool,
        /// Also replace transcripts their owner corrected.
        #[arg(long)]
        force: bool,
    },
    /// Print a client's transcript with its times: plain text, SubRip
    /// subtitles or WebVTT.
    Export {
        /// The client's id (the first column of `debrief jobs list`).
        client: ClientId,
        #[arg(long, default_value = "txt", value_parser = ["txt", "srt", "vtt"])]
        format: String,
    },
}

pub fn run(data_dir: &DataDir, command: JobsCommand) -> anyhow::Result<i32> {
    match command {
        JobsCommand::List { json } => match remote::run(data_dir, Request::JobList, default_context)? {
            Response::Jobs { jobs } if json => println!("{}", serde_json::to_string_pretty(&jobs)?),
            Response::Jobs { jobs } => print_table(&jobs),
            other => remote::print(&other),
        },
        JobsCommand::Retry { client } => {
            remote::print(&remote::run(data_dir, Request::JobRetry { client }, default_context)?)
        }
        JobsCommand::Retranscribe { client, all: _, force } => {
            remote::print(&remote::run(data_dir, Request::JobRetranscribe { client, force }, default_context)?)
        }
        JobsCommand::Export { client, format } => {
            remote::print(&remote::run(data_dir, Request::TranscriptExport { client, format }, default_context)?)
        }
    }
    Ok(0)
}

fn print_table(jobs: &[JobLine]) {
    if jobs.is_empty() {
        println!("no jobs: no recording has been uploaded yet");
        return;
    }
    println!("{:>6}  {:<18}  {:<24}  {:<28}  {:<20}  reason", "client", "status", "client name", "owner", "updated");
    for job in jobs {
        println!(
            "{:>6}  {:<18}  {:<24}  {:<28}  {:<20}  {}",
            job.client,
            job.status.as_str(),
            clip(&job.client_name, 24),
            clip(&job.owner_email, 28),
            job.updated_at.get(..19).unwrap_or(&job.updated_at),
            job.error.as_deref().unwrap_or("")
        );
    }
}

fn clip(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(width - 1).collect();
    cut.push('…');
    cut
}

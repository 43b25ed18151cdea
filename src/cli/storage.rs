//! `debrief retention`: how long recordings are kept, and where the space goes.

use clap::Subcommand;

use super::remote::{self, default_context};
use crate::control::Request;
use crate::datadir::DataDir;
use crate::store::StorageUse;

#[derive(Debug, Subcommand)]
pub enum RetentionCommand {
    /// Print the policy and the space used by recordings, photos and the database.
    Show,
    /// Delete the audio of recordings older than DAYS (1 to 3650); their
    /// transcripts, summaries and next steps are kept.
    Set { days: i64 },
    /// Keep recordings for good.
    Off,
}

pub fn run(data_dir: &DataDir, command: RetentionCommand) -> anyhow::Result<i32> {
    let request = match command {
        RetentionCommand::Show => Request::StorageShow,
        RetentionCommand::Set { days } => Request::RetentionSet { days: Some(days) },
        RetentionCommand::Off => Request::RetentionSet { days: None },
    };
    remote::print(&remote::run(data_dir, request, default_context)?);
    Ok(0)
}

/// One line on the space used and left.
pub fn describe(storage: &StorageUse) -> String {
    let mut line = format!(
        "recordings {}, photos {}, database {}; {} free of {}",
        megabytes(storage.recordings_bytes),
        megabytes(storage.photos_bytes),
        megabytes(storage.database_bytes),
        megabytes(storage.free_bytes),
        megabytes(storage.total_bytes),
    );
    if storage.low_on_space {
        line.push_str(": less than 10% of the disk is free");
    }
    if storage.pending_compression > 0 {
        line.push_str(&format!("; {} file(s) still to compress or move out", storage.pending_compression));
    }
    line
}

/// The retention policy in words.
pub fn policy(storage: &StorageUse) -> String {
    match storage.retention_days {
        Some(days) => format!(
            "recordings: their audio is deleted after {days} days (transcripts, summaries and next steps are kept)"
        ),
        None => "recordings: kept for good".to_owned(),
    }
}

fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

//! The command line: `debrief serve`, `debrief doctor`, …
//!
//! Every subcommand takes `--data-dir` (or `DEBRIEF_DATA_DIR`), so the CLI
//! and the server always agree on which database they mean.

mod admin;
mod doctor;
mod jobs;
mod maintenance;
mod models;
mod remote;
mod serve;
mod signup;
mod storage;
mod template;
mod transcribe;
mod user;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::datadir::DataDir;
use crate::models::ModelsDir;

#[derive(Debug, Parser)]
#[command(
    name = "debrief",
    version,
    about = "Record client meetings, transcribe and summarise them on this machine, and email the follow-up."
)]
struct Cli {
    /// Where the database, certificates and models live [default: the per-user data directory, e.g. ~/.local/share/debrief]
    #[arg(long, env = "DEBRIEF_DATA_DIR", global = true, value_name = "DIR")]
    data_dir: Option<PathBuf>,

    /// Where the speech and summary models live [default: models/ in the data dir]
    #[arg(long, env = "DEBRIEF_MODELS_DIR", global = true, value_name = "DIR")]
    models_dir: Option<PathBuf>,

    /// How much to log on stderr.
    #[arg(long, env = "DEBRIEF_LOG_LEVEL", global = true, default_value = "info", value_parser = ["error", "warn", "info", "debug", "trace"])]
    log_level: String,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
#[allow(clippy::large_enum_variant, reason = "parsed once per run")]
enum Command {
    /// Serve the app (HTTPS on all interfaces by default).
    Serve(serve::ServeArgs),
    /// Report what works and what is missing, with the fix for each.
    Doctor(doctor::DoctorArgs),
    /// Manage administrators.
    #[command(subcommand)]
    Admin(admin::AdminCommand),
    /// Manage user accounts.
    #[command(subcommand)]
    User(user::UserCommand),
    /// Show or change the follow-up email template.
    #[command(subcommand)]
    Template(template::TemplateCommand),
    /// Show or set who may create an account, and make invitation links.
    #[command(subcommand)]
    Signup(signup::SignupCommand),
    /// Transcribe a WAV file with the installed engine.
    Transcribe(transcribe::TranscribeArgs),
    /// Summarise a transcript (plain text) with the installed summariser.
    Summarise(transcribe::SummariseArgs),
    /// List and retry the jobs that transcribe and summarise recordings.
    #[command(subcommand)]
    Jobs(jobs::JobsCommand),
    /// Write a consistent copy of the database to FILE (also while serving).
    Backup { file: PathBuf },
    /// Replace the database with a backup (the server must be stopped).
    Restore { file: PathBuf },
    /// Shrink the database file after deletions (the server must be stopped).
    Compact,
    /// Show or set how long recordings are kept, and the space used.
    #[command(subcommand)]
    Retention(storage::RetentionCommand),
    /// List, install and import the speech and summary models.
    Models(models::ModelsArgs),
}

/// Parses the command line, runs the command and returns the exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return 0;
        }
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            return 2;
        }
        Err(e) => {
            // One clear line; `--help` has the rest.
            let rendered = e.render().to_string();
            let line: Vec<&str> =
                rendered.lines().map(str::trim).take_while(|l| !l.is_empty() && !l.starts_with("Usage:")).collect();
            eprintln!("{}", line.join(" "));
            return 2;
        }
    };
    init_logging(&cli.log_level);
    let explicit_models = cli.models_dir;
    let outcome = DataDir::resolve(cli.data_dir).and_then(|data_dir| {
        let models = explicit_models.map_or_else(|| ModelsDir::default_for(&data_dir), ModelsDir::new);
        run_command(cli.command, data_dir, models)
    });
    match outcome {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            1
        }
    }
}

fn run_command(command: Command, data_dir: DataDir, models: ModelsDir) -> anyhow::Result<i32> {
    match command {
        Command::Serve(args) => serve::run(data_dir, models, args),
        Command::Doctor(args) => doctor::run(&data_dir, &models, &args),
        Command::Admin(command) => admin::run(&data_dir, command),
        Command::User(command) => user::run(&data_dir, command),
        Command::Template(command) => template::run(&data_dir, command),
        Command::Signup(command) => signup::run(&data_dir, command),
        Command::Jobs(command) => jobs::run(&data_dir, command),
        Command::Transcribe(args) => transcribe::transcribe(&models, args),
        Command::Summarise(args) => transcribe::summarise(&models, args),
        Command::Backup { file } => maintenance::backup(&data_dir, &file),
        Command::Restore { file } => maintenance::restore(&data_dir, &file),
        Command::Compact => maintenance::compact(&data_dir),
        Command::Retention(command) => storage::run(&data_dir, command),
        Command::Models(args) => models::run(&data_dir, &models, args),
    }
}

fn init_logging(level: &str) {
    let level: tracing::Level = level.parse().unwrap_or(tracing::Level::INFO);
    tracing_subscriber::fmt()
        .with_max_level(level)
        .with_writer(std::io::stderr)
        // Colours for a terminal only: not in journald or a log file.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_target(false)
        .init();
}

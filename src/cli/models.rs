//! `debrief models list|install|import`.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::datadir::DataDir;
use crate::models::catalog::Catalog;
use crate::models::install::{self, Outcome};
use crate::models::list::{self, Known};
use crate::models::{ModelsDir, import, megabytes};

#[derive(Debug, Args)]
pub struct ModelsArgs {
    /// A catalogue that replaces the built-in one (JSON of the same shape), e.g. for a local mirror.
    #[arg(long, env = "DEBRIEF_MODEL_CATALOG", global = true, value_name = "FILE")]
    catalog: Option<PathBuf>,

    #[command(subcommand)]
    command: ModelsCommand,
}

#[derive(Debug, Subcommand)]
enum ModelsCommand {
    /// Show the installed models and the ones `install` knows.
    List {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Download a known model from its upstream home, verify its checksum and install it.
    Install {
        /// The model's name, as `debrief models list` shows it.
        name: String,
        /// Replace the model if it is installed already.
        #[arg(long)]
        force: bool,
    },
    /// Install a model from a folder, a zip archive or a .gguf file on this machine.
    Import {
        path: PathBuf,
        /// The name to install it under [default: taken from the model]
        #[arg(long)]
        name: Option<String>,
        /// Replace the model if one of that name is installed already.
        #[arg(long)]
        force: bool,
    },
}

pub fn run(data_dir: &DataDir, models: &ModelsDir, args: ModelsArgs) -> anyhow::Result<i32> {
    let changes = !matches!(args.command, ModelsCommand::List { .. });
    // The default folder lives in the data directory, which is private to its owner.
    if changes && models.root().starts_with(data_dir.root()) {
        data_dir.create()?;
    }
    let catalog = Catalog::load(args.catalog.as_deref())?;
    match args.command {
        ModelsCommand::List { json } => print_list(models, &catalog, json)?,
        ModelsCommand::Install { name, force } => match install::install(models, &catalog, &name, force)? {
            Outcome::Now(path) => println!("installed {name} into {}", path.display()),
            Outcome::Already(path) => {
                println!("{name} is installed already in {} (--force installs it again)", path.display())
            }
        },
        ModelsCommand::Import { path, name, force } => {
            let convert: crate::ct2::Convert =
                |src, dst| crate::asr::whisper::convert(src, dst).map_err(|e| e.to_string());
            let target = import::import(models, &path, name.as_deref(), force, convert)?;
            println!("imported {} ({}) into {}", target.name, target.kind, target.path(models.root()).display());
        }
    }
    if changes {
        tell_running_server(data_dir);
    }
    Ok(0)
}

/// A running server re-reads the models folder, and jobs waiting for a
/// model continue. No server running is fine: the next start looks anyway.
fn tell_running_server(data_dir: &DataDir) {
    let socket = data_dir.control_socket();
    if let Ok(crate::control::Response::Done { message }) =
        crate::control::call(&socket, &crate::control::Request::ModelsChanged, std::time::Duration::from_secs(10))
    {
        println!("{message}");
    }
}

fn print_list(models: &ModelsDir, catalog: &Catalog, json: bool) -> anyhow::Result<()> {
    let installed = models.installed();
    let known = list::known(models, catalog);
    if json {
        let report = serde_json::json!({
            "models_dir": models.root(),
            "arch": std::env::consts::ARCH,
            "installed": installed,
            "catalog": known,
        });
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    println!("models folder: {}", models.root().display());
    println!();
    println!("installed:");
    if installed.is_empty() {
        println!("  none");
    }
    for model in &installed {
        let name = if model.complete { model.name.clone() } else { format!("{} (incomplete)", model.name) };
        println!(
            "  {:<10} {:<34} {:>10}  {}",
            model.kind.to_string(),
            name,
            megabytes(model.size_bytes),
            model.path.display()
        );
    }
    println!();
    println!("available (debrief models install NAME):");
    for entry in &known {
        println!(
            "  {:<24} {:<10} {:>10}  {}",
            entry.name,
            entry.kind.to_string(),
            megabytes(entry.download_bytes),
            status(entry)
        );
    }
    Ok(())
}

fn status(entry: &Known) -> String {
    match entry {
        Known { suits_this_machine: false, arch, .. } => {
            format!("for {}, not this machine", arch.as_deref().unwrap_or("another machine"))
        }
        Known { installed: true, .. } => "installed".to_owned(),
        Known { verifiable: false, .. } => {
            "no published checksum: download it yourself and `debrief models import` it".to_owned()
        }
        Known { .. } => "not installed".to_owned(),
    }
}

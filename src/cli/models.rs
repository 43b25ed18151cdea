//! `debrief models list|install|import`.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::datadir::DataDir;
use crate::models::catalog::Catalog;
use crate::models::download::Downloader;
use crate::models::install::{self, Outcome};
use crate::models::list::{self, Known};
use crate::models::profile::{Machine, Profile};
use crate::models::{Kind, ModelsDir, import, megabytes};

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
    Install(InstallArgs),
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

#[derive(Debug, Args)]
struct InstallArgs {
    /// The model's name, as `debrief models list` shows it.
    #[arg(required_unless_present = "recommended", conflicts_with = "recommended")]
    name: Option<String>,
    /// Install what suits this machine: on a Raspberry Pi or a box with fewer than 4 cores Vosk,
    /// otherwise the larger Whisper; on both the summariser's embedding model, and with 4 GB of
    /// memory or more the instruct LLM.
    #[arg(long)]
    recommended: bool,
    /// The kind of machine --recommended installs for [default: guessed from this machine]
    #[arg(long, value_enum, requires = "recommended")]
    profile: Option<Profile>,
    /// Do not ask before downloading (asked only on a terminal).
    #[arg(long, short = 'y')]
    yes: bool,
    /// Replace the model if it is installed already.
    #[arg(long)]
    force: bool,
    /// Keep each verified download in DIR too, and take it from there next time (several boxes, --force).
    #[arg(long, env = "DEBRIEF_DOWNLOAD_CACHE", value_name = "DIR")]
    download_cache: Option<PathBuf>,
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
        ModelsCommand::Install(args) => {
            let recommended = args.recommended;
            if !install_all(models, &catalog, args)? {
                return Ok(1);
            }
            if recommended {
                tell_running_server(data_dir);
                println!();
                return super::doctor::run(data_dir, models, &super::doctor::DoctorArgs::default());
            }
        }
        ModelsCommand::Import { path, name, force } => {
            let target = import::import(models, &path, name.as_deref(), force, whisper_convert)?;
            println!("imported {} ({}) into {}", target.name, target.kind, target.path(models.root()).display());
        }
    }
    if changes {
        tell_running_server(data_dir);
    }
    Ok(0)
}

/// Installs the named model or the recommended ones, after showing what
/// will be downloaded and, on a terminal, asking. False: the user said no.
/// The Whisper engine's converter from CTranslate2's form, for imports and
/// installs of models published that way.
fn whisper_convert(src: &std::path::Path, dst: &std::path::Path) -> Result<(), String> {
    crate::asr::whisper::convert(src, dst).map_err(|e| e.to_string())
}

fn install_all(models: &ModelsDir, catalog: &Catalog, args: InstallArgs) -> anyhow::Result<bool> {
    let entries = match &args.name {
        Some(name) => vec![catalog.pick(name)?],
        None => {
            let machine = Machine::this();
            let profile = args.profile.unwrap_or_else(|| machine.profile());
            let how = if args.profile.is_some() { "as asked" } else { "guessed; --profile pi|laptop overrides it" };
            println!("this machine: {}", machine.reasons());
            println!("recommended for a {profile} ({how}):");
            // The LLM by memory, whatever the profile says of the cores.
            let runs_llm = machine.runs_llm();
            catalog.recommended(profile).into_iter().filter(|e| runs_llm || e.to.kind != Kind::Llm).collect()
        }
    };
    let mut total = 0;
    for entry in &entries {
        let size = if install::is_installed(models, entry) && !args.force {
            "installed".to_owned()
        } else {
            total += entry.download_size();
            megabytes(entry.download_size())
        };
        println!("  {:<24} {:>10}  {}", entry.name, size, entry.description);
    }
    if total > 0 {
        println!("download: {} in all", megabytes(total));
        if !args.yes && !confirm("Download and install?")? {
            println!("nothing was installed");
            return Ok(false);
        }
    }
    let downloader = Downloader::new(args.download_cache);
    for entry in entries {
        let name = &entry.name;
        match install::install(models, entry, args.force, &downloader, whisper_convert)? {
            Outcome::Now(path) => println!("installed {name} into {}", path.display()),
            Outcome::Already(path) => {
                println!("{name} is installed already in {} (--force installs it again)", path.display())
            }
        }
    }
    Ok(true)
}

/// Yes on a terminal when the user says so; always yes for a script.
fn confirm(question: &str) -> anyhow::Result<bool> {
    if !std::io::stdin().is_terminal() {
        return Ok(true);
    }
    eprint!("{question} [y/N] ");
    let mut answer = String::new();
    std::io::stdin().read_line(&mut answer)?;
    Ok(matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes"))
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

//! `debrief transcribe FILE.wav` and `debrief summarise FILE.txt`: the same
//! engines as the server's jobs, on a file, with progress on stderr.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use serde::Serialize;

use crate::asr::{AsrChoice, Transcript};
use crate::models::ModelsDir;
use crate::progress::Progress;
use crate::summarise::{SummariserChoice, SummariserOptions, Summary};

#[derive(Debug, Args)]
pub struct TranscribeArgs {
    /// A WAV file (any rate and channel count).
    file: PathBuf,
    /// Speech-to-text engine.
    #[arg(long, env = "DEBRIEF_ASR", default_value = "auto", value_enum)]
    asr: AsrChoice,
    /// Print JSON: the text, the timed segments and how long each part took.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
pub struct SummariseArgs {
    /// A transcript as plain text.
    file: PathBuf,
    #[arg(long, env = "DEBRIEF_SUMMARISER", default_value = "auto", value_enum)]
    summariser: SummariserChoice,
    /// Print JSON: the summary, the next steps and how long each part took.
    #[arg(long)]
    json: bool,
}

/// How long the parts took, in milliseconds: model loading apart, so a
/// benchmark can compare decoding alone.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Timings {
    audio_ms: u64,
    load_ms: u64,
    transcribe_ms: u64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TranscribeOutput {
    #[serde(flatten)]
    transcript: Transcript,
    timings: Timings,
}

/// How long loading the model and summarising took, in milliseconds, so a
/// benchmark can tell a slow model file from a slow summariser.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SummaryTimings {
    load_ms: u64,
    summarise_ms: u64,
}

#[derive(Serialize)]
struct SummariseOutput {
    #[serde(flatten)]
    summary: Summary,
    timings: SummaryTimings,
}

pub fn transcribe(models: &ModelsDir, args: TranscribeArgs) -> anyhow::Result<i32> {
    let file =
        std::fs::File::open(&args.file).map_err(|e| anyhow::anyhow!("cannot open {}: {e}", args.file.display()))?;
    let samples = crate::asr::audio::read_wav(std::io::BufReader::new(file))
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.file.display()))?;
    let started = Instant::now();
    let mut engine = crate::asr::load(args.asr, models)?;
    let load_ms = elapsed_ms(started);
    let started = Instant::now();
    let mut progress = Progress::percent("transcribing");
    let transcript = engine.transcribe(&samples, &mut |p| progress.set(u64::from(p)))?;
    progress.finish();
    let timings = Timings {
        audio_ms: samples.len() as u64 * 1000 / u64::from(crate::asr::SAMPLE_RATE),
        load_ms,
        transcribe_ms: elapsed_ms(started),
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&TranscribeOutput { transcript, timings })?);
    } else {
        println!("{}", transcript.text);
    }
    Ok(0)
}

pub fn summarise(models: &ModelsDir, args: SummariseArgs) -> anyhow::Result<i32> {
    let text =
        std::fs::read_to_string(&args.file).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", args.file.display()))?;
    let started = Instant::now();
    let mut engine = crate::summarise::load(args.summariser, models, &SummariserOptions::default())?;
    let load_ms = elapsed_ms(started);
    let started = Instant::now();
    let mut progress = Progress::percent("summarising");
    let summary: Summary = engine.summarise(&text, &mut |p| progress.set(u64::from(p)))?;
    progress.finish();
    let timings = SummaryTimings { load_ms, summarise_ms: elapsed_ms(started) };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&SummariseOutput { summary, timings })?);
    } else {
        println!("Summary\n\n{}\n\nNext steps\n", summary.summary);
        summary.next_steps.iter().for_each(|step| println!("- {step}"));
    }
    Ok(0)
}

fn elapsed_ms(since: Instant) -> u64 {
    since.elapsed().as_millis().try_into().unwrap_or(u64::MAX)
}

//! `debrief transcribe FILE.wav` and `debrief summarise FILE.txt…`: the same
//! engines as the server's jobs, on files, with progress on stderr.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use serde::Serialize;

use crate::asr::{AsrChoice, AsrPrecision, Transcript};
use crate::domain::action_item::parse_iso;
use crate::models::ModelsDir;
use crate::progress::Progress;
use crate::summarise::{MeetingContext, SummariserChoice, SummariserOptions, Summary};

#[derive(Debug, Args)]
pub struct TranscribeArgs {
    /// A WAV file (any rate and channel count), or an Ogg Opus recording as the server keeps them.
    file: PathBuf,
    /// Speech-to-text engine.
    #[arg(long, env = "DEBRIEF_ASR", default_value = "auto", value_enum)]
    asr: AsrChoice,
    /// How Whisper's decoder holds its weights.
    #[arg(long, env = "DEBRIEF_ASR_PRECISION", default_value = "int8", value_enum)]
    asr_precision: AsrPrecision,
    /// Print JSON: the text, the timed segments and how long each part took.
    #[arg(long)]
    json: bool,
    /// A line naming who and which companies the recording is about, so
    /// Whisper spells them so ("Meeting with Ana Silva at Banco Azul.").
    #[arg(long, default_value = "")]
    hint: String,
}

#[derive(Debug, Args)]
pub struct SummariseArgs {
    /// Transcripts as plain text ("Name: …" speaker labels are read); more
    /// than one with --batch.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[arg(long, env = "DEBRIEF_SUMMARISER", default_value = "auto", value_enum)]
    summariser: SummariserChoice,
    /// Print JSON: the summary, the next steps, the action items and how
    /// long each part took.
    #[arg(long)]
    json: bool,
    /// Summarise every file with one loaded model; with --json, one line of
    /// JSON per file.
    #[arg(long)]
    batch: bool,
    /// The day of the meeting (YYYY-MM-DD), for deadlines such as "by
    /// Friday" [default: today].
    #[arg(long, value_parser = meeting_date)]
    meeting_date: Option<time::Date>,
    /// The consultant's name, as speaker labels or the talk may say it.
    #[arg(long)]
    me: Option<String>,
    /// The client's name.
    #[arg(long)]
    client: Option<String>,
}

fn meeting_date(text: &str) -> Result<time::Date, String> {
    parse_iso(text).ok_or_else(|| format!("{text:?} is not a date: give it as YYYY-MM-DD"))
}

/// How long the parts took, in milliseconds: model loading apart, so a
/// benchmark can compare decoding alone.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Timings {
    audio_ms: u64,
    load_ms: u64,
    transcribe_ms: u64,
    /// The instructions it ran on, so a figure says where it was measured.
    kernels: crate::asr::Kernels,
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
    summariser: SummariserChoice,
    timings: SummaryTimings,
}

/// One line of `--batch --json`: a file's result, flat.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BatchLine<'a> {
    file: &'a std::path::Path,
    #[serde(flatten)]
    summary: Summary,
    summariser: SummariserChoice,
    load_ms: u64,
    summarise_ms: u64,
    /// The process's peak resident memory so far (Linux's `VmHWM`), so a
    /// benchmark can hold a summariser to a memory budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    peak_memory_kb: Option<u64>,
}

/// This process's peak resident memory, in KiB, where /proc tells it.
fn peak_memory_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

pub fn transcribe(models: &ModelsDir, args: TranscribeArgs) -> anyhow::Result<i32> {
    let samples =
        crate::asr::audio::read_audio_file(&args.file).map_err(|e| anyhow::anyhow!("{}: {e}", args.file.display()))?;
    let started = Instant::now();
    let mut engine = crate::asr::load(args.asr, args.asr_precision, models)?;
    engine.expect(&args.hint);
    let load_ms = elapsed_ms(started);
    let started = Instant::now();
    let mut progress = Progress::percent("transcribing");
    let transcript = engine.transcribe(&samples, &mut |p| progress.set(u64::from(p)))?;
    progress.finish();
    let timings = Timings {
        audio_ms: samples.len() as u64 * 1000 / u64::from(crate::asr::SAMPLE_RATE),
        load_ms,
        transcribe_ms: elapsed_ms(started),
        kernels: crate::asr::Kernels::detect(),
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&TranscribeOutput { transcript, timings })?);
    } else {
        println!("{}", transcript.text);
    }
    Ok(0)
}

pub fn summarise(models: &ModelsDir, args: SummariseArgs) -> anyhow::Result<i32> {
    if args.files.len() > 1 && !args.batch {
        anyhow::bail!("give --batch to summarise several files with one loaded model");
    }
    // Every file is read first: a missing one fails before the model loads.
    let texts = args
        .files
        .iter()
        .map(|file| std::fs::read_to_string(file).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", file.display())))
        .collect::<anyhow::Result<Vec<String>>>()?;
    let context = MeetingContext {
        date: args.meeting_date.unwrap_or_else(|| time::OffsetDateTime::now_utc().date()),
        me: args.me.clone(),
        client: args.client.clone(),
    };
    let started = Instant::now();
    let mut engine = crate::summarise::load(args.summariser, models, &SummariserOptions::default())?;
    let load_ms = elapsed_ms(started);
    let summariser = engine.choice();
    for (file, text) in args.files.iter().zip(&texts) {
        let started = Instant::now();
        let mut progress = Progress::percent("summarising");
        let summary: Summary = engine.summarise(text, &context, &mut |p| progress.set(u64::from(p)))?;
        progress.finish();
        let summarise_ms = elapsed_ms(started);
        if args.json && args.batch {
            let peak_memory_kb = peak_memory_kb();
            let line = BatchLine { file, summary, summariser, load_ms, summarise_ms, peak_memory_kb };
            println!("{}", serde_json::to_string(&line)?);
        } else if args.json {
            let timings = SummaryTimings { load_ms, summarise_ms };
            println!("{}", serde_json::to_string_pretty(&SummariseOutput { summary, summariser, timings })?);
        } else {
            if args.batch {
                println!("== {}\n", file.display());
            }
            println!("Summary\n\n{}\n\nNext steps\n", summary.summary);
            summary.next_steps.iter().for_each(|step| println!("- {step}"));
        }
    }
    Ok(0)
}

fn elapsed_ms(since: Instant) -> u64 {
    since.elapsed().as_millis().try_into().unwrap_or(u64::MAX)
}

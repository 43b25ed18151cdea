//! The LLM summariser: an instruct model in GGUF (llama or qwen2 family)
//! asked for a summary and next steps in a strict format. It reads one
//! prompt of transcript per half hour of meeting, of a longer meeting the
//! salient sentences only, so a 30-minute meeting is one call (about 40 s
//! of CPU with SmolLM2-135M); the stretches of a longer one are summarised
//! one by one (map) and their notes merged (reduce, again if they still do
//! not fit). An answer off the format falls back to the default
//! summariser; an answer that the token cap ended before its next steps
//! gets the default summariser's.

mod model;
mod prompt;
mod tokenizer;

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use candle_core::quantized::gguf_file::Content;
use tokenizers::Tokenizer;

use self::model::Model;
use self::prompt::{ANSWER_START, ChatFormat};
use super::choose::{self, SummariserChoice, SummariserOptions};
use super::progress::Reporter;
use super::select;
use super::sentences;
use super::{EngineError, Progress, Summariser, Summary};
use crate::models::ModelsDir;

pub use self::prompt::parse as parse_answer;

/// Progress at the end of the map step; the reduce step takes the rest.
const MAP_DONE: u8 = 90;
/// The least context that holds the instructions and two notes to merge
/// with room for the answer.
const MIN_CONTEXT: usize = 1024;
/// Tokens kept free in every prompt: token counts of separately encoded
/// sentences differ slightly from the count of their joined text.
const MARGIN: usize = 16;

pub struct LlmSummariser {
    model: Model,
    tokenizer: Tokenizer,
    format: ChatFormat,
    stop: Vec<u32>,
    context: usize,
    max_new_tokens: usize,
    meeting_tokens_per_prompt: usize,
    /// Where the fallback summariser's model is, should it be needed.
    models: ModelsDir,
}

impl LlmSummariser {
    /// Loads `model.gguf` (and `tokenizer.json` if present) from `dir`.
    pub fn load(dir: &Path, models: &ModelsDir, options: &SummariserOptions) -> Result<Self, EngineError> {
        let path = dir.join("model.gguf");
        let bad = |e: &dyn std::fmt::Display| {
            EngineError::BadModel(format!("{}: not a usable GGUF model ({e}); install it again", path.display()))
        };
        let mut file = BufReader::new(File::open(&path).map_err(|e| bad(&e))?);
        let gguf = Content::read(&mut file).map_err(|e| bad(&e))?;
        let architecture = model::architecture(&gguf);
        if !model::supported(&architecture) {
            return Err(EngineError::BadModel(format!(
                "{}: architecture {architecture:?} is not one Debrief runs (llama, qwen2)",
                path.display()
            )));
        }
        let tokenizer = tokenizer::load(dir, &gguf)?;
        let format = ChatFormat::of(&gguf);
        let stop = stop_tokens(&gguf, &tokenizer, format);
        let model = Model::load(gguf, &mut file, options.max_f32_weights_mb << 20).map_err(|e| bad(&e))?;
        let context = model.context.min(options.context_tokens.max(MIN_CONTEXT));
        // A quarter of the context for the answer leaves room for at least
        // two notes in every reduce prompt, so merging always progresses.
        let max_new_tokens = options.max_new_tokens.clamp(1, context / 4);
        Ok(Self {
            model,
            tokenizer,
            format,
            stop,
            context,
            max_new_tokens,
            meeting_tokens_per_prompt: options.meeting_tokens_per_prompt,
            models: models.clone(),
        })
    }

    /// The model's answer to `request`, beginning with [`ANSWER_START`].
    fn ask(&mut self, request: &str, on_token: impl FnMut(usize)) -> Result<String, EngineError> {
        let prompt = self.format.render(request);
        let ids = self.tokenizer.encode(prompt, true).map_err(engine)?.get_ids().to_vec();
        let answer = self.model.generate(&ids, self.max_new_tokens, &self.stop, on_token).map_err(engine)?;
        Ok(format!("{ANSWER_START}{}", self.tokenizer.decode(&answer, true).map_err(engine)?))
    }

    fn count(&self, text: &str) -> Result<usize, EngineError> {
        Ok(self.tokenizer.encode(text, false).map_err(engine)?.len())
    }

    /// Tokens left for the transcript or notes in a prompt built by `wrap`.
    fn room(&self, wrap: &str) -> Result<usize, EngineError> {
        let used = self.count(&self.format.render(wrap))? + self.max_new_tokens + MARGIN;
        match self.context.checked_sub(used) {
            Some(room) if room >= 64 => Ok(room),
            _ => Err(EngineError::Engine(format!(
                "a context of {} tokens leaves no room for the transcript",
                self.context
            ))),
        }
    }

    /// Whether the prompt built from `request` leaves room for the answer.
    fn fits(&self, request: &str) -> Result<bool, EngineError> {
        Ok(self.count(&self.format.render(request))? + self.max_new_tokens <= self.context)
    }

    /// The transcript in stretches that each fit one prompt, one stretch
    /// per `meeting_tokens_per_prompt` of it: all of a short meeting, the
    /// salient sentences of a longer one.
    fn stretches(&self, sentences: &[String]) -> Result<Vec<String>, EngineError> {
        let room = self.room(&prompt::for_transcript(""))?;
        let encodings = self
            .tokenizer
            .encode_batch(sentences.iter().map(|s| format!(" {s}")).collect::<Vec<_>>(), false)
            .map_err(engine)?;
        let meeting: usize = encodings.iter().map(|e| e.len()).sum();
        let per_prompt = self.meeting_tokens_per_prompt.max(1);
        let prompts = ((meeting + per_prompt / 2) / per_prompt).max(1);
        // A stretch ends when the next sentence does not fit: leaving room
        // for one keeps the salient sentences to `prompts` stretches.
        let longest = encodings.iter().map(|e| e.len()).max().unwrap_or(0).min(room / 4);
        let salient = select::salient(sentences, prompts * (room - longest), |i| encodings[i].len());
        let mut stretches: Vec<String> = Vec::new();
        let mut used = room;
        for i in salient {
            let (sentence, encoding) = (&sentences[i], &encodings[i]);
            // A "sentence" too long for any prompt (no spaces in it) is cut.
            let (sentence, tokens) = match encoding.get_offsets().get(room) {
                Some(&(cut, _)) => (&sentence[..sentence.floor_char_boundary(cut.saturating_sub(1))], room),
                None => (sentence.as_str(), encoding.len()),
            };
            match stretches.last_mut() {
                Some(last) if used + tokens <= room => {
                    last.push(' ');
                    last.push_str(sentence);
                    used += tokens;
                }
                _ => {
                    stretches.push(sentence.to_string());
                    used = tokens;
                }
            }
        }
        Ok(stretches)
    }

    /// Merges notes until one is left; the final answer, or the first that
    /// is off the format (for the fallback to replace).
    fn reduce(&mut self, mut notes: Vec<Summary>, progress: &mut Reporter<'_>) -> Result<String, EngineError> {
        while notes.len() > 1 {
            let mut groups: Vec<Vec<Summary>> = Vec::new();
            for note in notes {
                let Some(group) = groups.last_mut() else {
                    groups.push(vec![note]);
                    continue;
                };
                // Tried in the group; moved to a new one when it does not fit.
                group.push(note);
                if !self.fits(&prompt::for_notes(group))?
                    && let Some(note) = group.pop()
                {
                    groups.push(vec![note]);
                }
            }
            if groups.iter().all(|g| g.len() == 1) {
                return Err(EngineError::Engine("two notes do not fit one prompt: the context is too small".into()));
            }
            let total = groups.len();
            notes = Vec::new();
            for (i, group) in groups.into_iter().enumerate() {
                if group.len() == 1 {
                    notes.extend(group);
                    continue;
                }
                let answer = self.ask(&prompt::for_notes(&group), |_| {})?;
                match prompt::parse(&answer) {
                    Ok(note) => notes.push(note),
                    Err(_) => return Ok(answer),
                }
                progress.part(MAP_DONE, 99, i + 1, total);
            }
        }
        Ok(notes.first().map(prompt::render).unwrap_or_default())
    }
}

impl Summariser for LlmSummariser {
    fn summarise(&mut self, transcript: &str, progress: Progress<'_>) -> Result<Summary, EngineError> {
        let mut progress = Reporter::new(progress);
        progress.set(0);
        let sentences = sentences::split(transcript);
        if sentences.is_empty() {
            progress.done();
            return Ok(Summary::default());
        }
        let stretches = self.stretches(&sentences)?;
        let mut notes = Vec::new();
        let mut last_answer = String::new();
        let per_call = self.max_new_tokens;
        for (i, stretch) in stretches.iter().enumerate() {
            let answer = self.ask(&prompt::for_transcript(stretch), |n| {
                progress.part(0, MAP_DONE, i * per_call + n, stretches.len() * per_call)
            })?;
            match prompt::parse(&answer) {
                Ok(note) => notes.push(note),
                Err(reason) => tracing::debug!("LLM notes on part {} of {} dropped: {reason}", i + 1, stretches.len()),
            }
            last_answer = answer;
            progress.part(0, MAP_DONE, i + 1, stretches.len());
        }
        // With no usable notes, the last answer goes to the fallback, so its
        // log line gives the model's own reason.
        let answer = if notes.is_empty() { last_answer } else { self.reduce(notes, &mut progress)? };
        let summary = answer_or_fallback(&answer, transcript, || choose::auto(&self.models));
        progress.done();
        summary
    }
}

/// The LLM's `answer` read in the format asked for or, when it is off the
/// format, what the summariser from `fallback` makes of `transcript`,
/// saying so in the log. An answer the token cap ended inside its summary
/// (small models write on) gets the next steps of `fallback`'s summary.
pub fn answer_or_fallback(
    answer: &str,
    transcript: &str,
    fallback: impl FnOnce() -> (SummariserChoice, Box<dyn Summariser>),
) -> Result<Summary, EngineError> {
    match prompt::parse(answer) {
        Ok(summary) if !prompt::has_steps_part(answer) => {
            let (choice, mut summariser) = fallback();
            tracing::info!("the LLM's answer ended before its next steps; the {choice} summariser found them");
            Ok(Summary { next_steps: summariser.summarise(transcript, &mut |_| {})?.next_steps, ..summary })
        }
        Ok(summary) => Ok(summary),
        Err(reason) => {
            let (choice, mut summariser) = fallback();
            tracing::warn!(
                "the LLM's answer is off the format ({reason}); the {choice} summariser wrote this summary instead"
            );
            summariser.summarise(transcript, &mut |_| {})
        }
    }
}

/// The tokens that end the model's answer: its end-of-text token and the
/// end of a turn in its chat format.
fn stop_tokens(gguf: &Content, tokenizer: &Tokenizer, format: ChatFormat) -> Vec<u32> {
    let eos = gguf.metadata.get("tokenizer.ggml.eos_token_id").and_then(|v| v.to_u32().ok());
    eos.into_iter().chain(tokenizer.token_to_id(format.end_of_turn())).collect()
}

fn engine(e: impl std::fmt::Display) -> EngineError {
    EngineError::Engine(format!("LLM: {e}"))
}

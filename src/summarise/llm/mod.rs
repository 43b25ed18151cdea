//! The LLM summariser: an instruct model in GGUF (llama or qwen2 family)
//! working on what the extractive summariser found, never on its own. It
//! first checks each next step with the few sentences around it (see
//! [`check`]): the likelihood it gives YES drops the steps it is sure are
//! no commitment, and for the rest it may name the owner and spell out the
//! object. Then it writes the summary as a paragraph of its own from the
//! extracted sentences, and rewrites the steps, in two short calls. It
//! never adds: a paragraph that names a figure, name or date the transcript
//! does not, or a rewritten step whose content words are not in it, is
//! dropped and the extractive text kept (see [`ground`]), so a small model
//! cannot put unrelated steps or facts into an email.

mod check;
mod compact;
pub mod ground;
mod model;
mod paragraph;
mod prompt;
mod qwen2;
mod tokenizer;

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use candle_core::quantized::gguf_file::Content;
use tokenizers::Tokenizer;

use self::model::Model;
use self::prompt::{ANSWER_START, ChatFormat, STEPS_START};
use super::choose::{SummariserChoice, SummariserOptions};
use super::meeting::{Meeting, MeetingContext};
use super::progress::Reporter;
use super::{EngineError, Progress, Summariser, Summary};
use crate::domain::action_item::ActionItem;

pub use self::prompt::parse as parse_answer;

/// Progress when the extractive summariser is done, when the LLM has
/// checked its steps and when it has written the summary paragraph; the
/// steps' rewrite takes the rest.
const EXTRACTED: u8 = 20;
const CHECKED: u8 = 70;
const WRITTEN: u8 = 85;
/// The checker's system text, and the most tokens of its answer after a
/// YES (the owner and the action, two short lines).
const CHECKER: &str =
    "You check notes of a client meeting against its transcript. You answer in the exact format asked.";
const CHECK_TOKENS: usize = 48;
/// The likelihood of YES below which a step is dropped. Chosen on the
/// tuning part of the meeting set (held-out meetings never): there, a
/// 1.5B model's YES separates commitments from the rest too weakly to drop
/// a step on a coin toss (at 0.5 it dropped a third of the real ones with
/// most of the false), so it drops only the steps it is sure are none.
const CHECK_THRESHOLD: f32 = 0.25;
/// The least context that holds the instructions, the notes to rewrite and
/// the answer.
const MIN_CONTEXT: usize = 1024;

pub struct LlmSummariser {
    model: Model,
    tokenizer: Tokenizer,
    format: ChatFormat,
    stop: Vec<u32>,
    context: usize,
    max_new_tokens: usize,
    /// What finds the summary and the items the model rewrites.
    extractive: Box<dyn Summariser>,
}

impl LlmSummariser {
    /// Loads `model.gguf` (and `tokenizer.json` if present) from `dir`;
    /// `extractive` finds what the model is to rewrite.
    pub fn load(dir: &Path, extractive: Box<dyn Summariser>, options: &SummariserOptions) -> Result<Self, EngineError> {
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
        let max_new_tokens = options.max_new_tokens.clamp(1, context / 2);
        Ok(Self { model, tokenizer, format, stop, context, max_new_tokens, extractive })
    }

    /// The model's answer to `request`, begun for it with `start`, or
    /// `None` when the request does not fit the context.
    fn ask(&mut self, request: &str, start: &str, on_token: impl FnMut(usize)) -> Result<Option<String>, EngineError> {
        let prompt = self.format.turn(prompt::SYSTEM, request, start);
        let answer = self.generate(&prompt, self.max_new_tokens, on_token)?;
        Ok(answer.map(|answer| format!("{start}{answer}")))
    }

    /// The model's answer to a rendered `prompt`, at most `max_new` tokens;
    /// `None` when they do not fit the context.
    fn generate(
        &mut self,
        prompt: &str,
        max_new: usize,
        on_token: impl FnMut(usize),
    ) -> Result<Option<String>, EngineError> {
        let ids = self.tokenizer.encode(prompt, true).map_err(engine)?.get_ids().to_vec();
        if ids.len() + max_new > self.context {
            return Ok(None);
        }
        let answer = self.model.generate(&ids, max_new, &self.stop, on_token).map_err(engine)?;
        Ok(Some(self.tokenizer.decode(&answer, true).map_err(engine)?))
    }

    /// The steps of `notes` the model confirms, each with the owner and the
    /// wording it gives where the transcript bears them out. The model's
    /// likelihood of YES after the question decides; a step whose owner and
    /// action come back off the format keeps the rule path's.
    fn check(
        &mut self,
        notes: &Summary,
        transcript: &str,
        context: &MeetingContext,
        progress: &mut Reporter<'_>,
    ) -> Result<Vec<ActionItem>, EngineError> {
        let meeting = Meeting::new(transcript);
        let vocabulary = ground::Vocabulary::of(transcript);
        let (Some(yes), Some(no)) = (self.token(" YES")?, self.token(" NO")?) else {
            tracing::info!("the LLM's tokenizer has no single token for YES or NO; the steps are not checked");
            return Ok(notes.action_items.clone());
        };
        let after_yes = self.tokenizer.encode(check::AFTER_YES, false).map_err(engine)?.get_ids().to_vec();
        let total = notes.action_items.len();
        let mut kept = Vec::new();
        for (n, item) in notes.action_items.iter().enumerate() {
            progress.part(EXTRACTED, CHECKED, n, total);
            let Some(question) = check::question(&meeting, context, item) else {
                kept.push(item.clone());
                continue;
            };
            let turn = self.format.turn(CHECKER, &question, check::ANSWER_START);
            let ids = self.tokenizer.encode(turn, true).map_err(engine)?.get_ids().to_vec();
            if ids.len() + after_yes.len() + CHECK_TOKENS > self.context {
                kept.push(item.clone());
                continue;
            }
            let logits: Vec<f32> = self.model.read(&ids).and_then(|l| l.to_vec1()).map_err(engine)?;
            let (Some(&yes_logit), Some(&no_logit)) = (logits.get(yes as usize), logits.get(no as usize)) else {
                kept.push(item.clone());
                continue;
            };
            if !check::is_commitment(yes_logit, no_logit, CHECK_THRESHOLD) {
                tracing::debug!(action = item.action, yes_logit, no_logit, "a step the LLM says is no commitment");
                continue;
            }
            let logits = self.model.extend(&after_yes).map_err(engine)?;
            let answer = self.model.answer(logits, CHECK_TOKENS, &self.stop, |_| {}).map_err(engine)?;
            let answer = self.tokenizer.decode(&answer, true).map_err(engine)?;
            tracing::debug!(action = item.action, yes_logit, no_logit, answer, "a step the LLM confirms");
            match check::parse(&answer) {
                Some(confirmed) => kept.push(check::apply(item, &confirmed, context, &vocabulary, &notes.action_items)),
                None => kept.push(item.clone()),
            }
        }
        Ok(kept)
    }

    /// The id of the one token `text` is, if it is one.
    fn token(&self, text: &str) -> Result<Option<u32>, EngineError> {
        let ids = self.tokenizer.encode(text, false).map_err(engine)?.get_ids().to_vec();
        Ok(match ids[..] {
            [id] => Some(id),
            _ => None,
        })
    }
}

impl Summariser for LlmSummariser {
    fn choice(&self) -> SummariserChoice {
        SummariserChoice::Llm
    }

    fn summarise(
        &mut self,
        transcript: &str,
        context: &MeetingContext,
        progress: Progress<'_>,
    ) -> Result<Summary, EngineError> {
        let mut progress = Reporter::new(progress);
        progress.set(0);
        let extracted =
            self.extractive.summarise(transcript, context, &mut |p| progress.part(0, EXTRACTED, p.into(), 100))?;
        if extracted.summary.is_empty() && extracted.action_items.is_empty() {
            progress.done();
            return Ok(extracted);
        }
        let action_items = self.check(&extracted, transcript, context, &mut progress)?;
        let next_steps = action_items.iter().map(ActionItem::line).collect();
        let extracted = Summary { action_items, next_steps, ..extracted };
        let budget = self.max_new_tokens;
        let paragraph = prompt::for_summary(&extracted, context);
        let paragraph = self.ask(&paragraph, ANSWER_START, |n| progress.part(CHECKED, WRITTEN, n, budget))?;
        let steps = match prompt::for_steps(&extracted) {
            Some(steps) => self.ask(&steps, STEPS_START, |n| progress.part(WRITTEN, 99, n, budget))?,
            None => Some(String::new()),
        };
        let summary = match (paragraph, steps) {
            // The two answers read as one in the format `parse` knows.
            (Some(paragraph), Some(steps)) => {
                ground::rewritten(&extracted, &format!("{paragraph}\n{steps}"), transcript, context)
            }
            _ => {
                tracing::info!("the notes are too long for the LLM's context; the extractive ones are kept");
                extracted
            }
        };
        progress.done();
        Ok(summary)
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

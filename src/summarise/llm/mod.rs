//! The LLM summariser: an instruct model in GGUF (llama or qwen2 family)
//! that only rewrites what the extractive summariser found (its summary and
//! its action items) into clean prose, in one short call. It never adds:
//! a rewritten step or summary sentence whose content words are not in the
//! transcript is dropped and the extractive text kept (see [`ground`]), so
//! a small model cannot put unrelated steps into an email, and the items
//! are never fewer than the default summariser's.

pub mod ground;
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
use super::choose::{SummariserChoice, SummariserOptions};
use super::meeting::MeetingContext;
use super::progress::Reporter;
use super::{EngineError, Progress, Summariser, Summary};

pub use self::prompt::parse as parse_answer;

/// Progress when the extractive summariser is done; the LLM takes the rest.
const EXTRACTED: u8 = 30;
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

    /// The model's answer to `request`, beginning with [`ANSWER_START`],
    /// or `None` when the request does not fit the context.
    fn ask(&mut self, request: &str, on_token: impl FnMut(usize)) -> Result<Option<String>, EngineError> {
        let prompt = self.format.render(request);
        let ids = self.tokenizer.encode(prompt, true).map_err(engine)?.get_ids().to_vec();
        if ids.len() + self.max_new_tokens > self.context {
            return Ok(None);
        }
        let answer = self.model.generate(&ids, self.max_new_tokens, &self.stop, on_token).map_err(engine)?;
        Ok(Some(format!("{ANSWER_START}{}", self.tokenizer.decode(&answer, true).map_err(engine)?)))
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
        let request = prompt::for_rewrite(&extracted);
        let budget = self.max_new_tokens;
        let answer = self.ask(&request, |n| progress.part(EXTRACTED, 99, n, budget))?;
        let summary = match answer {
            Some(answer) => ground::rewritten(&extracted, &answer, transcript),
            None => {
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

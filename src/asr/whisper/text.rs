//! The tokenizer and the special tokens decoding steers by. Their ids are
//! looked up by name, not assumed: English-only and multilingual models
//! number them differently. Timestamps are not in `tokenizer.json`; they
//! follow `<|notimestamps|>`, one per 20 ms.

use std::path::Path;

use tokenizers::Tokenizer;

use super::config::Config;
use crate::asr::EngineError;

#[derive(Debug)]
pub struct Vocabulary {
    tokenizer: Tokenizer,
    pub eot: u32,
    /// What every window starts with: start of transcript, and on a
    /// multilingual model English and the transcribe task.
    pub prompt: Vec<u32>,
    pub no_timestamps: u32,
    /// `<|0.00|>`; timestamp i is `timestamp_begin + i`.
    pub timestamp_begin: u32,
    pub no_speech: Option<u32>,
    /// `<|startofprev|>`: what comes before it is text said earlier.
    pub start_of_prev: Option<u32>,
}

impl Vocabulary {
    /// The error says what is wrong with the file at `path`.
    pub fn load(path: &Path, config: &Config) -> Result<Self, String> {
        let tokenizer = Tokenizer::from_file(path).map_err(|e| format!("not a tokenizer: {e}"))?;
        let id = |name: &str| tokenizer.token_to_id(name).ok_or_else(|| format!("no {name} token"));
        let sot = id("<|startoftranscript|>")?;
        let no_timestamps = id("<|notimestamps|>")?;
        // Whisper's own test: only multilingual vocabularies reach 51,865.
        let prompt =
            if config.vocab_size >= 51_865 { vec![sot, id("<|en|>")?, id("<|transcribe|>")?] } else { vec![sot] };
        let timestamp_begin = no_timestamps + 1;
        if timestamp_begin as usize >= config.vocab_size {
            return Err(format!("no room for timestamps in a vocabulary of {}", config.vocab_size));
        }
        Ok(Self {
            eot: id("<|endoftext|>")?,
            prompt,
            no_timestamps,
            timestamp_begin,
            no_speech: tokenizer.token_to_id("<|nospeech|>").or_else(|| tokenizer.token_to_id("<|nocaptions|>")),
            start_of_prev: tokenizer.token_to_id("<|startofprev|>"),
            tokenizer,
        })
    }

    /// `text` as tokens to put before a window: `<|startofprev|>` and the
    /// last `max` tokens of the text; nothing for empty text, or a model
    /// without that token.
    pub fn context(&self, text: &str, max: usize) -> Vec<u32> {
        let (Some(prev), false) = (self.start_of_prev, text.trim().is_empty()) else { return Vec::new() };
        let Ok(encoding) = self.tokenizer.encode(format!(" {}", text.trim()), false) else { return Vec::new() };
        let ids = encoding.get_ids();
        std::iter::once(prev).chain(ids[ids.len().saturating_sub(max)..].iter().copied()).collect()
    }

    /// Whether `token`'s text ends a sentence ('.', '?' or '!').
    pub fn ends_sentence(&self, token: u32) -> bool {
        self.tokenizer.id_to_token(token).is_some_and(|t| t.ends_with(['.', '?', '!']))
    }

    /// `text`'s tokens, written as it is (no space added); none if the
    /// tokenizer fails on it.
    pub fn tokens(&self, text: &str) -> Vec<u32> {
        self.tokenizer.encode(text, false).map(|e| e.get_ids().to_vec()).unwrap_or_default()
    }

    /// The text of the tokens below `<|endoftext|>` (specials are skipped).
    pub fn text(&self, tokens: &[u32]) -> Result<String, EngineError> {
        let words: Vec<u32> = tokens.iter().copied().filter(|&t| t < self.eot).collect();
        self.tokenizer.decode(&words, true).map_err(|e| EngineError::Engine(format!("cannot decode tokens: {e}")))
    }
}

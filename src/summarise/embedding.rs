//! The default summariser: sentence embeddings from all-MiniLM-L6-v2 (BERT
//! through candle, mean pooling, L2 norm). The summary is the sentences
//! nearest the meeting's centroid that do not repeat one another; next steps
//! are commitments found by cue words and by closeness to example actions.

use std::path::Path;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use tokenizers::{Tokenizer, TruncationParams};

use super::cues::{self, Cue};
use super::progress::Reporter;
use super::select;
use super::sentences;
use super::text::tidy;
use super::{EngineError, Progress, Summariser, Summary};

/// Longer input is cut: a sentence's meaning is in its first words.
const MAX_TOKENS: usize = 256;
/// Tokens per forward pass (padding included): large enough for efficient
/// matrix products, small enough for the attention scores to stay in cache.
const BATCH_TOKENS: usize = 2048;
/// Past this many sentences (about 30 minutes of talk) a meeting is long: only
/// its salient sentences are embedded, so it stays within seconds on 2 cores.
const MAX_EMBEDDED: usize = 300;
/// A cue this sure is a next step without asking the model.
const SURE_CUE: f32 = 0.7;
/// A weaker cue counts when the sentence is at least this close to the
/// example actions…
const CUE_AND_LIKE_ACTION: f32 = 0.35;
/// …and a sentence with no cue pattern but some action signal when it is
/// this close.
const LIKE_ACTION: f32 = 0.6;

/// What commitments sound like: next steps are found by closeness to these.
const ACTION_EXAMPLES: &[&str] = &[
    "I will send you the revised proposal by Friday.",
    "We'll schedule a follow-up meeting next week.",
    "Sarah is going to prepare the contract draft.",
    "Action item: update the budget spreadsheet.",
    "The next step is to review the numbers with the finance team.",
    "Let's set up a call with the legal team.",
    "Can you share the data with us before Monday?",
    "I'll get back to you with a quote tomorrow.",
    "We need to confirm the delivery date with the supplier.",
    "Tom will follow up with the client about the invoice.",
];

/// all-MiniLM-L6-v2: text in, one unit-length vector per text out.
pub struct Encoder {
    model: BertModel,
    tokenizer: Tokenizer,
}

impl Encoder {
    /// Loads `config.json`, `tokenizer.json` and `model.safetensors` from `dir`.
    pub fn load(dir: &Path) -> Result<Self, EngineError> {
        let bad = |what: &str, e: &dyn std::fmt::Display| {
            EngineError::BadModel(format!("sentence-embedding model in {}: {what}: {e}", dir.display()))
        };
        let config = std::fs::read_to_string(dir.join("config.json")).map_err(|e| bad("config.json", &e))?;
        let config: Config = serde_json::from_str(&config).map_err(|e| bad("config.json", &e))?;
        let mut tokenizer = Tokenizer::from_file(dir.join("tokenizer.json")).map_err(|e| bad("tokenizer.json", &e))?;
        // The file pads every input to 128 tokens; batches pad themselves.
        tokenizer.with_padding(None);
        tokenizer
            .with_truncation(Some(TruncationParams { max_length: MAX_TOKENS, ..Default::default() }))
            .map_err(|e| bad("tokenizer.json", &e))?;
        let weights = std::fs::read(dir.join("model.safetensors")).map_err(|e| bad("model.safetensors", &e))?;
        let vb = VarBuilder::from_buffered_safetensors(weights, DType::F32, &Device::Cpu)
            .map_err(|e| bad("model.safetensors", &e))?;
        let model = BertModel::load(vb, &config).map_err(|e| bad("model.safetensors", &e))?;
        Ok(Self { model, tokenizer })
    }

    /// The embeddings of `texts`, in order; `progress(done, total)` after
    /// each batch.
    pub fn embed(&self, texts: &[&str], mut progress: impl FnMut(usize, usize)) -> Result<Vec<Vec<f32>>, EngineError> {
        let engine = |e: &dyn std::fmt::Display| EngineError::Engine(format!("sentence embeddings: {e}"));
        let encodings = self.tokenizer.encode_batch(texts.to_vec(), true).map_err(|e| engine(&e))?;
        // Similar lengths batched together waste little on padding.
        let mut order: Vec<usize> = (0..texts.len()).collect();
        order.sort_by_key(|&i| encodings[i].get_ids().len());
        let mut vectors = vec![Vec::new(); texts.len()];
        let mut done = 0;
        let length = |k: usize| encodings[order[k]].get_ids().len();
        while done < order.len() {
            let mut end = done + 1;
            while end < order.len() && (end + 1 - done) * length(end) <= BATCH_TOKENS {
                end += 1;
            }
            let batch = &order[done..end];
            let width = length(end - 1);
            let pooled = self
                .forward(batch.iter().map(|&i| encodings[i].get_ids()), batch.len(), width)
                .map_err(|e| engine(&e))?;
            for (&i, vector) in batch.iter().zip(pooled) {
                vectors[i] = vector;
            }
            done = end;
            progress(done, order.len());
        }
        Ok(vectors)
    }

    /// One padded batch through BERT, then the mean of the real tokens'
    /// states, scaled to unit length.
    fn forward<'a>(
        &self,
        ids: impl Iterator<Item = &'a [u32]>,
        rows: usize,
        width: usize,
    ) -> candle_core::Result<Vec<Vec<f32>>> {
        let mut flat_ids = vec![0u32; rows * width];
        let mut flat_mask = vec![0u32; rows * width];
        for (row, ids) in ids.enumerate() {
            flat_ids[row * width..row * width + ids.len()].copy_from_slice(ids);
            flat_mask[row * width..row * width + ids.len()].fill(1);
        }
        let device = &self.model.device;
        let ids = Tensor::from_vec(flat_ids, (rows, width), device)?;
        let mask = Tensor::from_vec(flat_mask, (rows, width), device)?;
        let states = self.model.forward(&ids, &ids.zeros_like()?, Some(&mask))?;
        let mask = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
        let summed = states.broadcast_mul(&mask)?.sum(1)?;
        let mean = summed.broadcast_div(&mask.sum(1)?.clamp(1.0, f64::MAX)?)?;
        let norm = mean.sqr()?.sum_keepdim(1)?.sqrt()?.clamp(1e-12, f64::MAX)?;
        mean.broadcast_div(&norm)?.to_vec2()
    }
}

pub struct EmbeddingSummariser {
    encoder: Encoder,
    actions: Vec<Vec<f32>>,
}

impl EmbeddingSummariser {
    pub fn load(dir: &Path) -> Result<Self, EngineError> {
        let encoder = Encoder::load(dir)?;
        let actions = encoder.embed(ACTION_EXAMPLES, |_, _| {})?;
        Ok(Self { encoder, actions })
    }
}

impl Summariser for EmbeddingSummariser {
    fn summarise(&mut self, transcript: &str, progress: Progress<'_>) -> Result<Summary, EngineError> {
        let mut progress = Reporter::new(progress);
        progress.set(0);
        let all = sentences::split(transcript);
        let sentences: Vec<String> =
            select::salient(&all, MAX_EMBEDDED, |_| 1).into_iter().map(|i| all[i].clone()).collect();
        progress.set(5);
        let texts: Vec<&str> = sentences.iter().map(String::as_str).collect();
        let vectors = self.encoder.embed(&texts, |done, total| progress.part(5, 95, done, total))?;
        let similarity = |i: usize, j: usize| dot(&vectors[i], &vectors[j]);

        let centroid = unit(mean(&vectors));
        let centrality: Vec<f32> = vectors.iter().map(|v| dot(v, &centroid)).collect();
        let summary = select::summary(&sentences, &centrality, similarity);

        let found = sentences
            .iter()
            .zip(&vectors)
            .enumerate()
            .filter_map(|(i, (sentence, vector))| {
                let like_action = self.actions.iter().map(|a| dot(a, vector)).fold(f32::MIN, f32::max);
                commitment(sentence, like_action).map(|cue| (i, cue))
            })
            .collect();
        let next_steps = select::next_steps(found, similarity);
        progress.done();
        Ok(Summary { summary, next_steps })
    }
}

/// The next step in `sentence`, if it is one: a sure cue, a weaker cue that
/// sounds like an action, or no pattern but very like an action. The score
/// ranks a cue by both signals.
fn commitment(sentence: &str, like_action: f32) -> Option<Cue> {
    match cues::detect(sentence) {
        Some(cue) if cue.score >= SURE_CUE || like_action >= CUE_AND_LIKE_ACTION => {
            Some(Cue { score: cue.score + like_action, ..cue })
        }
        Some(_) => None,
        None if like_action >= LIKE_ACTION && cues::has_action_signal(sentence) => {
            let line = tidy(sentence);
            Some(Cue { score: like_action, line: line.trim_end_matches('.').to_string() })
        }
        None => None,
    }
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn mean(vectors: &[Vec<f32>]) -> Vec<f32> {
    let mut sum = vec![0.0; vectors.first().map_or(0, Vec::len)];
    for v in vectors {
        sum.iter_mut().zip(v).for_each(|(s, x)| *s += x);
    }
    sum
}

fn unit(mut v: Vec<f32>) -> Vec<f32> {
    let norm = dot(&v, &v).sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
    v
}

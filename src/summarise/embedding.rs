//! Sentence embeddings from all-MiniLM-L6-v2 (BERT through candle, mean
//! pooling, L2 norm): what the default summariser reads to find central
//! sentences and to tell a commitment from talk.

use std::path::Path;

use candle_core::{DType, Tensor};
use candle_transformers::models::bert::{BertModel, Config};
use tokenizers::{Tokenizer, TruncationParams};

use super::EngineError;

/// Longer input is cut: a sentence's meaning is in its first words.
const MAX_TOKENS: usize = 256;
/// Tokens per forward pass (padding included): large enough for efficient
/// matrix products, small enough for the attention scores to stay in cache.
const BATCH_TOKENS: usize = 2048;
/// The length of an embedding.
pub const DIMENSIONS: usize = 384;

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
        let vb = crate::weights::read(&dir.join("model.safetensors"), DType::F32)
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

pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

pub fn mean(vectors: &[Vec<f32>]) -> Vec<f32> {
    let mut sum = vec![0.0; vectors.first().map_or(0, Vec::len)];
    for v in vectors {
        sum.iter_mut().zip(v).for_each(|(s, x)| *s += x);
    }
    sum
}

pub fn unit(mut v: Vec<f32>) -> Vec<f32> {
    let norm = dot(&v, &v).sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
    v
}

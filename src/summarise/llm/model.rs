//! An instruct model in GGUF, run by candle's quantized llama or our own
//! qwen2 (see `qwen2`), and
//! greedy generation with a key-value cache.

use std::io::{Cursor, Read, Seek};
use std::time::Instant;

use candle_core::quantized::gguf_file::{self, Content};
use candle_core::quantized::{GgmlDType, QTensor};
use candle_core::{Device, Tensor};
use candle_transformers::models::quantized_llama;

use super::qwen2::Qwen2;

/// Quantisations that candle multiplies without SIMD on CPU: re-quantised to
/// Q8_0, which has AVX2 and NEON kernels (SmolLM2's Q4_1: 5× faster prompts).
const SLOW_TYPES: [GgmlDType; 3] = [GgmlDType::Q4_1, GgmlDType::Q5_0, GgmlDType::Q5_1];
/// candle's llama precomputes rotary embeddings for this many positions.
const LLAMA_MAX_POSITIONS: usize = quantized_llama::MAX_SEQ_LEN;
/// The prompt goes through the model this many tokens at a time: the
/// attention scores of a whole long prompt would take hundreds of MB.
const PREFILL_TOKENS: usize = 512;
/// Greedy decoding of a small model loops without a mild repeat penalty.
const REPEAT_PENALTY: f32 = 1.1;
const REPEAT_WINDOW: usize = 64;

enum Weights {
    Llama(quantized_llama::ModelWeights),
    Qwen2(Qwen2),
}

pub struct Model {
    weights: Weights,
    /// Positions the model can attend over (prompt and answer together).
    pub context: usize,
    device: Device,
    /// The tokens read since the cache was cleared.
    read: Vec<u32>,
}

impl Model {
    /// Builds the model from an open GGUF whose `gguf` header was read from
    /// `reader`. A model whose weights take at most `f32_limit` bytes as f32
    /// is held as f32: candle's quantised kernels stream every weight once
    /// per prompt token, its f32 products (gemm) reuse them, which reads a
    /// prompt about 5× faster. Larger models stay quantised, to fit memory.
    /// Errors are candle's, for the caller to name the file.
    pub fn load<R: Read + Seek>(gguf: Content, reader: &mut R, f32_limit: u64) -> candle_core::Result<Self> {
        let device = Device::Cpu;
        let architecture = architecture(&gguf);
        let trained = gguf
            .metadata
            .get(&format!("{architecture}.context_length"))
            .and_then(|v| v.to_u32().ok())
            .map_or(2048, |n| n as usize);
        let parameters: u64 = gguf.tensor_infos.values().map(|t| t.shape.elem_count() as u64).sum();
        let float = parameters * 4 <= f32_limit;
        let (context, weights) = if gguf.tensor_infos.values().any(|t| target(t.ggml_dtype, float).is_some()) {
            let (gguf, mut memory) = converted(gguf, reader, &device, float)?;
            build(&architecture, gguf, &mut memory, &device, trained)?
        } else {
            build(&architecture, gguf, reader, &device, trained)?
        };
        Ok(Self { weights, context, device, read: Vec::new() })
    }

    /// The tokens that follow `prompt`, greedily, until a `stop` token or
    /// `max_new` tokens; `on_token(n)` after the n-th.
    pub fn generate(
        &mut self,
        prompt: &[u32],
        max_new: usize,
        stop: &[u32],
        on_token: impl FnMut(usize),
    ) -> candle_core::Result<Vec<u32>> {
        if prompt.len() + max_new > self.context {
            candle_core::bail!(
                "a prompt of {} tokens and {max_new} new ones do not fit a context of {}",
                prompt.len(),
                self.context
            );
        }
        let started = Instant::now();
        let logits = self.read(prompt)?;
        let prompt_time = started.elapsed();
        let answer = self.answer(logits, max_new, stop, on_token)?;
        // Reading the prompt and writing the answer cost differently: the
        // split tells which setting (context, tokens, threads) to change.
        tracing::debug!(
            prompt_tokens = prompt.len(),
            prompt_ms = prompt_time.as_millis() as u64,
            answer_tokens = answer.len(),
            answer_ms = (started.elapsed() - prompt_time).as_millis() as u64,
            "LLM call"
        );
        Ok(answer)
    }

    /// Reads `prompt` in place of what was read: the logits of the token
    /// that would follow it. What it shares at its start with what was read
    /// is kept, not read again: the checker asks one question per step
    /// after the same instructions and examples, which are most of each
    /// prompt. The last token is always read, for its logits.
    pub fn read(&mut self, prompt: &[u32]) -> candle_core::Result<Tensor> {
        let shared = self.read.iter().zip(prompt).take_while(|(a, b)| a == b).count();
        self.forget_after(shared.min(prompt.len().saturating_sub(1)));
        self.extend(&prompt[self.read.len()..])
    }

    /// Reads `tokens` after what was read so far: the logits of the next.
    pub fn extend(&mut self, tokens: &[u32]) -> candle_core::Result<Tensor> {
        if self.read.len() + tokens.len() > self.context {
            candle_core::bail!("{} more tokens do not fit a context of {}", tokens.len(), self.context);
        }
        if let Weights::Qwen2(m) = &mut self.weights {
            m.reserve(self.read.len() + tokens.len())?;
        }
        let mut logits = None;
        for piece in tokens.chunks(PREFILL_TOKENS) {
            logits = Some(self.forward(piece, self.read.len())?);
            self.read.extend_from_slice(piece);
        }
        logits.ok_or_else(|| candle_core::Error::Msg("nothing to read".into()))
    }

    /// Writes on greedily from `logits` (those after what was read), until
    /// a `stop` token or `max_new` tokens or the end of the context.
    pub fn answer(
        &mut self,
        mut logits: Tensor,
        max_new: usize,
        stop: &[u32],
        mut on_token: impl FnMut(usize),
    ) -> candle_core::Result<Vec<u32>> {
        let mut answer = Vec::new();
        while answer.len() < max_new && self.read.len() < self.context {
            let recent = &self.read[self.read.len().saturating_sub(REPEAT_WINDOW)..];
            let next = greedy(&logits, recent)?;
            if stop.contains(&next) {
                break;
            }
            answer.push(next);
            on_token(answer.len());
            if answer.len() < max_new {
                logits = self.extend(&[next])?;
            }
        }
        Ok(answer)
    }

    fn forward(&mut self, tokens: &[u32], position: usize) -> candle_core::Result<Tensor> {
        match &mut self.weights {
            Weights::Llama(m) => m.forward(&Tensor::new(tokens, &self.device)?.unsqueeze(0)?, position)?.squeeze(0),
            Weights::Qwen2(m) => m.forward(tokens, position),
        }
    }

    /// Keeps the first `positions` tokens read and forgets the rest. candle's
    /// llama keeps no count of its cache to cut, so there it forgets all.
    fn forget_after(&mut self, positions: usize) {
        match &mut self.weights {
            Weights::Qwen2(m) => {
                m.truncate(positions);
                self.read.truncate(positions);
            }
            Weights::Llama(m) => {
                m.clear_kv_cache();
                self.read.clear();
            }
        }
    }
}

/// `general.architecture`, e.g. "llama" or "qwen2".
pub fn architecture(gguf: &Content) -> String {
    gguf.metadata.get("general.architecture").and_then(|v| v.to_string().ok()).cloned().unwrap_or_default()
}

/// The architectures candle's quantized models run.
pub fn supported(architecture: &str) -> bool {
    matches!(architecture, "llama" | "qwen2")
}

fn build<R: Read + Seek>(
    architecture: &str,
    gguf: Content,
    reader: &mut R,
    device: &Device,
    trained: usize,
) -> candle_core::Result<(usize, Weights)> {
    match architecture {
        "llama" => Ok((
            trained.min(LLAMA_MAX_POSITIONS),
            Weights::Llama(quantized_llama::ModelWeights::from_gguf(gguf, reader, device)?),
        )),
        "qwen2" => Ok((trained, Weights::Qwen2(Qwen2::from_gguf(&gguf, reader, device, trained)?))),
        other => candle_core::bail!("unsupported architecture {other:?}"),
    }
}

/// What a tensor of `dtype` becomes before candle builds the model, if
/// anything. `float`: every quantised tensor becomes F16, which candle turns
/// into f32 matrices as it builds (F16 halves the in-memory copy); else only
/// the types without fast kernels become Q8_0.
fn target(dtype: GgmlDType, float: bool) -> Option<GgmlDType> {
    match dtype {
        GgmlDType::F32 | GgmlDType::F16 | GgmlDType::BF16 => None,
        _ if float => Some(GgmlDType::F16),
        slow if SLOW_TYPES.contains(&slow) => Some(GgmlDType::Q8_0),
        _ => None,
    }
}

/// The same model with its tensors converted (see [`target`]), as an
/// in-memory GGUF that candle's loaders read like the file.
fn converted<R: Read + Seek>(
    gguf: Content,
    reader: &mut R,
    device: &Device,
    float: bool,
) -> candle_core::Result<(Content, Cursor<Vec<u8>>)> {
    let mut names: Vec<&String> = gguf.tensor_infos.keys().collect();
    names.sort();
    let mut tensors = Vec::with_capacity(names.len());
    for name in names {
        let tensor = gguf.tensor(reader, name, device)?;
        let whole_blocks = |dtype: GgmlDType| tensor.shape().dims().last().is_some_and(|n| n % dtype.block_size() == 0);
        let tensor = match target(tensor.dtype(), float) {
            Some(dtype) if whole_blocks(dtype) => QTensor::quantize(&tensor.dequantize(device)?, dtype)?,
            _ => tensor,
        };
        tensors.push((name.as_str(), tensor));
    }
    // The tokenizer's metadata is large and not needed to build the model;
    // the alignment is the writer's own.
    let metadata: Vec<(&str, &gguf_file::Value)> = gguf
        .metadata
        .iter()
        .filter(|(key, _)| !key.starts_with("tokenizer.") && key.as_str() != "general.alignment")
        .map(|(key, value)| (key.as_str(), value))
        .collect();
    let mut memory = Cursor::new(Vec::new());
    let refs: Vec<(&str, &QTensor)> = tensors.iter().map(|(name, tensor)| (*name, tensor)).collect();
    gguf_file::write(&mut memory, &metadata, &refs)?;
    drop(tensors);
    memory.set_position(0);
    let content = Content::read(&mut memory)?;
    Ok((content, memory))
}

/// The most likely next token after lowering the logits of recent tokens.
fn greedy(logits: &Tensor, recent: &[u32]) -> candle_core::Result<u32> {
    let mut logits: Vec<f32> = logits.to_vec1()?;
    let mut recent = recent.to_vec();
    recent.sort_unstable();
    recent.dedup();
    for token in recent {
        if let Some(l) = logits.get_mut(token as usize) {
            *l = if *l > 0.0 { *l / REPEAT_PENALTY } else { *l * REPEAT_PENALTY };
        }
    }
    logits
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map(|(i, _)| i as u32)
        .ok_or_else(|| candle_core::Error::Msg("the model gave no logits".into()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::summarise::llm::qwen2::tests::{agree, model_file};

    fn model() -> Model {
        let mut file = std::fs::File::open(model_file()).unwrap();
        let gguf = Content::read(&mut file).unwrap();
        Model::load(gguf, &mut file, 0).unwrap()
    }

    #[test]
    fn a_prompt_read_after_one_it_starts_like_gives_the_logits_of_a_fresh_read() {
        let mut warm = model();
        let start: Vec<u32> = (0..30).map(|i| 1000 + i * 37).collect();
        let first: Vec<u32> = start.iter().copied().chain([5, 6, 7]).collect();
        let second: Vec<u32> = start.iter().copied().chain([8, 9]).collect();
        warm.read(&first).unwrap();
        let kept = warm.read(&second).unwrap();
        assert_eq!(warm.read, second, "the shared start kept, the rest read anew");
        let fresh = model().read(&second).unwrap();
        assert!(agree(&kept, &fresh));
        // The same prompt again: its last token is read again, for its logits.
        let again = warm.read(&second).unwrap();
        assert!(agree(&again, &fresh));
    }
}

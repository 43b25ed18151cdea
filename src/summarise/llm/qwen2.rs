//! Qwen2 from GGUF, our own forward pass over candle's quantised products.
//!
//! candle's `quantized_qwen2` computes the same thing but holds memory a
//! 2 GB box does not have: the token embeddings as f32 (151,936 × 1,536:
//! 933 MB, where the file holds them in 131 MB), every key and value cache
//! grown by concatenation (a full copy per token), the grouped keys and
//! values copied once per query head, and a causal mask kept for every
//! prompt length and position it saw. Here the embeddings stay quantised and
//! a token's row is dequantised when it is read, the caches grow by
//! doubling and are written in place, each key-value head attends for its
//! group of query heads at once, the mask is built per call, and the weights
//! are multiplied in the file's own blocks (see [`Compact`]).

use std::borrow::Cow;
use std::io::{Read, Seek};

use candle_core::quantized::gguf_file::Content;
use candle_core::quantized::{GgmlDType, QStorage, QTensor};
use candle_core::{DType, Device, Result, Tensor};

use super::compact::Compact;

/// Key-value caches grow by this many positions at least.
const CACHE_STEP: usize = 512;
/// Attention scores are computed for as many queries at once as keep them
/// under this many (16 MB): a 512-token piece of prompt late in a long
/// meeting would otherwise hold 6 × 512 × 6,000 scores, three times over
/// (scores, masked, softmax).
const SCORES_AT_ONCE: usize = 1 << 22;

pub struct Qwen2 {
    embeddings: Rows,
    layers: Vec<Layer>,
    norm: Tensor,
    eps: f32,
    output: Compact,
    cos: Tensor,
    sin: Tensor,
    shape: Shape,
}

/// A quantised matrix read a row at a time.
struct Rows {
    bytes: Vec<u8>,
    dtype: GgmlDType,
    width: usize,
    row_bytes: usize,
}

struct Layer {
    attention_norm: Tensor,
    q: Compact,
    k: Compact,
    v: Compact,
    q_bias: Tensor,
    k_bias: Tensor,
    v_bias: Tensor,
    out: Compact,
    ffn_norm: Tensor,
    gate: Compact,
    up: Compact,
    down: Compact,
    cache: Cache,
}

/// Keys and values `[kv_heads, capacity, head_dim]`, the first `len` positions filled.
#[derive(Default)]
struct Cache {
    keys: Option<Tensor>,
    values: Option<Tensor>,
    len: usize,
}

impl Qwen2 {
    pub fn from_gguf<R: Read + Seek>(gguf: &Content, reader: &mut R, device: &Device, context: usize) -> Result<Self> {
        let number = |key: &str| -> Result<&candle_core::quantized::gguf_file::Value> {
            gguf.metadata.get(&format!("qwen2.{key}")).ok_or_else(|| candle_core::Error::Msg(format!("no qwen2.{key}")))
        };
        let heads = number("attention.head_count")?.to_u32()? as usize;
        let kv_heads = number("attention.head_count_kv")?.to_u32()? as usize;
        let hidden = number("embedding_length")?.to_u32()? as usize;
        let layers = number("block_count")?.to_u32()? as usize;
        let eps = number("attention.layer_norm_rms_epsilon")?.to_f32()?;
        let rope_base = number("rope.freq_base").and_then(|v| v.to_f32()).unwrap_or(10_000.0);
        let head_dim = hidden / heads;
        let mut tensor = |name: &str| gguf.tensor(reader, name, device);
        let float = |t: QTensor| t.dequantize(device);
        let embeddings = Rows::new(tensor("token_embd.weight")?)?;
        let output = match tensor("output.weight") {
            Ok(output) => Compact::new(output)?,
            // Tied to the embeddings.
            Err(_) => Compact::new(tensor("token_embd.weight")?)?,
        };
        let norm = float(tensor("output_norm.weight")?)?;
        let layers = (0..layers)
            .map(|i| {
                let mut part = |name: &str| tensor(&format!("blk.{i}.{name}"));
                Ok(Layer {
                    attention_norm: float(part("attn_norm.weight")?)?,
                    q: Compact::new(part("attn_q.weight")?)?,
                    k: Compact::new(part("attn_k.weight")?)?,
                    v: Compact::new(part("attn_v.weight")?)?,
                    q_bias: float(part("attn_q.bias")?)?,
                    k_bias: float(part("attn_k.bias")?)?,
                    v_bias: float(part("attn_v.bias")?)?,
                    out: Compact::new(part("attn_output.weight")?)?,
                    ffn_norm: float(part("ffn_norm.weight")?)?,
                    gate: Compact::new(part("ffn_gate.weight")?)?,
                    up: Compact::new(part("ffn_up.weight")?)?,
                    down: Compact::new(part("ffn_down.weight")?)?,
                    cache: Cache::default(),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let (cos, sin) = rotations(head_dim, rope_base, context, device)?;
        Ok(Self { embeddings, layers, norm, eps, output, cos, sin, shape: Shape { heads, kv_heads, head_dim } })
    }

    /// Reads `tokens` at positions from `position` (the caches hold the
    /// positions before it): the logits of the token after the last.
    pub fn forward(&mut self, tokens: &[u32], position: usize) -> Result<Tensor> {
        let device = self.norm.device().clone();
        let rows = tokens.iter().map(|&t| self.embeddings.row(t as usize, &device)).collect::<Result<Vec<_>>>()?;
        let mut x = Tensor::cat(&rows, 0)?;
        let n = tokens.len();
        let (cos, sin) = (self.cos.narrow(0, position, n)?, self.sin.narrow(0, position, n)?);
        for layer in &mut self.layers {
            let normed = candle_nn::ops::rms_norm(&x, &layer.attention_norm, self.eps)?;
            x = (&x + layer.attend(&normed, position, &cos, &sin, self.shape)?)?;
            let normed = candle_nn::ops::rms_norm(&x, &layer.ffn_norm, self.eps)?;
            let gated = (candle_nn::ops::silu(&layer.gate.forward(&normed)?)? * layer.up.forward(&normed)?)?;
            x = (&x + layer.down.forward(&gated)?)?;
        }
        let last = x.narrow(0, n - 1, 1)?;
        let last = candle_nn::ops::rms_norm(&last, &self.norm, self.eps)?;
        self.output.forward(&last)?.squeeze(0)
    }

    /// Makes room for `positions` in every cache at once, so reading a long
    /// prompt piece by piece allocates the caches once.
    pub fn reserve(&mut self, positions: usize) -> Result<()> {
        for layer in &mut self.layers {
            layer.cache.reserve(positions, self.shape.kv_heads, self.shape.head_dim, self.norm.device())?;
        }
        Ok(())
    }

    /// Forgets every position from `positions` on; the caches keep their
    /// room, for what is read next.
    pub fn truncate(&mut self, positions: usize) {
        for layer in &mut self.layers {
            layer.cache.len = layer.cache.len.min(positions);
        }
    }
}

#[derive(Clone, Copy)]
struct Shape {
    heads: usize,
    kv_heads: usize,
    head_dim: usize,
}

impl Layer {
    /// Self-attention of `x` (`[n, hidden]`, at positions from `position`).
    fn attend(&mut self, x: &Tensor, position: usize, cos: &Tensor, sin: &Tensor, shape: Shape) -> Result<Tensor> {
        let Shape { heads, kv_heads, head_dim } = shape;
        let n = x.dim(0)?;
        let split = |t: Tensor, count: usize| -> Result<Tensor> {
            // [n, count·d] → [1, count, n, d], as rope takes it.
            t.reshape((n, count, head_dim))?.transpose(0, 1)?.contiguous()?.unsqueeze(0)
        };
        let q = split(self.q.forward(x)?.broadcast_add(&self.q_bias)?, heads)?;
        let k = split(self.k.forward(x)?.broadcast_add(&self.k_bias)?, kv_heads)?;
        let v = split(self.v.forward(x)?.broadcast_add(&self.v_bias)?, kv_heads)?;
        let q = candle_nn::rotary_emb::rope(&q, cos, sin)?.squeeze(0)?;
        let k = candle_nn::rotary_emb::rope(&k, cos, sin)?.squeeze(0)?;
        let (keys, values) = self.cache.append(&k, &v.squeeze(0)?, position)?;
        let seen = keys.dim(1)?;
        let group = heads / kv_heads;
        // Query heads h·group … (h+1)·group − 1 share key-value head h.
        let q = (q.reshape((kv_heads, group * n, head_dim))? / (head_dim as f64).sqrt())?;
        let rows = (SCORES_AT_ONCE / (group * seen)).clamp(1, n);
        let mut outputs = Vec::with_capacity(kv_heads);
        for h in 0..kv_heads {
            let (q, keys, values) =
                (q.get(h)?.reshape((group, n, head_dim))?, keys.get(h)?, values.get(h)?.contiguous()?);
            let mut parts = Vec::with_capacity(n.div_ceil(rows));
            for first in (0..n).step_by(rows) {
                let count = rows.min(n - first);
                let q = q.narrow(1, first, count)?.reshape((group * count, head_dim))?;
                let scores = q.matmul(&keys.t()?)?.reshape((group, count, seen))?;
                // Query `first + i` of this piece sits at position `seen − n + first + i`.
                let scores = match n > 1 {
                    true => scores.broadcast_add(&causal_mask(seen - n + first, count, seen, x.device())?)?,
                    false => scores,
                };
                let weights = candle_nn::ops::softmax_last_dim(&scores.reshape((group * count, seen))?)?;
                parts.push(weights.matmul(&values)?.reshape((group, count, head_dim))?);
            }
            outputs.push(Tensor::cat(&parts, 1)?);
        }
        // [kv_heads, group·n, d] → [heads, n, d] → [n, heads·d].
        let out = Tensor::stack(&outputs, 0)?.reshape((heads, n, head_dim))?.transpose(0, 1)?.contiguous()?;
        self.out.forward(&out.reshape((n, heads * head_dim))?)
    }
}

impl Cache {
    fn capacity(&self) -> usize {
        self.keys.as_ref().and_then(|t| t.dim(1).ok()).unwrap_or(0)
    }

    /// Room for `positions` in all, the filled ones copied over.
    fn reserve(&mut self, positions: usize, kv_heads: usize, d: usize, device: &Device) -> Result<()> {
        if positions <= self.capacity() {
            return Ok(());
        }
        let grown = positions.next_multiple_of(CACHE_STEP);
        let fresh = || Tensor::zeros((kv_heads, grown, d), DType::F32, device);
        let (keys, values) = (fresh()?, fresh()?);
        if let (Some(old_keys), Some(old_values)) = (&self.keys, &self.values)
            && self.len > 0
        {
            keys.slice_set(&old_keys.narrow(1, 0, self.len)?.contiguous()?, 1, 0)?;
            values.slice_set(&old_values.narrow(1, 0, self.len)?.contiguous()?, 1, 0)?;
        }
        (self.keys, self.values) = (Some(keys), Some(values));
        Ok(())
    }

    /// Writes `k` and `v` (`[kv_heads, n, d]`) at `position` and returns
    /// every position's keys and values so far, as views.
    fn append(&mut self, k: &Tensor, v: &Tensor, position: usize) -> Result<(Tensor, Tensor)> {
        let (kv_heads, n, d) = k.dims3()?;
        if position != self.len {
            candle_core::bail!("the cache holds {} positions, not {position}", self.len);
        }
        self.reserve(self.len + n, kv_heads, d, k.device())?;
        let (Some(keys), Some(values)) = (&self.keys, &self.values) else {
            candle_core::bail!("the cache was not allocated");
        };
        keys.slice_set(k, 1, self.len)?;
        values.slice_set(v, 1, self.len)?;
        self.len += n;
        Ok((keys.narrow(1, 0, self.len)?, values.narrow(1, 0, self.len)?))
    }
}

impl Rows {
    fn new(tensor: QTensor) -> Result<Self> {
        let (count, width) = tensor.shape().dims2()?;
        let dtype = tensor.dtype();
        let bytes = tensor.data()?.into_owned();
        let row_bytes = bytes.len() / count;
        Ok(Self { bytes, dtype, width, row_bytes })
    }

    /// Row `row` as `[1, width]` f32.
    fn row(&self, row: usize, device: &Device) -> Result<Tensor> {
        let Some(bytes) = self.bytes.get(row * self.row_bytes..(row + 1) * self.row_bytes) else {
            candle_core::bail!("token {row} is outside the vocabulary");
        };
        let storage = QStorage::from_data(Cow::Borrowed(bytes), device, self.dtype)?;
        QTensor::new(storage, (1, self.width))?.dequantize(device)
    }
}

/// The rotary angles' cosines and sines, `[positions, head_dim / 2]`.
fn rotations(head_dim: usize, base: f32, positions: usize, device: &Device) -> Result<(Tensor, Tensor)> {
    let inverse: Vec<f32> = (0..head_dim).step_by(2).map(|i| 1.0 / base.powf(i as f32 / head_dim as f32)).collect();
    let inverse = Tensor::new(inverse.as_slice(), device)?.unsqueeze(0)?;
    let at = Tensor::arange(0u32, positions as u32, device)?.to_dtype(DType::F32)?.unsqueeze(1)?;
    let angles = at.broadcast_mul(&inverse)?;
    Ok((angles.cos()?, angles.sin()?))
}

/// `[count, seen]`: 0 where the query at position `first + i` may look
/// (positions up to its own), −∞ after it.
fn causal_mask(first: usize, count: usize, seen: usize, device: &Device) -> Result<Tensor> {
    let mask: Vec<f32> =
        (0..count).flat_map(|i| (0..seen).map(move |j| if j > first + i { f32::NEG_INFINITY } else { 0.0 })).collect();
    Tensor::from_vec(mask, (count, seen), device)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use candle_transformers::models::quantized_qwen2::ModelWeights;

    /// The coder model `scripts/test-models` fetches; the check needs real
    /// weights, whose attention and rotary layout are what could be wrong.
    pub(in crate::summarise::llm) fn model_file() -> std::path::PathBuf {
        let root = std::env::var_os("DEBRIEF_TEST_MODELS")
            .expect("DEBRIEF_TEST_MODELS names the test models (scripts/test sets it)");
        std::path::Path::new(&root).join("qwen-coder-1.5b").join("model.gguf")
    }

    /// Whether two logit vectors say the same: the same likeliest token and
    /// no logit a unit apart. The products quantise each input row to 8 bits
    /// as they go, so a last-digit difference in the order of additions can
    /// move a value across a rounding step; candle's model, read whole or a
    /// token at a time, differs from itself by up to 0.6 on these prompts.
    /// A wrong head, rotation or mask moves logits by several units.
    pub(in crate::summarise::llm) fn agree(a: &Tensor, b: &Tensor) -> bool {
        let difference = (a - b).unwrap().abs().unwrap().max(0).unwrap().to_scalar::<f32>().unwrap();
        let best = |t: &Tensor| t.argmax(0).unwrap().to_scalar::<u32>().unwrap();
        difference < 1.0 && best(a) == best(b)
    }

    #[test]
    fn our_qwen2_gives_candles_logits_read_whole_in_pieces_token_by_token_and_after_a_kept_start() {
        let device = Device::Cpu;
        let mut file = std::fs::File::open(model_file()).unwrap();
        let gguf = Content::read(&mut file).unwrap();
        let mut ours = Qwen2::from_gguf(&gguf, &mut file, &device, 4096).unwrap();
        let mut file = std::fs::File::open(model_file()).unwrap();
        let mut candles = ModelWeights::from_gguf(Content::read(&mut file).unwrap(), &mut file, &device).unwrap();
        let prompt: Vec<u32> = (0..40).map(|i| 1000 + i * 37).collect();
        let reference =
            candles.forward(&Tensor::new(prompt.as_slice(), &device).unwrap().unsqueeze(0).unwrap(), 0).unwrap();
        let reference = reference.squeeze(0).unwrap();
        let whole = ours.forward(&prompt, 0).unwrap();
        assert!(agree(&whole, &reference));

        ours.truncate(0);
        ours.forward(&prompt[..25], 0).unwrap();
        let pieces = ours.forward(&prompt[25..], 25).unwrap();
        assert!(agree(&pieces, &whole));

        for (step, token) in [7u32, 99, 3021].into_iter().enumerate() {
            let position = prompt.len() + step;
            let input = Tensor::new(&[token], &device).unwrap().unsqueeze(0).unwrap();
            let reference = candles.forward(&input, position).unwrap().squeeze(0).unwrap();
            let next = ours.forward(&[token], position).unwrap();
            assert!(agree(&next, &reference), "step {step}");
        }
        assert!(ours.forward(&[1], 10).is_err(), "a position the caches do not hold is refused");

        // The first 25 positions kept, the rest read again over the tokens read since.
        ours.truncate(25);
        let again = ours.forward(&prompt[25..], 25).unwrap();
        assert!(agree(&again, &whole));
    }
}

//! What the encoder and the decoder are both built from: projections, layer
//! norms, multi-head attention and the feed-forward block, over the weights
//! in their Hugging Face names.

use candle_core::{Module, Result, Tensor};
use candle_nn::{LayerNorm, Linear, VarBuilder};

pub use crate::asr::AsrPrecision as Precision;

use super::int8::Int8Linear;
use super::kernels;

/// A projection at the chosen precision.
#[derive(Debug, Clone)]
pub enum Projection {
    Float(Linear),
    Int8(Int8Linear),
}

impl Projection {
    pub fn new(linear: Linear, precision: Precision) -> Result<Self> {
        Ok(match precision {
            Precision::F32 => Self::Float(linear),
            Precision::Int8 => Self::Int8(Int8Linear::quantize(linear.weight(), linear.bias())?),
        })
    }
}

impl Module for Projection {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        match self {
            Self::Float(linear) => linear.forward(x),
            Self::Int8(int8) => int8.forward(x),
        }
    }
}

pub fn linear(vb: &VarBuilder, name: &str, inputs: usize, outputs: usize) -> Result<Linear> {
    let vb = vb.pp(name);
    Ok(Linear::new(vb.get((outputs, inputs), "weight")?, Some(vb.get(outputs, "bias")?)))
}

pub fn layer_norm(vb: &VarBuilder, name: &str, size: usize) -> Result<LayerNorm> {
    let vb = vb.pp(name);
    Ok(LayerNorm::new(vb.get(size, "weight")?, vb.get(size, "bias")?, 1e-5))
}

/// The query, key and value projections of `vb` as one matrix (one product
/// a step instead of three), the parts chosen by `parts`.
///
/// Whisper scales queries and keys each by dₕ^−¼ before their product; the
/// whole dₕ^−½ is folded into the query weights here, which saves a pass
/// over every score matrix. Keys have no bias: one would add the same amount
/// to every score of a query, which softmax ignores.
pub fn fused_projection(vb: &VarBuilder, d: usize, heads: usize, parts: &[&str]) -> Result<Linear> {
    let scale = 1.0 / ((d / heads) as f64).sqrt();
    let mut weights = Vec::new();
    let mut biases = Vec::new();
    for &part in parts {
        let vb = vb.pp(part);
        let (w, b) = match part {
            "k_proj" => (vb.get((d, d), "weight")?, Tensor::zeros(d, vb.dtype(), vb.device())?),
            "q_proj" => ((vb.get((d, d), "weight")? * scale)?, (vb.get(d, "bias")? * scale)?),
            _ => (vb.get((d, d), "weight")?, vb.get(d, "bias")?),
        };
        weights.push(w);
        biases.push(b);
    }
    Ok(Linear::new(Tensor::cat(&weights, 0)?, Some(Tensor::cat(&biases, 0)?)))
}

/// `[t, parts·heads·dₕ]` → `parts` tensors of `[heads, t, dₕ]`, one copy.
pub fn split_heads(x: &Tensor, parts: usize, heads: usize) -> Result<Vec<Tensor>> {
    let (t, width) = x.dims2()?;
    let x = x.reshape((t, parts, heads, width / parts / heads))?.permute((1, 2, 0, 3))?.contiguous()?;
    (0..parts).map(|i| x.get(i)).collect()
}

/// Score matrices are computed a few heads at a time, up to this many
/// scores (8 MB): the encoder's 6×1500×1500 at once (54 MB) leave the caches
/// and, past glibc's 32 MB mmap threshold, page-fault afresh every layer.
/// One head at a time made the encoder 12 % faster (3.1–3.5 s against
/// 3.8–3.9 s for the three windows of the minute of test speech).
const SCORES_PER_CHUNK: usize = 1 << 21;

/// Softmax attention per head, the query pre-scaled: `[heads, tq, dₕ]` with
/// keys and values `[heads, tk, dₕ]` → `[tq, heads·dₕ]`.
pub fn attend(q: &Tensor, k: &Tensor, v: &Tensor) -> Result<Tensor> {
    let (heads, tq, dh) = q.dims3()?;
    let tk = k.dim(1)?;
    let per_chunk = (SCORES_PER_CHUNK / (tq * tk).max(1)).clamp(1, heads);
    let mut chunks = Vec::with_capacity(heads.div_ceil(per_chunk));
    for first in (0..heads).step_by(per_chunk) {
        let n = per_chunk.min(heads - first);
        let scores = q.narrow(0, first, n)?.matmul(&k.narrow(0, first, n)?.t()?)?;
        kernels::softmax(&scores)?;
        chunks.push(scores.matmul(&v.narrow(0, first, n)?)?);
    }
    let out = if chunks.len() == 1 { chunks.remove(0) } else { Tensor::cat(&chunks, 0)? };
    out.transpose(0, 1)?.contiguous()?.reshape((tq, heads * dh))
}

/// The feed-forward half of a block, its residual included.
#[derive(Debug, Clone)]
pub struct FeedForward {
    norm: LayerNorm,
    up: Projection,
    down: Projection,
}

impl FeedForward {
    pub fn load(vb: &VarBuilder, d: usize, hidden: usize, precision: Precision) -> Result<Self> {
        Ok(Self {
            norm: layer_norm(vb, "final_layer_norm", d)?,
            up: Projection::new(linear(vb, "fc1", d, hidden)?, precision)?,
            down: Projection::new(linear(vb, "fc2", hidden, d)?, precision)?,
        })
    }

    pub fn forward(&self, x: &Tensor) -> Result<Tensor> {
        let hidden = self.up.forward(&self.norm.forward(x)?)?;
        kernels::gelu(&hidden)?;
        x + self.down.forward(&hidden)?
    }
}

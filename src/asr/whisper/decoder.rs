//! The text decoder, run one token at a time. candle's Whisper re-feeds the
//! whole prefix at every step because it caches only the cross-attention
//! (34 ms a token on this kind of machine, per the stack notes); here each
//! block also keeps the keys and values of the tokens already seen, so a
//! step costs one position, not the whole prefix: 10–13 ms a token, half
//! of it the output projection over the 51,864-token vocabulary.

use candle_core::{Module, Result, Tensor};
use candle_nn::kv_cache::KvCache;
use candle_nn::{LayerNorm, Linear, VarBuilder};

use super::config::Config;
use super::int8::Int8Linear;
use super::layers::{FeedForward, Precision, Projection, attend, fused_projection, layer_norm, linear, split_heads};

/// The likeliest tokens by the int8 logits that are computed again to
/// within 1/127 of a step (see [`Int8Linear::refine`]): the greedy pick is
/// among them, and it is exactly what decides.
const REFINED: usize = 16;

#[derive(Debug, Clone)]
pub struct Decoder {
    /// Also the output projection: Whisper ties the two.
    embeddings: Embeddings,
    positions: Tensor,
    blocks: Vec<Block>,
    norm: LayerNorm,
    heads: usize,
}

#[derive(Debug, Clone)]
struct Block {
    self_norm: LayerNorm,
    self_qkv: Projection,
    self_out: Projection,
    cross_norm: LayerNorm,
    cross_q: Projection,
    /// Applied to the audio once a window, 1,500 rows: a matrix product
    /// that floats do well, whatever the precision.
    cross_kv: Linear,
    cross_out: Projection,
    feed_forward: FeedForward,
}

/// The token embeddings, which are also the output projection.
#[derive(Debug, Clone)]
enum Embeddings {
    Float(Tensor),
    /// With the residual kept, for the likeliest tokens (see `int8`).
    Int8(Int8Linear),
}

impl Embeddings {
    fn lookup(&self, token: u32) -> Result<Tensor> {
        match self {
            Self::Float(table) => table.narrow(0, token as usize, 1),
            Self::Int8(table) => {
                let row = table.row(token as usize);
                let width = row.len();
                Tensor::from_vec(row, (1, width), &candle_core::Device::Cpu)
            }
        }
    }

    /// The logits of `x`, `[1, d]`.
    fn logits(&self, x: &Tensor) -> Result<Vec<f32>> {
        match self {
            Self::Float(table) => x.matmul(&table.t()?)?.squeeze(0)?.to_vec1(),
            Self::Int8(table) => {
                let x: Vec<f32> = x.squeeze(0)?.to_vec1()?;
                let mut logits = vec![0f32; table.outputs()];
                table.apply(&x, &mut logits);
                let best = largest(&logits, REFINED);
                table.refine(&x, &best, &mut logits);
                Ok(logits)
            }
        }
    }
}

/// The positions of the `k` largest of `values`, in no order, in one pass
/// that keeps the smallest of those found so far at hand: no 51,864-entry
/// index to sort at every token.
fn largest(values: &[f32], k: usize) -> Vec<usize> {
    let mut kept: Vec<usize> = Vec::with_capacity(k);
    let smallest = |kept: &[usize]| (0..kept.len()).min_by(|&a, &b| values[kept[a]].total_cmp(&values[kept[b]]));
    let mut floor = None;
    for (i, &value) in values.iter().enumerate() {
        if kept.len() < k {
            kept.push(i);
            if kept.len() == k {
                floor = smallest(&kept);
            }
        } else if let Some(at) = floor
            && value > values[kept[at]]
        {
            kept[at] = i;
            floor = smallest(&kept);
        }
    }
    kept
}

/// One window's decoding: the audio's keys and values for every block, and
/// the tokens' so far.
pub struct Session {
    cross: Vec<(Tensor, Tensor)>,
    cache: Vec<KvCache>,
    position: usize,
}

impl Decoder {
    pub fn load(vb: &VarBuilder, c: &Config, precision: Precision) -> Result<Self> {
        let (d, heads) = (c.d_model, c.decoder_attention_heads);
        let at = |linear: Linear| Projection::new(linear, precision);
        let blocks = (0..c.decoder_layers)
            .map(|i| {
                let vb = vb.pp(format!("layers.{i}"));
                let (own, cross) = (vb.pp("self_attn"), vb.pp("encoder_attn"));
                Ok(Block {
                    self_norm: layer_norm(&vb, "self_attn_layer_norm", d)?,
                    self_qkv: at(fused_projection(&own, d, heads, &["q_proj", "k_proj", "v_proj"])?)?,
                    self_out: at(linear(&own, "out_proj", d, d)?)?,
                    cross_norm: layer_norm(&vb, "encoder_attn_layer_norm", d)?,
                    cross_q: at(fused_projection(&cross, d, heads, &["q_proj"])?)?,
                    cross_kv: fused_projection(&cross, d, heads, &["k_proj", "v_proj"])?,
                    cross_out: at(linear(&cross, "out_proj", d, d)?)?,
                    feed_forward: FeedForward::load(&vb, d, c.decoder_ffn_dim, precision)?,
                })
            })
            .collect::<Result<_>>()?;
        let table = vb.get((c.vocab_size, d), "embed_tokens.weight")?;
        let embeddings = match precision {
            Precision::F32 => Embeddings::Float(table),
            Precision::Int8 => Embeddings::Int8(Int8Linear::quantize(&table, None)?.with_residual(&table)?),
        };
        Ok(Self {
            embeddings,
            positions: vb.get((c.max_target_positions, d), "embed_positions.weight")?,
            blocks,
            norm: layer_norm(vb, "layer_norm", d)?,
            heads,
        })
    }

    /// How many tokens a window can hold, prompt included.
    pub fn context(&self) -> usize {
        self.positions.dims()[0]
    }

    /// Starts a window over the encoder's output `[positions, d]`.
    pub fn session(&self, audio: &Tensor) -> Result<Session> {
        let cross = self
            .blocks
            .iter()
            .map(|b| {
                let kv = split_heads(&b.cross_kv.forward(audio)?, 2, self.heads)?;
                Ok((kv[0].clone(), kv[1].clone()))
            })
            .collect::<Result<_>>()?;
        let cache = self.blocks.iter().map(|_| KvCache::new(1, self.context())).collect();
        Ok(Session { cross, cache, position: 0 })
    }

    /// Feeds one token; returns the logits of the next.
    pub fn step(&self, session: &mut Session, token: u32) -> Result<Vec<f32>> {
        if session.position >= self.context() {
            candle_core::bail!("the decoder's context of {} tokens is full", self.context());
        }
        let embedding = self.embeddings.lookup(token)?;
        let mut x = (embedding + self.positions.narrow(0, session.position, 1)?)?;
        for ((block, cache), (cross_k, cross_v)) in self.blocks.iter().zip(&mut session.cache).zip(&session.cross) {
            let qkv = split_heads(&block.self_qkv.forward(&block.self_norm.forward(&x)?)?, 3, self.heads)?;
            let (k, v) = cache.append(&qkv[1], &qkv[2])?;
            x = (&x + block.self_out.forward(&attend(&qkv[0], &k, &v)?)?)?;
            let q = split_heads(&block.cross_q.forward(&block.cross_norm.forward(&x)?)?, 1, self.heads)?;
            x = (&x + block.cross_out.forward(&attend(&q[0], cross_k, cross_v)?)?)?;
            x = block.feed_forward.forward(&x)?;
        }
        session.position += 1;
        self.embeddings.logits(&self.norm.forward(&x)?)
    }
}

#[cfg(test)]
mod tests {
    use super::largest;

    #[test]
    fn the_largest_values_are_found_in_one_pass_as_a_sort_finds_them() {
        // A spread of values with no ties, in a scrambled order.
        let values: Vec<f32> = (0..5_000u32).map(|i| ((i * 7_919) % 5_003) as f32 - 2_500.0).collect();
        let mut sorted: Vec<usize> = (0..values.len()).collect();
        sorted.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
        for k in [1, 16, 100] {
            let mut found = largest(&values, k);
            found.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
            assert_eq!(found, sorted[..k], "k = {k}");
        }
        assert_eq!(largest(&values[..3], 16).len(), 3, "fewer values than asked: all of them");
        assert!(largest(&values, 0).is_empty());
    }
}

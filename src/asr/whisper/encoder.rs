//! The audio encoder: two convolutions over the log-mel frames (the second
//! halves the rate to 50 positions a second), sinusoidal positions stored
//! with the weights, and pre-norm self-attention blocks.

use candle_core::{Module, Result, Tensor};
use candle_nn::{Conv1d, Conv1dConfig, LayerNorm, Linear, VarBuilder};

use super::config::Config;
use super::kernels;
use super::layers::{FeedForward, Precision, attend, fused_projection, layer_norm, linear, split_heads};

#[derive(Debug, Clone)]
pub struct Encoder {
    conv1: Conv1d,
    conv2: Conv1d,
    positions: Tensor,
    blocks: Vec<Block>,
    norm: LayerNorm,
}

#[derive(Debug, Clone)]
struct Block {
    norm: LayerNorm,
    qkv: Linear,
    out: Linear,
    heads: usize,
    feed_forward: FeedForward,
}

impl Encoder {
    pub fn load(vb: &VarBuilder, c: &Config) -> Result<Self> {
        let d = c.d_model;
        let conv = |name: &str, inputs: usize, stride: usize| -> Result<Conv1d> {
            let vb = vb.pp(name);
            let config = Conv1dConfig { padding: 1, stride, ..Default::default() };
            Ok(Conv1d::new(vb.get((d, inputs, 3), "weight")?, Some(vb.get(d, "bias")?), config))
        };
        let blocks = (0..c.encoder_layers)
            .map(|i| {
                let vb = vb.pp(format!("layers.{i}"));
                let attn = vb.pp("self_attn");
                Ok(Block {
                    norm: layer_norm(&vb, "self_attn_layer_norm", d)?,
                    qkv: fused_projection(&attn, d, c.encoder_attention_heads, &["q_proj", "k_proj", "v_proj"])?,
                    out: linear(&attn, "out_proj", d, d)?,
                    heads: c.encoder_attention_heads,
                    feed_forward: FeedForward::load(&vb, d, c.encoder_ffn_dim, Precision::F32)?,
                })
            })
            .collect::<Result<_>>()?;
        Ok(Self {
            conv1: conv("conv1", c.num_mel_bins, 1)?,
            conv2: conv("conv2", d, 2)?,
            positions: vb.get((c.max_source_positions, d), "embed_positions.weight")?,
            blocks,
            norm: layer_norm(vb, "layer_norm", d)?,
        })
    }

    /// `[1, n_mels, frames]` → `[frames / 2, d]`.
    pub fn forward(&self, mel: &Tensor) -> Result<Tensor> {
        let x = self.conv1.forward(mel)?;
        kernels::gelu(&x)?;
        let x = self.conv2.forward(&x)?;
        kernels::gelu(&x)?;
        let x = x.squeeze(0)?.t()?;
        let positions = self.positions.narrow(0, 0, x.dim(0)?)?;
        let mut x = (x + positions)?;
        for block in &self.blocks {
            let qkv = split_heads(&block.qkv.forward(&block.norm.forward(&x)?)?, 3, block.heads)?;
            x = (&x + block.out.forward(&attend(&qkv[0], &qkv[1], &qkv[2])?)?)?;
            x = block.feed_forward.forward(&x)?;
        }
        self.norm.forward(&x)
    }
}

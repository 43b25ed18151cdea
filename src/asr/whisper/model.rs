//! The weights of a model folder, loaded into the encoder and the decoder.
//!
//! Computation is in f32 whatever the file holds: candle's f16 on CPU is
//! slower. Measured on the minute of test speech, one thread, the encoder
//! took 11–16 s in f16 against 2.8–3.2 s in f32, and the decoder was no
//! faster (11–16 against 12 ms a token).

use std::path::Path;

use candle_core::DType;
use candle_nn::VarBuilder;

use super::config::Config;
use super::decoder::Decoder;
use super::encoder::Encoder;
use super::layers::Precision;
use crate::asr::EngineError;

#[derive(Debug, Clone)]
pub struct Model {
    pub encoder: Encoder,
    pub decoder: Decoder,
}

impl Model {
    pub fn load(path: &Path, config: &Config, precision: Precision) -> Result<Self, EngineError> {
        let bad = |reason: String| EngineError::BadModel(format!("{}: {reason}", path.display()));
        let vb = crate::weights::read(path, DType::F32).map_err(bad)?;
        Self::new(&vb, config, precision).map_err(|e| bad(format!("does not fit its config.json: {e}")))
    }

    pub fn new(vb: &VarBuilder, config: &Config, precision: Precision) -> candle_core::Result<Self> {
        Ok(Self {
            encoder: Encoder::load(&vb.pp("model.encoder"), config)?,
            decoder: Decoder::load(&vb.pp("model.decoder"), config, precision)?,
        })
    }
}

//! The model's `config.json`, in the Hugging Face keys: the converter writes
//! it and the engine reads it, so a folder converted here and one downloaded
//! from the Hugging Face hub load the same way.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::asr::EngineError;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Config {
    #[serde(default = "whisper")]
    pub model_type: String,
    pub num_mel_bins: usize,
    pub d_model: usize,
    pub encoder_layers: usize,
    pub encoder_attention_heads: usize,
    pub encoder_ffn_dim: usize,
    pub decoder_layers: usize,
    pub decoder_attention_heads: usize,
    pub decoder_ffn_dim: usize,
    pub vocab_size: usize,
    pub max_source_positions: usize,
    pub max_target_positions: usize,
    /// Never sampled (symbols that are not speech, task tokens, …).
    #[serde(default)]
    pub suppress_tokens: Vec<u32>,
    /// Never sampled as the first token of a window (a blank, the end).
    #[serde(default)]
    pub begin_suppress_tokens: Vec<u32>,
}

fn whisper() -> String {
    "whisper".into()
}

impl Config {
    pub fn read(path: &Path) -> Result<Self, EngineError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| EngineError::BadModel(format!("cannot read {}: {e}", path.display())))?;
        let config: Self = serde_json::from_str(&text)
            .map_err(|e| EngineError::BadModel(format!("{} is not a Whisper config: {e}", path.display())))?;
        config.check().map_err(|reason| EngineError::BadModel(format!("{}: {reason}", path.display())))?;
        Ok(config)
    }

    /// What the model code relies on; a zero or an uneven split would only
    /// fail later, deep inside a tensor operation.
    pub fn check(&self) -> Result<(), String> {
        if self.model_type != "whisper" {
            return Err(format!("model_type is {:?}, not \"whisper\"", self.model_type));
        }
        let sizes = [
            self.num_mel_bins,
            self.d_model,
            self.encoder_layers,
            self.encoder_attention_heads,
            self.decoder_layers,
            self.decoder_attention_heads,
            self.vocab_size,
            self.max_source_positions,
            self.max_target_positions,
        ];
        if sizes.contains(&0) {
            return Err("a size is zero".into());
        }
        if !self.d_model.is_multiple_of(self.encoder_attention_heads)
            || !self.d_model.is_multiple_of(self.decoder_attention_heads)
        {
            return Err("d_model is not a multiple of the attention heads".into());
        }
        Ok(())
    }
}

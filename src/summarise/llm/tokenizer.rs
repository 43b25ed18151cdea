//! The LLM's tokenizer: `tokenizer.json` beside the model when there is
//! one, else the one the GGUF carries in its metadata (a GPT-2 style BPE:
//! tokens, merges, byte-level pre-tokenizer and special tokens).

use std::path::Path;

use candle_core::quantized::gguf_file::Content;
use candle_core::quantized::tokenizer::TokenizerFromGguf;
use tokenizers::Tokenizer;
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::pre_tokenizers::digits::Digits;
use tokenizers::pre_tokenizers::sequence::Sequence;

use crate::summarise::EngineError;

pub fn load(dir: &Path, gguf: &Content) -> Result<Tokenizer, EngineError> {
    let file = dir.join("tokenizer.json");
    if file.is_file() {
        return Tokenizer::from_file(&file).map_err(|e| EngineError::BadModel(format!("{}: {e}", file.display())));
    }
    let mut tokenizer = Tokenizer::from_gguf(gguf).map_err(|e| {
        EngineError::BadModel(format!(
            "{}: the GGUF carries no tokenizer Debrief can build ({e}); put the model's tokenizer.json beside model.gguf",
            dir.display()
        ))
    })?;
    let pre = gguf.metadata.get("tokenizer.ggml.pre").and_then(|v| v.to_string().ok()).map_or("gpt2", String::as_str);
    // candle's generic GPT-2 pipeline puts a space before the text, which
    // llama.cpp's GPT-2 style pre-tokenizers do not: every prompt would
    // start with a token the model never saw there. SmolLM-style ones also
    // split digits one by one.
    match pre {
        "gpt2" => {
            tokenizer.with_pre_tokenizer(Some(ByteLevel::new(false, true, true)));
        }
        "smollm" | "starcoder" | "refact" | "codeshell" => {
            tokenizer.with_pre_tokenizer(Some(Sequence::new(vec![Digits::new(true).into(), ByteLevel::new(false, true, true).into()])));
        }
        _ => {}
    }
    Ok(tokenizer)
}

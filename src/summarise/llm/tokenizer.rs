//! The LLM's tokenizer: `tokenizer.json` beside the model when there is
//! one, else the one the GGUF carries in its metadata (a GPT-2 style BPE:
//! tokens, merges, byte-level pre-tokenizer and special tokens).

use std::path::Path;

use candle_core::quantized::gguf_file::Content;
use candle_core::quantized::tokenizer::TokenizerFromGguf;
use tokenizers::Tokenizer;
use tokenizers::pre_tokenizers::PreTokenizerWrapper;
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::pre_tokenizers::digits::Digits;
use tokenizers::pre_tokenizers::sequence::Sequence;
use tokenizers::pre_tokenizers::split::{Split, SplitPattern};
use tokenizers::tokenizer::SplitDelimiterBehavior;

use crate::summarise::EngineError;

/// How Llama 3's tokenizer cuts text before byte-pair encoding.
const LLAMA3_SPLIT: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

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
    if let Some(pre_tokenizer) = pre_tokenizer(pre) {
        tokenizer.with_pre_tokenizer(Some(pre_tokenizer));
    }
    Ok(tokenizer)
}

/// The pre-tokenizer llama.cpp uses for `pre` where candle's differs.
/// candle's generic GPT-2 pipeline puts a space before the text, which
/// llama.cpp's GPT-2 style pre-tokenizers do not: every prompt would start
/// with a token the model never saw there. SmolLM-style ones also split
/// digits one by one; Llama 3's ("llama-bpe", a name candle does not know)
/// splits by its own pattern.
fn pre_tokenizer(pre: &str) -> Option<PreTokenizerWrapper> {
    match pre {
        "gpt2" => Some(ByteLevel::new(false, true, true).into()),
        "smollm" | "starcoder" | "refact" | "codeshell" => {
            Some(Sequence::new(vec![Digits::new(true).into(), ByteLevel::new(false, true, true).into()]).into())
        }
        "llama-bpe" => {
            let split =
                Split::new(SplitPattern::Regex(LLAMA3_SPLIT.into()), SplitDelimiterBehavior::Isolated, false).ok()?;
            Some(Sequence::new(vec![split.into(), ByteLevel::new(false, true, false).into()]).into())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use tokenizers::tokenizer::{OffsetReferential, OffsetType, PreTokenizedString, PreTokenizer};

    use super::*;

    fn pieces(pre: &str, text: &str) -> Vec<String> {
        let mut split = PreTokenizedString::from(text);
        pre_tokenizer(pre).expect("known").pre_tokenize(&mut split).unwrap();
        split
            .get_splits(OffsetReferential::Original, OffsetType::Byte)
            .into_iter()
            .map(|(s, _, _)| s.to_string())
            .collect()
    }

    #[test]
    fn gpt2_style_text_gets_no_leading_space_and_smollm_splits_digits() {
        assert_eq!(pieces("gpt2", "system 2024"), ["system", "\u{120}2024"]);
        assert_eq!(pieces("smollm", "system 2024"), ["system", "\u{120}", "2", "0", "2", "4"]);
    }

    #[test]
    fn llama3_text_splits_by_its_pattern() {
        assert_eq!(
            pieces("llama-bpe", "Hello'Ve world 12345"),
            ["Hello", "'Ve", "\u{120}world", "\u{120}", "123", "45"]
        );
        assert!(pre_tokenizer("qwen2").is_none(), "candle's own pipeline serves it");
    }
}

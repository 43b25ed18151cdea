//! Which summariser loads, and what is said when it cannot: a missing
//! model names the command that fixes it, the doctor status tells what
//! `auto` picks on this machine, and a damaged GGUF is an error, not a panic.

use debrief::models::profile::Machine;
use debrief::summarise::{EngineError, SummariserChoice, SummariserStatus, load};

use super::{Models, SHORT_MEETING, summarise};
use crate::harness::test_models;

#[test]
fn an_explicit_choice_whose_model_is_missing_names_the_fix() {
    let models = Models::empty();
    let Err(EngineError::Missing(message)) = load(SummariserChoice::Llm, &models.dir(), &Default::default()) else {
        panic!("llm without a model must be Missing");
    };
    assert!(message.contains("debrief models install") && message.contains("debrief models import PATH"), "{message}");
    let Err(EngineError::Missing(message)) = load(SummariserChoice::Embedding, &models.dir(), &Default::default())
    else {
        panic!("embedding without a model must be Missing");
    };
    assert!(message.contains("debrief models install all-minilm-l6-v2"), "{message}");
    // auto still summarises, by word statistics.
    let summary = summarise(&mut *models.load(SummariserChoice::Auto, &Default::default()), SHORT_MEETING);
    assert!(!summary.summary.is_empty());
}

#[test]
fn the_doctor_status_says_what_auto_uses_and_what_is_missing() {
    let none = SummariserStatus::of(&Models::empty().dir());
    assert_eq!(none.auto(), SummariserChoice::Lexical);
    let missing = none.missing().join("\n");
    assert!(missing.contains("all-minilm-l6-v2") && missing.contains("model.gguf"), "{missing}");

    let all = Models::empty().with_embedding().with_llm();
    let status = SummariserStatus::of(&all.dir());
    let laptop = Machine { cores: 2, memory_mb: 16 * 1024, raspberry_pi: false };
    let small_pi = Machine { cores: 4, memory_mb: 2 * 1024, raspberry_pi: true };
    assert_eq!(status.auto_on(&laptop), SummariserChoice::Llm, "the LLM where memory allows");
    assert_eq!(status.auto_on(&small_pi), SummariserChoice::Embedding, "not on a 2 GB Pi");
    assert!(status.llm.as_deref().is_some_and(|p| p.ends_with("llm/smollm2-135m-instruct")), "{status:?}");
    assert_eq!(status.missing(), Vec::<String>::new());
}

#[test]
fn a_damaged_gguf_is_a_clear_error_not_a_panic() {
    let real = std::fs::read(test_models().join("smollm2/model.gguf")).unwrap();
    let cases: [(&str, &[u8]); 4] = [
        ("empty", b""),
        ("not a gguf", b"<html>404 Not Found</html>"),
        ("cut in the header", &real[..4096]),
        ("cut in the weights", &real[..real.len() / 2]),
    ];
    for (what, bytes) in cases {
        let models = Models::empty().with_llm_file(bytes);
        match load(SummariserChoice::Llm, &models.dir(), &Default::default()) {
            Err(EngineError::BadModel(message)) => {
                assert!(message.contains("llm/damaged/model.gguf") && message.contains("GGUF"), "{what}: {message}");
            }
            Err(other) => panic!("{what}: expected BadModel, got {other:?}"),
            Ok(_) => panic!("{what}: a damaged model loaded"),
        }
    }
}

//! Vosk's result JSON (`{"result": [{"word", "start", "end", "conf"}…],
//! "text"}`, times in seconds from the start of the stream) as a `Segment`.

use std::ops::Range;

use serde::Deserialize;

use crate::asr::{EngineError, Segment, Word};

#[derive(Deserialize)]
struct Utterance {
    #[serde(default)]
    text: String,
    #[serde(default)]
    result: Vec<TimedWord>,
}

#[derive(Deserialize)]
struct TimedWord {
    word: String,
    start: f64,
    end: f64,
}

/// The segment in one result, or `None` when Vosk heard no words (silence
/// or noise ends an "utterance" too). `span_ms` is the audio the utterance
/// came from, its times should Vosk give no word timings.
pub(super) fn segment(json: &[u8], span_ms: Range<u64>) -> Result<Option<Segment>, EngineError> {
    let utterance: Utterance = serde_json::from_slice(json)
        .map_err(|e| EngineError::Engine(format!("Vosk returned a result that is not its JSON ({e}).")))?;
    let text = utterance.text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let words: Vec<Word> = utterance
        .result
        .into_iter()
        .map(|w| Word { start_ms: millis(w.start), end_ms: millis(w.end), text: w.word })
        .collect();
    Ok(Some(Segment {
        start_ms: words.first().map_or(span_ms.start, |w| w.start_ms),
        end_ms: words.last().map_or(span_ms.end, |w| w.end_ms),
        text: text.to_owned(),
        words,
    }))
}

fn millis(seconds: f64) -> u64 {
    // `as` saturates: a negative or NaN time becomes 0 rather than wrapping.
    (seconds * 1000.0).round() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_with_word_timings_becomes_a_segment_of_timed_words() {
        let json = br#"{"result": [{"conf": 1.0, "end": 0.96, "start": 0.42, "word": "hello"}, {"conf": 0.8, "end": 1.5, "start": 1.02, "word": "there"}], "text": "hello there"}"#;
        let segment = segment(json, 0..2000).unwrap().unwrap();
        assert_eq!((segment.start_ms, segment.end_ms, segment.text.as_str()), (420, 1500, "hello there"));
        assert_eq!(segment.words[1], Word { start_ms: 1020, end_ms: 1500, text: "there".into() });
    }

    #[test]
    fn an_empty_utterance_is_no_segment() {
        assert_eq!(segment(br#"{"text": ""}"#, 0..800).unwrap(), None);
    }

    #[test]
    fn text_without_timings_spans_the_audio_it_came_from() {
        let segment = segment(br#"{"text": "hello"}"#, 1200..2400).unwrap().unwrap();
        assert_eq!((segment.start_ms, segment.end_ms, segment.words.len()), (1200, 2400, 0));
    }

    #[test]
    fn a_result_that_is_not_json_is_an_engine_error() {
        assert!(matches!(segment(b"{\"text\": ", 0..1), Err(EngineError::Engine(_))));
    }
}

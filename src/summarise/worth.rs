//! What a sentence is worth to a summary besides its centrality: how much
//! of the meeting's recurring subject it speaks of, and how much of it is
//! the debris of speech (stray letters, words said twice) that no reader
//! should get.

use std::collections::{HashMap, HashSet};

use super::text::{terms, words};

/// How much each sentence of `chosen` speaks of what the whole meeting
/// (`all` its sentences) keeps coming back to: its distinct content words,
/// each counted by how many of the meeting's sentences hold it (on a log
/// scale, so one word said everywhere does not outweigh the rest), per
/// square root of its length, so a long ramble does not win by length
/// alone. Centrality to the meeting's embedding favours the generic
/// sentences of talk about the talk; this favours its subject matter.
pub fn topicality(all: &[&str], chosen: &[String]) -> Vec<f32> {
    let mut spread: HashMap<String, u32> = HashMap::new();
    for sentence in all {
        for term in terms(sentence).collect::<HashSet<_>>() {
            *spread.entry(term).or_default() += 1;
        }
    }
    chosen
        .iter()
        .map(|sentence| {
            let length = words(sentence).count() as f32;
            let subject: f32 = terms(sentence)
                .collect::<HashSet<_>>()
                .iter()
                .map(|term| (1.0 + spread.get(term).copied().unwrap_or(0) as f32).ln())
                .sum();
            subject / (length.sqrt() + 1.0)
        })
        .collect()
}

/// The share (0–1) of `sentence`'s words that are debris of speech: a
/// stray letter ("y we can"), a word said twice in a row ("the the"), or a
/// pair said twice ("we can we can").
pub fn disfluency(sentence: &str) -> f32 {
    let words: Vec<String> = words(sentence).collect();
    if words.is_empty() {
        return 1.0;
    }
    let debris = (0..words.len())
        .filter(|&k| {
            let stray = words[k].chars().count() == 1
                && words[k].chars().all(char::is_alphabetic)
                && words[k] != "i"
                && words[k] != "a";
            let again = k >= 1 && words[k] == words[k - 1];
            let pair_again = k >= 3 && words[k - 1..=k] == words[k - 3..k - 1];
            stray || again || pair_again
        })
        .count();
    debris as f32 / words.len() as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sentence_on_the_meetings_subject_outranks_small_talk_of_the_same_length() {
        let all = [
            "The remote control needs bigger buttons.",
            "Buttons on the remote control should light up.",
            "The remote control costs twelve euros.",
            "My train was late this morning.",
        ];
        let chosen = vec![
            "We agreed the remote control buttons light up.".to_string(),
            "My train this morning was late again today.".to_string(),
        ];
        let topic = topicality(&all, &chosen);
        assert!(topic[0] > topic[1], "{topic:?}");
    }

    #[test]
    fn stray_letters_and_repeats_are_debris_and_clean_speech_is_not() {
        assert_eq!(disfluency("We will send the revised proposal on Friday."), 0.0);
        assert!(disfluency("F like y we can we can put some double R") > 0.3);
        assert!(disfluency("by the by the the channel") > 0.3);
        assert_eq!(disfluency("I think a budget of ten is fine"), 0.0, "\"I\" and \"a\" are words");
        assert_eq!(disfluency(""), 1.0);
    }
}

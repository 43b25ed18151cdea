//! The lexical and embedding summarisers, which pick sentences from the
//! transcript: a ninety-minute meeting in a paragraph with its commitments,
//! speech-recognition text without punctuation, and next to no text.

use debrief::summarise::{SummariserChoice, Summary};

use super::{Models, SHORT_COMMITMENTS, SHORT_MEETING, meeting, missed, summarise, timed};

fn ninety_minute_extractive(choice: SummariserChoice, models: Models) {
    let transcript = meeting::ninety_minutes();
    let words = meeting::words(&transcript);
    assert!((13_000..=14_500).contains(&words), "{words} words");
    let summary = timed(&choice.to_string(), &mut *models.load(choice, &Default::default()), &transcript);
    let words = summary.summary.split_whitespace().count();
    assert!((60..=150).contains(&words), "a paragraph of at most 150 words: {}", summary.summary);
    let sentences = summary.summary.matches(['.', '?', '!']).count();
    assert!((3..=8).contains(&sentences), "3 to 8 sentences: {}", summary.summary);
    let missed = missed(&summary, meeting::COMMITMENTS.iter().map(|c| c.key_words));
    assert!(missed.len() <= 1, "commitments missed: {missed:?} in {:?}", summary.next_steps);
}

#[test]
fn the_lexical_summariser_summarises_a_ninety_minute_meeting_and_finds_its_commitments() {
    ninety_minute_extractive(SummariserChoice::Lexical, Models::empty());
}

#[test]
fn the_embedding_summariser_summarises_a_ninety_minute_meeting_and_finds_its_commitments() {
    ninety_minute_extractive(SummariserChoice::Embedding, Models::empty().with_embedding());
}

#[test]
fn unpunctuated_asr_text_still_gets_a_summary_and_its_commitments() {
    let short = meeting::unpunctuated(SHORT_MEETING);
    let long = meeting::unpunctuated(&meeting::ninety_minutes());
    assert!(!long.contains(['.', ',', '?']));
    for (choice, models) in
        [(SummariserChoice::Lexical, Models::empty()), (SummariserChoice::Embedding, Models::empty().with_embedding())]
    {
        let mut summariser = models.load(choice, &Default::default());
        let summary = timed(&choice.to_string(), &mut *summariser, &short);
        assert!(summary.summary.split_whitespace().count() >= 6, "{choice}: {summary:?}");
        assert_eq!(missed(&summary, SHORT_COMMITMENTS), Vec::<&[&str]>::new(), "{choice}: {:?}", summary.next_steps);
        let summary = timed(&choice.to_string(), &mut *summariser, &long);
        assert!((60..=150).contains(&summary.summary.split_whitespace().count()), "{choice}: {}", summary.summary);
    }
}

#[test]
fn a_summary_of_nothing_is_empty_and_of_one_word_is_that_word() {
    let mut lexical = Models::empty().load(SummariserChoice::Lexical, &Default::default());
    assert_eq!(summarise(&mut *lexical, " \n "), Summary::default());
    assert_eq!(summarise(&mut *lexical, "hello").summary, "Hello.");
}

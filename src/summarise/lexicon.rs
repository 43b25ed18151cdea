//! Word classes the summariser's rules share, each written once: verbs of
//! work done after a meeting, verbs of state, function words and
//! stopwords (files in `words/`, a word a line), and here the phrases
//! skipped after a modal, the days and the months with their values, and
//! words that are never a name.

use std::collections::HashSet;
use std::sync::LazyLock;

use time::{Month, Weekday};

/// A class of words, one per line of its file in `words/`; a `#` starts a
/// comment. The classes are data, so that a word is added where it is
/// read, once, and the test below holds each file to one word per line.
pub struct WordClass(HashSet<&'static str>);

impl WordClass {
    fn parse(text: &'static str) -> Self {
        Self(entries(text).collect())
    }

    pub fn has(&self, word: &str) -> bool {
        self.0.contains(word)
    }
}

/// The words of a class file, in its order: each line without its comment.
fn entries(text: &str) -> impl Iterator<Item = &str> {
    text.lines().map(|l| l.split('#').next().unwrap_or("").trim()).filter(|w| !w.is_empty())
}

macro_rules! word_classes {
    ($($(#[$doc:meta])* $vis:vis $name:ident = $file:literal;)*) => {
        $($(#[$doc])* $vis static $name: LazyLock<WordClass> =
            LazyLock::new(|| WordClass::parse(include_str!(concat!("words/", $file))));)*
        /// Every class with its file, for the test of the files.
        #[cfg(test)]
        const FILES: &[(&str, &str)] = &[$(($file, include_str!(concat!("words/", $file)))),*];
    };
}

word_classes! {
    /// Verbs of work done after the meeting.
    ACTION_VERBS = "action-verbs.txt";
    /// Verbs that are work after the meeting only with more words.
    GENERAL_VERBS = "general-verbs.txt";
    /// Verbs of state, not of work.
    STATIVE_VERBS = "stative-verbs.txt";
    /// Words between a modal and its verb that change nothing.
    pub ADVERBS = "adverbs.txt";
    /// Articles, pronouns, prepositions, conjunctions, auxiliaries, replies.
    GRAMMAR_WORDS = "grammar-words.txt";
    /// Besides the grammar words, words that never head a verb phrase.
    MORE_FUNCTION_WORDS = "function-words.txt";
    /// Besides the grammar words, words that carry no topic.
    MORE_STOPWORDS = "stopwords.txt";
}

/// Phrases between a modal and its verb: "will try to send", "will be able
/// to send", "will go ahead and send".
pub const PHRASE_SKIPS: &[&[&str]] = &[
    &["try", "to"],
    &["be", "able", "to"],
    &["go", "ahead", "and"],
    &["make", "sure", "to"],
    &["need", "to"],
    &["have", "to"],
    &["want", "to"],
];
/// The days of the week.
pub const WEEKDAYS: &[(&str, Weekday)] = &[
    ("monday", Weekday::Monday),
    ("tuesday", Weekday::Tuesday),
    ("wednesday", Weekday::Wednesday),
    ("thursday", Weekday::Thursday),
    ("friday", Weekday::Friday),
    ("saturday", Weekday::Saturday),
    ("sunday", Weekday::Sunday),
];
/// The months by their full names.
pub const MONTHS: &[(&str, Month)] = &[
    ("january", Month::January),
    ("february", Month::February),
    ("march", Month::March),
    ("april", Month::April),
    ("may", Month::May),
    ("june", Month::June),
    ("july", Month::July),
    ("august", Month::August),
    ("september", Month::September),
    ("october", Month::October),
    ("november", Month::November),
    ("december", Month::December),
];
/// The months by their short names: "Sept", "Dec".
pub const SHORT_MONTHS: &[(&str, Month)] = &[
    ("jan", Month::January),
    ("feb", Month::February),
    ("sept", Month::September),
    ("oct", Month::October),
    ("nov", Month::November),
    ("dec", Month::December),
];
/// Words that are never a name however they are written: the commonest
/// replies, pronouns and conjunctions.
pub const NOT_NAMES: &[&str] = &["okay", "yes", "no", "so", "and", "but", "it", "that", "this", "well", "yeah"];

/// A word that never heads a verb phrase or a name.
pub fn is_function_word(word: &str) -> bool {
    GRAMMAR_WORDS.has(word) || MORE_FUNCTION_WORDS.has(word)
}

/// A word that carries no topic: left out of the term statistics.
pub fn is_stopword(word: &str) -> bool {
    GRAMMAR_WORDS.has(word) || MORE_STOPWORDS.has(word)
}

pub fn is_action_verb(word: &str) -> bool {
    ACTION_VERBS.has(word)
}

pub fn is_general_verb(word: &str) -> bool {
    GENERAL_VERBS.has(word)
}

pub fn is_stative_verb(word: &str) -> bool {
    STATIVE_VERBS.has(word)
}

/// Whether `word` may be the verb of a clause: a word, not a function word
/// or a number, not an adverb in -ly (unless a known verb: "apply").
pub fn is_verb_like(word: &str) -> bool {
    if word.is_empty() || !word.chars().all(|c| c.is_alphabetic() || c == '-' || c == '\'') {
        return false;
    }
    if is_action_verb(word) || is_general_verb(word) || word == "be" || word == "have" {
        return true;
    }
    !(is_function_word(word) || ADVERBS.has(word) || word.ends_with("ly") || super::numbers::is_numeric(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_word_class_file_lists_lower_case_words_one_per_line_and_none_twice() {
        for (file, text) in FILES {
            let words: Vec<&str> = entries(text).collect();
            assert!(!words.is_empty(), "{file} lists no word");
            for word in &words {
                assert!(!word.contains(char::is_whitespace), "{file}: {word:?} is more than one word");
                assert_eq!(*word, word.to_lowercase(), "{file}: {word:?} is not lower case");
            }
            let once: HashSet<&&str> = words.iter().collect();
            assert_eq!(once.len(), words.len(), "{file} lists a word twice");
        }
    }

    #[test]
    fn a_word_class_reads_its_words_and_skips_comments_and_blank_lines() {
        let class = WordClass::parse("# verbs of work\nsend\n\n  email  # and mail\n");
        assert!(class.has("send") && class.has("email"));
        assert!(!class.has("verbs") && !class.has("mail") && !class.has(""));
    }
}

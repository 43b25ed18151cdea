//! Word classes the summariser's rules share, each written once: verbs of
//! work done after a meeting, verbs of state, function words, stopwords,
//! the marks of the hard negatives, the openings of replies, the words
//! where a clause starts and ends, those an action is cut to, and those of
//! a fact (files in `words/`, a word or a phrase a line), and here the days
//! and the months with their values, and words that are never a name.

use std::collections::HashSet;
use std::sync::LazyLock;

use time::{Month, Weekday};

/// A class of words, one per line of its file in `words/`; a `#` starts a
/// comment. The classes are data, so that a word is added where it is
/// read, once, and the test below holds each file to one word per line.
pub struct WordClass(HashSet<&'static str>);

impl WordClass {
    #[cfg(test)]
    const ONE_WORD: bool = true;

    fn parse(text: &'static str) -> Self {
        Self(entries(text).collect())
    }

    pub fn has(&self, word: &str) -> bool {
        self.0.contains(word)
    }
}

/// A class of phrases, one per line of its file, its words split by
/// spaces, in the file's order.
pub struct PhraseClass(Vec<Vec<&'static str>>);

impl PhraseClass {
    #[cfg(test)]
    const ONE_WORD: bool = false;

    fn parse(text: &'static str) -> Self {
        Self(entries(text).map(|phrase| phrase.split_whitespace().collect()).collect())
    }

    pub fn phrases(&self) -> impl Iterator<Item = &[&'static str]> {
        self.0.iter().map(Vec::as_slice)
    }
}

/// The entries of a class file, in its order: each line without its comment.
fn entries(text: &str) -> impl Iterator<Item = &str> {
    text.lines().map(|l| l.split('#').next().unwrap_or("").trim()).filter(|w| !w.is_empty())
}

macro_rules! classes {
    ($($(#[$doc:meta])* $vis:vis $name:ident: $class:ident = $file:literal;)*) => {
        $($(#[$doc])* $vis static $name: LazyLock<$class> =
            LazyLock::new(|| $class::parse(include_str!(concat!("words/", $file))));)*
        /// Every class with its file and whether it holds single words, for
        /// the test of the files.
        #[cfg(test)]
        const FILES: &[(&str, &str, bool)] = &[$(($file, include_str!(concat!("words/", $file)), $class::ONE_WORD)),*];
    };
}

classes! {
    /// Verbs of work done after the meeting.
    ACTION_VERBS: WordClass = "action-verbs.txt";
    /// Verbs that are work after the meeting only with more words.
    GENERAL_VERBS: WordClass = "general-verbs.txt";
    /// Verbs of state, not of work.
    STATIVE_VERBS: WordClass = "stative-verbs.txt";
    /// Words between a modal and its verb that change nothing.
    pub ADVERBS: WordClass = "adverbs.txt";
    /// Articles, pronouns, prepositions, conjunctions, auxiliaries, replies.
    GRAMMAR_WORDS: WordClass = "grammar-words.txt";
    /// Besides the grammar words, words that never head a verb phrase.
    MORE_FUNCTION_WORDS: WordClass = "function-words.txt";
    /// Besides the grammar words, words that carry no topic.
    MORE_STOPWORDS: WordClass = "stopwords.txt";
    /// Words that make what follows a supposition.
    pub CONDITIONALS: WordClass = "conditionals.txt";
    /// Words that put an action in the past.
    pub PAST_MARKS: WordClass = "past-marks.txt";
    /// Words of what happens as a rule.
    pub HABITUAL: WordClass = "habitual.txt";
    /// Words that make a verb after them less than a promise.
    pub HEDGES: WordClass = "hedges.txt";
    /// Words that say the meeting is going over what was agreed.
    pub RECAP_CUES: WordClass = "recap-cues.txt";
    /// Words of alternatives weighed, not chosen.
    pub OPTIONS: WordClass = "options.txt";
    /// Particles that make a general verb work.
    pub PARTICLES: WordClass = "particles.txt";
    /// Words that stand for a thing or a person without naming it.
    pub PRONOUNS: WordClass = "pronouns.txt";
    /// Words that may come before an imperative or a request and leave it at
    /// the sentence's start: "so, send me…".
    pub LEAD_INS: WordClass = "lead-ins.txt";
    /// Words that show the word before them is a noun, so a sentence's first
    /// verb is no imperative before them: "Check is fine".
    pub AFTER_NOUN: WordClass = "after-noun.txt";
    /// Words that end a clause of action, so the thought after them is not
    /// part of the action.
    pub CLAUSE_STOPS: WordClass = "clause-stops.txt";
    /// Words that are a subject with a verb to follow, so they end the clause
    /// before them and open one of their own.
    pub NEW_SUBJECTS: WordClass = "new-subjects.txt";
    /// Verbs of how things stand, which make a subject before them a clause of
    /// its own: "…, our finance director has it".
    pub STATES: WordClass = "states.txt";
    /// Words skipped between "next step" or "action item" and the action it
    /// states.
    pub STEP_LINKS: WordClass = "step-links.txt";
    /// Words before "let me" that keep it in the clause before them: "you'll
    /// let me know".
    pub LEAD_TO_LET: WordClass = "lead-to-let.txt";
    /// Words after which "can you" in speech without marks is a question, not
    /// a request: "what else can you do".
    pub QUESTION_WORDS: WordClass = "question-words.txt";
    /// Verbs of giving, after which who receives is left out of the action:
    /// "send you the plan" is "Send the plan"…
    pub GIVING_VERBS: WordClass = "giving-verbs.txt";
    /// …who receives, in a word or a few ("you guys", "you both")…
    pub RECEIVERS: PhraseClass = "receivers.txt";
    /// …and the words after them that are no object, so the receiver stays:
    /// "send you over".
    pub NOT_OBJECTS: WordClass = "not-objects.txt";
    /// Words an action does not end on, dropped from its end so it reads whole.
    pub DANGLING: WordClass = "dangling.txt";
    /// Verbs after "let's" that run the meeting, so the sentence decides
    /// nothing: "let's move on".
    pub MEETING_TALK: WordClass = "meeting-talk.txt";
    /// Words after a number that make it a price or a rate, the fact a
    /// summary gains most by…
    pub MONEY_UNITS: WordClass = "money-units.txt";
    /// …and besides them, those that make it a quantity worth keeping.
    MORE_UNITS: WordClass = "units.txt";
    /// Capitalised words that are no names besides [`NOT_NAMES`], so a
    /// transcriber's capitals make no name a fact.
    pub NOT_NAMES_WRITTEN: WordClass = "not-names-written.txt";
    /// A verb and the words after it that steer the talk in the room:
    /// "go through each option", "start with the budget".
    pub AGENDA_MOVES: PhraseClass = "agenda-moves.txt";
    /// Words that place work in the room the meeting is in: "I'll draw it
    /// here", "let me put it on the whiteboard".
    pub IN_THE_ROOM: WordClass = "in-the-room.txt";
    /// The words of a promise to report back on a commitment: "get back to
    /// you", "let you know", "you'll hear from me".
    pub REPORT_BACK: WordClass = "report-back.txt";
    /// What the listener is promised to receive: "you'll have the figures".
    pub RECEIVE: WordClass = "receive-verbs.txt";
    /// Besides the pointers, words that name nothing new the listener
    /// receives: all of it, or how it comes ("in writing").
    pub NO_NEW_THING: WordClass = "no-new-thing.txt";
    /// Words that point back at something already said: "send it".
    pub POINTERS: WordClass = "pointers.txt";
    /// Words that say whose a thing is: "confirm his availability".
    pub POSSESSIVES: WordClass = "possessives.txt";
    /// Words that end the thing a verb takes: "send you the draft and…".
    pub THING_ENDS: WordClass = "thing-ends.txt";
    /// Verbs that, with "you" and a way, lead the listener somewhere in the
    /// meeting itself: "walk you through", "take you round".
    pub GUIDE: WordClass = "guide-verbs.txt";
    /// The ways a guide verb leads: "through", "round", "back".
    pub WAYS: WordClass = "guide-ways.txt";
    /// Words that make a reply more than a yes: "sure, and I'll also…".
    pub ADDING: WordClass = "adding.txt";
    /// Words that open a reason said in passing: "because", "since".
    pub REASONS: WordClass = "reasons.txt";
    /// Nouns that make a noun phrase people who act ("the finance team",
    /// "our surveyor"), so that what they will do is theirs, not a thing's.
    pub PEOPLE: WordClass = "people.txt";
    /// Words that are no one acting where a subject stands, besides
    /// [`NOT_NAMES`] and the function words: anyone, a time, a price, a thing.
    pub NOT_SUBJECTS: WordClass = "not-subjects.txt";
    /// Words of a date besides [`WEEKDAYS`] and [`MONTHS`], each a fact.
    pub DATE_WORDS: WordClass = "date-words.txt";
    /// How a reply opens when it surely takes up a request or an offer…
    pub ACCEPT: PhraseClass = "accept.txt";
    /// …the words that turn one down, early in a reply (besides
    /// [`REFUSE`])…
    pub DECLINE: PhraseClass = "decline.txt";
    /// …and how it opens when it more likely takes it up than not.
    pub LIKELY_ACCEPT: PhraseClass = "likely-accept.txt";
    /// How a reply refuses a plain promise as much as an offer: "No need,
    /// I've read it", "Don't bother".
    pub REFUSE: PhraseClass = "refuse.txt";
    /// Words that make a promise an offer, which a reply may turn down:
    /// "I'll send you the brochure anyway?".
    pub TENTATIVE: PhraseClass = "tentative.txt";
    /// How a speaker takes back a promise just made: "scratch that".
    pub TAKE_BACK: PhraseClass = "take-back.txt";
    /// Phrases between a modal and its verb: "will try to send".
    pub PHRASE_SKIPS: PhraseClass = "phrase-skips.txt";
    /// Phrases that end an action, so the courtesy after them is not written
    /// as work: "if you like".
    pub COURTESY: PhraseClass = "courtesy.txt";
    /// Phrases that say something was decided, which makes the sentence a
    /// decision, a fact for the summary.
    pub DECISIONS: PhraseClass = "decisions.txt";
}

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

/// A word after a number that makes it an amount or a quantity.
pub fn is_unit(word: &str) -> bool {
    MONEY_UNITS.has(word) || MORE_UNITS.has(word)
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
    fn each_class_file_lists_lower_case_entries_one_per_line_and_none_twice() {
        for (file, text, one_word) in FILES {
            let entries: Vec<&str> = entries(text).collect();
            assert!(!entries.is_empty(), "{file} lists nothing");
            for entry in &entries {
                if *one_word {
                    assert!(!entry.contains(char::is_whitespace), "{file}: {entry:?} is more than one word");
                }
                assert_eq!(*entry, entry.to_lowercase(), "{file}: {entry:?} is not lower case");
            }
            let once: HashSet<&&str> = entries.iter().collect();
            assert_eq!(once.len(), entries.len(), "{file} lists an entry twice");
        }
    }

    #[test]
    fn a_word_class_reads_its_words_and_skips_comments_and_blank_lines() {
        let class = WordClass::parse("# verbs of work\nsend\n\n  email  # and mail\n");
        assert!(class.has("send") && class.has("email"));
        assert!(!class.has("verbs") && !class.has("mail") && !class.has(""));
    }

    #[test]
    fn a_phrase_class_reads_each_line_as_its_words_in_order() {
        let class = PhraseClass::parse("# replies\nof course\n  no   need # spaced\n");
        let phrases: Vec<&[&str]> = class.phrases().collect();
        assert_eq!(phrases, vec![&["of", "course"][..], &["no", "need"][..]]);
    }
}

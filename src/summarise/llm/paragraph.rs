//! The grounding check of the model's summary paragraph: its own prose, so
//! its words cannot all be the meeting's; it is taken only when every
//! figure, name and date in it is, and when it is the length of a summary.

use std::collections::HashSet;

use time::Month;

use super::ground::{Vocabulary, content};
use crate::summarise::lexicon::MONTHS;
use crate::summarise::numbers;
use crate::summarise::sentences;
use crate::summarise::text::words;

/// The words a summary paragraph holds: fewer is a line, not a summary
/// (unless the extracted notes are shorter still); more is cut at the last
/// sentence that fits.
const PARAGRAPH_WORDS: (usize, usize) = (60, 150);
/// A paragraph may leave out one in this many of the notes' figures: the
/// extracted sentences carry small talk's too ("four hundred pumpkin
/// biscuits"), and a summary is right to drop them.
const FIGURES_LOST: usize = 4;

/// What a name or a date in the summary must be.
pub(super) struct Said {
    /// Every word said in the meeting, lower case, with the names of its
    /// people and its day.
    words: HashSet<String>,
    /// The days of a month the meeting names.
    days: HashSet<(u8, Month)>,
}

impl Said {
    pub(super) fn of(text: &str) -> Self {
        Self { words: words(text).collect(), days: dates(text) }
    }

    /// Whether the meeting said `name`, or the one it is the plural of
    /// ("two ThinkPad T14s").
    pub(super) fn names(&self, name: &str) -> bool {
        let name = name.to_lowercase();
        let singular = name.strip_suffix('s').filter(|stem| !stem.is_empty());
        self.words.contains(&name) || singular.is_some_and(|stem| self.words.contains(stem))
    }
}

/// The days `text` names with their month: "the 14th of May", "May 14th",
/// "14 May", "may the fourteenth". Only those forms: "the 1st of May and
/// the 14th" names the 1st of May alone, and "we may need 3" no day.
pub(super) fn dates(text: &str) -> HashSet<(u8, Month)> {
    let all: Vec<String> = words(text).collect();
    let lows: Vec<&str> = all.iter().map(String::as_str).collect();
    let day = |at: usize| numbers::at(&lows, at).filter(|n| n.value.fract() == 0.0 && (1.0..=31.0).contains(&n.value));
    let mut dates = HashSet::new();
    for (at, word) in lows.iter().enumerate() {
        let Some(month) = month(word) else { continue };
        let before = match at.checked_sub(1).map(|i| lows[i]) {
            Some("of") => at.checked_sub(2),
            _ => at.checked_sub(1),
        };
        let after = if lows.get(at + 1) == Some(&"the") { at + 2 } else { at + 1 };
        // A number before the month ends there ("14th" is one word, "the
        // fourteenth" is two: the last must be just before).
        let ends_before =
            before.and_then(|b| (b.saturating_sub(2)..=b).find_map(|s| day(s).filter(|n| s + n.len == b + 1)));
        for found in [ends_before, day(after)].into_iter().flatten() {
            dates.insert((found.value as u8, month));
        }
    }
    dates
}

/// The month `word` (lower case) names in full.
fn month(word: &str) -> Option<Month> {
    MONTHS.iter().find(|(name, _)| *name == word).map(|&(_, month)| month)
}

/// The model's summary paragraph, when it is one, keeps the figures of the
/// extracted notes (amounts and dates are what a client reads a summary
/// for, and what a small model drops first) and states nothing the meeting
/// does not: every figure in it is one the transcript says, every name (a
/// capitalised word after a sentence's first) is a word of the transcript
/// or a name of its people, and every day it gives a month ("May 14th") is
/// one the transcript gives that month.
pub(super) fn paragraph(extracted: &str, rewrite: &str, vocabulary: &Vocabulary, said: &Said) -> Option<String> {
    let (least, most) = PARAGRAPH_WORDS;
    let mut kept: Vec<String> = Vec::new();
    for sentence in sentences::split(rewrite) {
        if kept.iter().chain([&sentence]).map(|s| s.split_whitespace().count()).sum::<usize>() > most {
            break;
        }
        kept.push(sentence);
    }
    let paragraph = kept.join(" ");
    let length = paragraph.split_whitespace().count();
    if length < least.min(extracted.split_whitespace().count()) {
        tracing::info!(length, paragraph, "the summary paragraph is too short to be one; the extracted one is kept");
        return None;
    }
    let figures_of = |text: &str| content(text).into_iter().filter(|w| w.starts_with('#')).collect::<HashSet<_>>();
    let (wanted, given) = (figures_of(extracted), figures_of(&paragraph));
    let lost: Vec<&String> = wanted.difference(&given).collect();
    if lost.len() > wanted.len() / FIGURES_LOST {
        tracing::info!(
            ?lost,
            paragraph,
            "the summary paragraph leaves out figures of the notes; the extracted one is kept"
        );
        return None;
    }
    let figures: Vec<String> = vocabulary.missing(&paragraph).into_iter().filter(|w| w.starts_with('#')).collect();
    let names: Vec<&str> =
        kept.iter().flat_map(|sentence| capitalised(sentence)).filter(|name| !said.names(name)).collect();
    let days: Vec<(u8, Month)> = dates(&paragraph).difference(&said.days).copied().collect();
    if !figures.is_empty() || !names.is_empty() || !days.is_empty() {
        tracing::info!(
            ?figures,
            ?names,
            ?days,
            paragraph,
            "the summary paragraph states what the meeting does not; the extracted one is kept"
        );
        return None;
    }
    Some(paragraph)
}

/// The capitalised words of `sentence` after its first, split as the
/// transcript's words are and without a possessive: names, places, days
/// and months.
fn capitalised(sentence: &str) -> impl Iterator<Item = &str> {
    sentence
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
        .map(|w| w.trim_matches(|c| c == '\'' || c == '’'))
        .filter(|w| !w.is_empty())
        .skip(1)
        .map(|w| w.strip_suffix("'s").or_else(|| w.strip_suffix("’s")).unwrap_or(w))
        .filter(|w| w.chars().next().is_some_and(char::is_uppercase) && *w != "I")
}

//! Days of a month a deadline can name: "the 3rd", "the third of March",
//! "March 3rd", "3 March", and after a weekday "the 10th"; and the names of
//! the days and the months.

use time::{Date, Month, Weekday};

use super::timex::{Kind, Time};
use crate::summarise::calendar::{dated, next_numbered_day};
use crate::summarise::lexicon::{MONTHS, SHORT_MONTHS, WEEKDAYS};
use crate::summarise::numbers::{self, Number};
use crate::summarise::tokens::Tok;

/// "the 3rd", "the third of March", "March 3rd", "3 March", "March
/// fifteenth".
pub(super) fn calendar_date(toks: &[Tok], at: usize, to: usize, meeting: Date) -> Option<Time> {
    let word = |i: usize| toks.get(i).filter(|_| i < to).map_or("", |t| t.low.as_str());
    let lows: Vec<&str> = toks[..to].iter().map(|t| t.low.as_str()).collect();
    let day_at = |i: usize| number_at(&lows, i).filter(|n| (1.0..=31.0).contains(&n.value) && n.value.fract() == 0.0);
    // "March 3rd", "March the third"
    if let Some(month) = month_named(word(at)) {
        let first = if word(at + 1) == "the" { at + 2 } else { at + 1 };
        let n = day_at(first)?;
        return Some(Time { end: first + n.len, date: dated(meeting, month, n.value as u8), kind: Kind::Day });
    }
    let n = day_at(at)?;
    let after = at + n.len;
    // "3 March", "third of March"
    let month_at = if word(after) == "of" { after + 1 } else { after };
    if let Some(month) = month_named(word(month_at)) {
        return Some(Time { end: month_at + 1, date: dated(meeting, month, n.value as u8), kind: Kind::Day });
    }
    // "the 3rd" alone: an ordinal that ends the phrase, after "the". In
    // unpunctuated speech the phrase ends where a reply or a new clause
    // starts ("by the ninth perfect", "the fourteenth he needs an hour").
    let after_the = at > 0 && toks[at - 1].is("the");
    // A count after it starts a new phrase: "by the twenty third | two
    // days after testing ends"; so does a pronoun's contraction ("it's").
    // Not after a rank, though: "the first two weeks of January".
    let ranked = n.len == 1 && SPOKEN_RANKS.contains(&word(at));
    let counted = day_at(after).is_some_and(|next| !next.ordinal) && !ranked;
    let contracted = word(after).split_once('\'').is_some_and(|(head, _)| PHRASE_ENDERS.contains(&head));
    let ends =
        toks[after - 1].mark.is_some() || after >= to || PHRASE_ENDERS.contains(&word(after)) || counted || contracted;
    if n.ordinal && after_the && ends {
        return Some(Time { end: after, date: next_numbered_day(meeting, n.value as u8), kind: Kind::Day });
    }
    None
}

/// Words that start something new after a date: conjunctions, pronouns,
/// and the replies that follow a date in conversation.
const PHRASE_ENDERS: &[&str] = &[
    "at",
    "latest",
    "and",
    "so",
    "then",
    "but",
    "or",
    "please",
    "if",
    "okay",
    "ok",
    "because",
    "since",
    "when",
    "once",
    "unless",
    "i",
    "you",
    "we",
    "they",
    "he",
    "she",
    "it",
    "that",
    "which",
    "good",
    "great",
    "perfect",
    "brilliant",
    "lovely",
    "fine",
    "excellent",
    "yes",
    "yeah",
    "sure",
    "right",
    "thanks",
    "thank",
];

/// Spoken ordinals that rank things as often as they name days.
const SPOKEN_RANKS: &[&str] = &["first", "second", "third"];

/// After a weekday: "the 10th", "22nd March", "the 16th of October".
pub(super) fn day_of_month(toks: &[Tok], at: usize, to: usize, meeting: Date) -> Option<Time> {
    let word = |i: usize| toks.get(i).filter(|_| i < to).map_or("", |t| t.low.as_str());
    let lows: Vec<&str> = toks[..to.min(toks.len())].iter().map(|t| t.low.as_str()).collect();
    let n = number_at(&lows, at).filter(|n| (1.0..=31.0).contains(&n.value) && n.value.fract() == 0.0)?;
    let after = at + n.len;
    let month_at = if word(after) == "of" { after + 1 } else { after };
    if let Some(month) = month_named(word(month_at)).filter(|_| toks[after - 1].mark.is_none()) {
        return Some(Time { end: month_at + 1, date: dated(meeting, month, n.value as u8), kind: Kind::Day });
    }
    n.ordinal.then(|| Time { end: after, date: next_numbered_day(meeting, n.value as u8), kind: Kind::Day })
}

/// The number said at word `at`: as `numbers` reads it, or one word of
/// number words joined by hyphens ("twenty-third", "twenty-one").
pub(super) fn number_at(lows: &[&str], at: usize) -> Option<Number> {
    if let Some(n) = numbers::at(lows, at) {
        return Some(n);
    }
    let parts: Vec<&str> = lows.get(at)?.split('-').collect();
    let n = numbers::at(&parts, 0).filter(|n| parts.len() > 1 && n.len == parts.len())?;
    Some(Number { len: 1, ..n })
}

pub(super) fn weekday(word: &str) -> Option<Weekday> {
    WEEKDAYS.iter().find(|(name, _)| *name == word).map(|(_, d)| *d)
}

pub(super) fn month_named(word: &str) -> Option<Month> {
    MONTHS.iter().chain(SHORT_MONTHS).find(|(name, _)| *name == word).map(|(_, m)| *m)
}

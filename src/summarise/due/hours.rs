//! Times of a day a deadline can name: a clock time ("5pm", "3 o'clock"),
//! a named time ("noon", "lunchtime") and the close of the working day
//! ("COB", "close of play", "the end of the day"), with the day said after
//! them ("5pm today", "COB Friday", "close of play on Thursday").

use time::Date;

use super::rules::time_at;
use super::timex::{Kind, Time, skip_article};
use crate::summarise::numbers;
use crate::summarise::tokens::Tok;

/// Times of a day said by name.
const NAMED_TIMES: &[&str] = &["noon", "midday", "lunchtime", "lunch", "midnight"];
/// Words before a clock or a named time that make it a deadline: "by
/// noon", "no later than 5pm Friday"; without one, "the noon meeting" and
/// "book lunch on Friday" say no time.
const DEADLINE_WORDS: &[&str] = &["by", "before", "until", "till", "at", "than"];
/// Words after an hour that make it a clock time.
const CLOCK_MARKS: &[&str] = &["am", "pm", "a.m", "p.m", "o'clock"];

/// A time of day and the day said after it ("by 5pm today", "COB Friday",
/// "close of play on Thursday"): that day. The close of business alone,
/// or a named time alone after a deadline word ("by lunchtime"), is the
/// meeting's day; a clock time alone names none ("by 5pm" may be any day).
pub(super) fn time_of_day(toks: &[Tok], at: usize, to: usize, meeting: Date) -> Option<Time> {
    let closing = closing_words(toks, at, to);
    let (len, alone_is_today) = if closing > 0 {
        (closing, true)
    } else {
        if !(at > 0 && toks[at - 1].is_any(DEADLINE_WORDS)) {
            return None;
        }
        let named = usize::from(toks.get(at).is_some_and(|t| t.is_any(NAMED_TIMES)));
        (clock_words(toks, at, to) + named, named > 0)
    };
    if len == 0 {
        return None;
    }
    let alone = Time { end: at + len, date: Some(meeting), kind: Kind::Day };
    day_after(toks, at + len, to, meeting).or_else(|| alone_is_today.then_some(alone))
}

/// The day said right after a time of day, past an "on": "Friday", "on
/// Thursday", "tomorrow", "on the 20th".
fn day_after(toks: &[Tok], at: usize, to: usize, meeting: Date) -> Option<Time> {
    if at >= to || toks[at - 1].mark.is_some() {
        return None;
    }
    let at = if toks[at].is("on") { at + 1 } else { at };
    time_at(toks, skip_article(toks, at, to), to, meeting)
        .or_else(|| time_at(toks, at, to, meeting))
        .filter(|t| t.kind == Kind::Day && t.date.is_some())
}

/// How many words from `at` say the close of a working day: "COB", "EOD",
/// "close of business", "end of play", "the end of the day", "close of
/// business day", "end of the working day"; 0 when they do not.
pub(super) fn closing_words(toks: &[Tok], at: usize, to: usize) -> usize {
    let word = |i: usize| toks.get(i).filter(|_| i < to).map_or("", |t| t.low.as_str());
    if matches!(word(at), "cob" | "eod" | "eop") {
        return 1;
    }
    let mut i = at + usize::from(word(at) == "the");
    if !matches!(word(i), "close" | "end") || word(i + 1) != "of" {
        return 0;
    }
    i += 2;
    i += usize::from(word(i) == "the");
    match (word(i), word(i + 1)) {
        ("business" | "working", "day") => i + 2 - at,
        ("business" | "play" | "day", _) => i + 1 - at,
        _ => 0,
    }
}

/// How many words from `at` say a clock time: "5pm", "5 pm", "10:30",
/// "5.30pm", "3 o'clock", "five pm"; a bare hour only after "at" ("at 3
/// tomorrow"), since "send 3 tomorrow" is a count. 0 when none.
fn clock_words(toks: &[Tok], at: usize, to: usize) -> usize {
    let word = |i: usize| toks.get(i).filter(|_| i < to).map_or("", |t| t.low.as_str());
    let w = word(at);
    if CLOCK_MARKS[..4].iter().find_map(|m| w.strip_suffix(m)).is_some_and(|body| is_hour(body, 12)) {
        return 1;
    }
    let spelt = numbers::at(&[w], 0).is_some_and(|n| !n.ordinal && (1.0..=12.0).contains(&n.value));
    let an_hour = is_hour(w, 12) || spelt || (w.contains(':') && is_hour(w, 23));
    if !an_hour {
        return 0;
    }
    if toks[at].mark.is_none() && CLOCK_MARKS.contains(&word(at + 1)) {
        2
    } else if w.contains(':') || (at > 0 && toks[at - 1].is("at")) {
        1
    } else {
        0
    }
}

/// "5", "10:30", "5.30", "17:00": an hour up to `last` with its minutes.
fn is_hour(word: &str, last: u8) -> bool {
    let (hour, minutes) = word.split_once([':', '.']).unwrap_or((word, "00"));
    let hour = hour.parse::<u8>().is_ok_and(|h| (0..=last).contains(&h) && (h > 0 || last > 12));
    hour && minutes.len() == 2 && minutes.parse::<u8>().is_ok_and(|m| m < 60)
}

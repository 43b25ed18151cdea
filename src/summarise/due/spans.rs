//! Spans of time a deadline can name, and the day each ends on: "in two
//! weeks", "within 48 hours", "in a month's time", "two weeks from today",
//! "a week on Friday".

use time::{Date, Duration};

use super::days::{number_at, weekday};
use super::rules::time_at;
use super::timex::{Kind, Time, skip_article};
use crate::summarise::calendar::add_months;
use crate::summarise::tokens::Tok;

/// How long a span is: days (an hour is a 24th of one), or months, which
/// count on the calendar ("a month from the 11th" is the 11th).
#[derive(Debug, Clone, Copy)]
enum Length {
    Days(f64),
    Months(i32),
}

/// "in two weeks", "within 10 days", "within 48 hours", "in a fortnight",
/// "in a couple of weeks", "in two weeks' time", "in a month's time".
pub(super) fn in_duration(toks: &[Tok], at: usize, to: usize, meeting: Date) -> Option<Time> {
    let (length, mut end) = span(toks, at, to)?;
    if word(toks, end, to) == "time" && toks[end - 1].mark.is_none() {
        end += 1;
    }
    Some(Time { end, date: after(meeting, length), kind: Kind::Duration })
}

/// "two weeks from today", "a week from tomorrow", "ten days from now", "a
/// week from Friday": the span counted from the day said. A day, not a
/// duration: said alone, it is a deadline.
pub(super) fn from_day(toks: &[Tok], at: usize, to: usize, meeting: Date) -> Option<Time> {
    let (length, end) = span(toks, at, to)?;
    if word(toks, end, to) != "from" || toks[end - 1].mark.is_some() {
        return None;
    }
    if word(toks, end + 1, to) == "now" {
        return Some(Time { end: end + 2, date: after(meeting, length), kind: Kind::Day });
    }
    let day = time_at(toks, skip_article(toks, end + 1, to), to, meeting)
        .or_else(|| time_at(toks, end + 1, to, meeting))
        .filter(|t| t.kind == Kind::Day)?;
    Some(Time { end: day.end, date: after(day.date?, length), kind: Kind::Day })
}

/// "a week on Friday", "two weeks on Monday" (British): the weekday that
/// many weeks after the coming one, as "Monday week" is; "a week today",
/// "a week tomorrow": that day a week on.
pub(super) fn weeks_on(toks: &[Tok], at: usize, to: usize, meeting: Date) -> Option<Time> {
    let word = |i: usize| word(toks, i, to);
    let (length, end) = span(toks, at, to)?;
    let in_weeks = word(end - 1).starts_with("week") || word(end - 1).starts_with("fortnight");
    if !in_weeks || toks[end - 1].mark.is_some() {
        return None;
    }
    let (day, end) = match word(end) {
        "today" => (Some(meeting), end + 1),
        "tomorrow" => (meeting.next_day(), end + 1),
        "on" => (Some(meeting.next_occurrence(weekday(word(end + 1))?)), end + 2),
        _ => return None,
    };
    Some(Time { end, date: day.and_then(|d| after(d, length)), kind: Kind::Day })
}

/// A span said from `at` ("two weeks", "a fortnight", "48 hours", "a
/// couple of weeks", "twenty-one days"): how long, and where its words
/// end. A unit said as a possessive ("a month's") is one only before
/// "time" ("a month's notice" is no time).
fn span(toks: &[Tok], at: usize, to: usize) -> Option<(Length, usize)> {
    let word = |i: usize| word(toks, i, to);
    let lows: Vec<&str> = toks[..to.min(toks.len())].iter().map(|t| t.low.as_str()).collect();
    let (count, len) = match (word(at), word(at + 1), word(at + 2)) {
        ("a" | "an" | "one", unit, _) if unit_days(unit.trim_end_matches("'s")).is_some() => (1.0, 1),
        ("a", "couple", "of") => (2.0, 3),
        ("a", "few", _) | ("few", _, _) => return None,
        _ => {
            let n = number_at(&lows, at).filter(|n| !n.ordinal)?;
            (n.value, n.len)
        }
    };
    let unit_at = at + len;
    let unit = match word(unit_at).strip_suffix("'s") {
        Some(unit) if word(unit_at + 1) == "time" => unit,
        Some(_) => return None,
        None => word(unit_at),
    };
    let length = if matches!(unit, "month" | "months") {
        Length::Months(count as i32)
    } else {
        Length::Days(count * unit_days(unit)?)
    };
    Some((length, unit_at + 1))
}

/// The day `length` after `from`; a part of a day rounds to the nearest.
fn after(from: Date, length: Length) -> Option<Date> {
    match length {
        Length::Days(days) => from.checked_add(Duration::days(days.round() as i64)),
        Length::Months(months) => add_months(from, months),
    }
}

/// How many days a unit of a span is.
fn unit_days(unit: &str) -> Option<f64> {
    match unit {
        "hour" | "hours" => Some(1.0 / 24.0),
        "day" | "days" => Some(1.0),
        "week" | "weeks" => Some(7.0),
        "fortnight" | "fortnights" => Some(14.0),
        "month" | "months" => Some(30.0),
        _ => None,
    }
}

fn word(toks: &[Tok], i: usize, to: usize) -> &str {
    toks.get(i).filter(|_| i < to).map_or("", |t| t.low.as_str())
}

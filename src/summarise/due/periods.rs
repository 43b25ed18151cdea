//! Periods a deadline can name: "next week", "the end of the month", "mid
//! March", "Q3", "Christmas". Spans of time ("in two weeks") are in
//! `spans`.

use time::{Date, Duration, Month};

use super::days::{calendar_date, month_named};
use super::timex::{Kind, Time};
use crate::summarise::calendar::{Part, monday_of, month, quarter, quarter_named, week, year, year_of};
use crate::summarise::tokens::Tok;

/// "next week", "this month", "end of the quarter", "the week after next",
/// "early next week", "mid March", "Q3", "Christmas".
pub(super) fn period(toks: &[Tok], at: usize, to: usize, meeting: Date) -> Option<Time> {
    let word = |i: usize| toks.get(i).filter(|_| i < to).map_or("", |t| t.low.as_str());
    let mut i = at;
    // Where in the period: its end, its middle, its start.
    let mut part = Part::Whole;
    match (word(i), word(i + 1), word(i + 2)) {
        ("end" | "close", "of", _) => {
            part = Part::End;
            i += 2;
        }
        ("the", "end" | "close", "of") => {
            part = Part::End;
            i += 3;
        }
        ("the", "beginning" | "start", "of") | ("the", "middle", "of") => {
            part = if word(i + 1) == "middle" { Part::Middle } else { Part::Start };
            i += 3;
        }
        ("beginning" | "start" | "middle", "of", _) => {
            part = if word(i) == "middle" { Part::Middle } else { Part::Start };
            i += 2;
        }
        ("mid" | "early" | "late" | "later", next, _) if next != "today" => {
            part = match word(i) {
                "mid" => Part::Middle,
                "early" => Part::Start,
                _ => Part::End,
            };
            i += 1;
        }
        _ => {}
    }
    let has_article = word(i) == "the";
    if has_article {
        i += 1;
    }
    let (offset, len) = match word(i) {
        "this" | "current" => (0, 1),
        "next" | "following" | "coming" => (1, 1),
        _ => (0, 0),
    };
    let unit_at = i + len;
    let unit = word(unit_at);
    if matches!(unit, "week" | "weekend" | "month" | "quarter" | "year" | "q1" | "q2" | "q3" | "q4") {
        // "the week after next"
        let after_next = unit == "week" && word(unit_at + 1) == "after" && word(unit_at + 2) == "next";
        let (offset, extra) = if after_next { (offset + 2, 2) } else { (offset, 0) };
        // A bare unit with no "this"/"next" and no part is no time ("for
        // the month", "a week"), but "the weekend" and "Q3" are.
        let named = unit.starts_with('q') || after_next || (unit == "weekend" && has_article);
        if len == 0 && part == Part::Whole && !named {
            return None;
        }
        let end = unit_at + 1 + extra;
        // "next week", "this weekend", "next month", "early next week": no
        // day in them; their ends and "this week" (its Friday) have one.
        let vague = match unit {
            "week" => part == Part::Start || (part == Part::Whole && offset > 0) || part == Part::Middle,
            "weekend" => true,
            "month" | "quarter" | "year" => {
                part == Part::Whole && offset > 0 || part == Part::Start || part == Part::Middle
            }
            _ => false,
        };
        if vague {
            return Some(Time { end, date: None, kind: Kind::Vague });
        }
        let date = match unit {
            "week" => week(meeting, offset, part),
            "weekend" => monday_of(meeting).checked_add(Duration::days(7 * offset + 5)),
            "month" => month(meeting, offset, part),
            "quarter" => quarter(meeting, offset, part),
            "year" => year(meeting.year() + offset as i32, part),
            q => quarter_named(meeting, q, part),
        };
        return Some(Time { end, date, kind: Kind::Day });
    }
    let month_word = word(i).strip_prefix("mid-").inspect(|_| part = Part::Middle).unwrap_or(word(i));
    if let Some(month) = month_named(month_word).filter(|_| month_word != "may" || part != Part::Whole) {
        // "end of March", "mid March"; a month alone only after "by",
        // "before" (checked by the caller's preposition) names its first day.
        let year = year_of(meeting, month, 1);
        let date = match part {
            Part::Whole | Part::Start => Date::from_calendar_date(year, month, 1).ok(),
            Part::Middle => Date::from_calendar_date(year, month, 15).ok(),
            Part::End => Date::from_calendar_date(year, month, month.length(year)).ok(),
        };
        // A month alone is a deadline only when a day does not follow: the
        // caller tries the calendar date first through `time_at`'s order.
        if part == Part::Whole && calendar_date(toks, i, to, meeting).is_some() {
            return None;
        }
        let kind = if part == Part::Whole { Kind::Month } else { Kind::Day };
        return Some(Time { end: i + 1, date, kind });
    }
    if part != Part::Whole && matches!(word(i), "day" | "business") {
        return Some(Time { end: i + 1 + usize::from(word(i + 1) == "day"), date: Some(meeting), kind: Kind::Day });
    }
    if word(i) == "christmas" {
        let year = year_of(meeting, Month::December, 25);
        return Some(Time {
            end: i + 1,
            date: Date::from_calendar_date(year, Month::December, 25).ok(),
            kind: Kind::Day,
        });
    }
    None
}

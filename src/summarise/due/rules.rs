//! The times a deadline can name, each a named rule with the phrases it
//! reads and the dates they resolve to, for a meeting on Wednesday 11
//! March 2026. The rules are tried in their order and the first that reads
//! a time wins; the test below holds each rule to its examples, and each
//! example to its rule (no rule before it reads the phrase).

use time::{Date, Duration};

use super::days::{calendar_date, day_of_month, weekday};
use super::hours::time_of_day;
use super::periods::period;
use super::spans::{from_day, in_duration, weeks_on};
use super::timex::{Kind, TIME_OF_DAY, Time, skip_article};
use crate::summarise::calendar::{monday_of, weekday_index};
use crate::summarise::tokens::Tok;

/// How a rule reads a time starting at word `at` of `toks[..to]`, for a
/// meeting on the given day.
type Read = fn(toks: &[Tok], at: usize, to: usize, meeting: Date) -> Option<Time>;

/// A way of saying a time, with what it is called and the phrases it
/// reads: each example and the ISO date it names (`None`: no day). The
/// name and the examples are read by the test that holds the rule to them.
#[cfg_attr(not(test), allow(dead_code))]
struct Rule {
    name: &'static str,
    read: Read,
    examples: &'static [(&'static str, Option<&'static str>)],
}

const RULES: &[Rule] = &[
    Rule {
        name: "a time of day, on the day said after it",
        read: time_of_day,
        examples: &[
            ("close of business", Some("2026-03-11")),
            ("end of day", Some("2026-03-11")),
            ("the end of the day", Some("2026-03-11")),
            ("COB", Some("2026-03-11")),
            ("COB Friday", Some("2026-03-13")),
            ("close of business Friday", Some("2026-03-13")),
            ("close of play on Thursday", Some("2026-03-12")),
            ("end of play tomorrow", Some("2026-03-12")),
            ("EOD tomorrow", Some("2026-03-12")),
            ("the end of the working day", Some("2026-03-11")),
            ("by 5pm today", Some("2026-03-11")),
            ("by 10am on Monday", Some("2026-03-16")),
            ("at 3 o'clock tomorrow", Some("2026-03-12")),
            ("at 3 tomorrow", Some("2026-03-12")),
            ("before 5:30 pm on the 20th", Some("2026-03-20")),
            ("by noon on Friday", Some("2026-03-13")),
            ("by lunchtime", Some("2026-03-11")),
            ("before noon", Some("2026-03-11")),
        ],
    },
    Rule {
        name: "a day said against the meeting's",
        read: relative_day,
        examples: &[
            ("today", Some("2026-03-11")),
            ("tonight", Some("2026-03-11")),
            ("tomorrow", Some("2026-03-12")),
            ("later today", Some("2026-03-11")),
            ("the day after tomorrow", Some("2026-03-13")),
            ("this afternoon", Some("2026-03-11")),
            ("asap", None),
            ("as soon as possible", None),
        ],
    },
    Rule {
        name: "the day of a weekday's event",
        read: weekday_event,
        examples: &[("at Thursday's meeting", Some("2026-03-12")), ("before Monday's call", Some("2026-03-16"))],
    },
    Rule {
        name: "a weekday",
        read: weekday_named,
        examples: &[
            ("Friday", Some("2026-03-13")),
            ("wednesday", Some("2026-03-18")),
            ("Monday week", Some("2026-03-23")),
            ("Friday the 20th", Some("2026-03-20")),
            ("monday the sixth of april", Some("2026-04-06")),
            ("Friday the twenty-seventh", Some("2026-03-27")),
        ],
    },
    Rule {
        name: "this or next weekday",
        read: this_or_next_weekday,
        examples: &[
            ("this Friday", Some("2026-03-13")),
            ("next Friday", Some("2026-03-20")),
            ("next Monday", Some("2026-03-16")),
            ("the coming Tuesday", Some("2026-03-17")),
        ],
    },
    Rule {
        name: "a period, or a part of one",
        read: period,
        examples: &[
            ("next week", None),
            ("early next week", None),
            ("the weekend", None),
            ("the end of the week", Some("2026-03-13")),
            ("the end of next week", Some("2026-03-20")),
            ("end of the month", Some("2026-03-31")),
            ("end of next month", Some("2026-04-30")),
            ("the end of the quarter", Some("2026-03-31")),
            ("the end of Q3", Some("2026-09-30")),
            ("the end of april", Some("2026-04-30")),
            ("mid may", Some("2026-05-15")),
            ("January", Some("2027-01-01")),
            ("Christmas", Some("2026-12-25")),
        ],
    },
    Rule {
        name: "weeks on from a day",
        read: weeks_on,
        examples: &[
            ("a week on Friday", Some("2026-03-20")),
            ("a week on Monday", Some("2026-03-23")),
            ("two weeks on Friday", Some("2026-03-27")),
            ("a week tomorrow", Some("2026-03-19")),
            ("a week today", Some("2026-03-18")),
        ],
    },
    Rule {
        name: "a time from a day",
        read: from_day,
        examples: &[
            ("two weeks from now", Some("2026-03-25")),
            ("two weeks from today", Some("2026-03-25")),
            ("a week from tomorrow", Some("2026-03-19")),
            ("ten days from now", Some("2026-03-21")),
            ("a month from today", Some("2026-04-11")),
            ("a week from Friday", Some("2026-03-20")),
        ],
    },
    Rule {
        name: "a time from now",
        read: in_duration,
        examples: &[
            ("two weeks", Some("2026-03-25")),
            ("ten days", Some("2026-03-21")),
            ("a couple of weeks", Some("2026-03-25")),
            ("a fortnight", Some("2026-03-25")),
            ("three months", Some("2026-06-11")),
            ("two weeks' time", Some("2026-03-25")),
            ("a month's time", Some("2026-04-11")),
            ("a fortnight's time", Some("2026-03-25")),
            ("48 hours", Some("2026-03-13")),
            ("24 hours", Some("2026-03-12")),
            ("an hour", Some("2026-03-11")),
            ("twenty-one days", Some("2026-04-01")),
        ],
    },
    Rule {
        name: "a day of a month",
        read: calendar_date,
        examples: &[
            ("the 3rd", Some("2026-04-03")),
            ("the twentieth", Some("2026-03-20")),
            ("the twenty first", Some("2026-03-21")),
            ("the twenty-third", Some("2026-03-23")),
            ("the twenty-first of April", Some("2026-04-21")),
            ("March 3rd", Some("2027-03-03")),
            ("the fifteenth of april", Some("2026-04-15")),
            ("30 June", Some("2026-06-30")),
        ],
    },
];

/// A time expression starting at `at`: its end and the date it names.
pub(super) fn time_at(toks: &[Tok], at: usize, to: usize, meeting: Date) -> Option<Time> {
    RULES.iter().find_map(|rule| (rule.read)(toks, at, to, meeting))
}

fn word(toks: &[Tok], i: usize, to: usize) -> &str {
    toks.get(i).filter(|_| i < to).map_or("", |t| t.low.as_str())
}

/// A time of `len` words from `at` that is a day.
fn day(at: usize, len: usize, date: Option<Date>) -> Option<Time> {
    Some(Time { end: at + len, date, kind: Kind::Day })
}

fn relative_day(toks: &[Tok], at: usize, to: usize, meeting: Date) -> Option<Time> {
    let word = |i: usize| word(toks, i, to);
    let after = |n: i64| meeting.checked_add(Duration::days(n));
    match word(at) {
        "today" | "tonight" => day(at, 1, Some(meeting)),
        "tomorrow" => day(at, 1, after(1)),
        "later" if word(at + 1) == "today" => day(at, 2, Some(meeting)),
        "day" if word(at + 1) == "after" && word(at + 2) == "tomorrow" => day(at, 3, after(2)),
        "the" if word(at + 1) == "day" && word(at + 2) == "after" && word(at + 3) == "tomorrow" => day(at, 4, after(2)),
        "this" if TIME_OF_DAY.contains(&word(at + 1)) => day(at, 2, Some(meeting)),
        "asap" => day(at, 1, None),
        "as" if word(at + 1) == "soon" && word(at + 2) == "as" && word(at + 3) == "possible" => day(at, 4, None),
        _ => None,
    }
}

/// "at Thursday's meeting": the day of the event ("Monday's fine" is not
/// one).
fn weekday_event(toks: &[Tok], at: usize, to: usize, meeting: Date) -> Option<Time> {
    let day_of_event = word(toks, at, to).strip_suffix("'s").and_then(weekday)?;
    let is_event = at > 0
        && toks[at - 1].is_any(&["at", "by", "before", "for", "until", "till"])
        && toks[at].mark.is_none()
        && toks.get(at + 1).is_some_and(|t| t.low.chars().all(char::is_alphabetic));
    is_event.then(|| Time { end: at + 2, date: Some(meeting.next_occurrence(day_of_event)), kind: Kind::Day })
}

/// A weekday is the first such day after the meeting; "Monday week" a week
/// after the coming Monday; "Friday the 10th" the Friday the date says.
fn weekday_named(toks: &[Tok], at: usize, to: usize, meeting: Date) -> Option<Time> {
    let weekday = weekday(word(toks, at, to))?;
    let ends_here = toks[at].mark.is_some();
    if word(toks, at + 1, to) == "week" && !ends_here {
        return day(at, 2, meeting.checked_add(Duration::days(7)).map(|d| d.next_occurrence(weekday)));
    }
    if !ends_here && let Some(time) = day_of_month(toks, skip_article(toks, at + 1, to), to, meeting) {
        return Some(time);
    }
    day(at, 1, Some(meeting.next_occurrence(weekday)))
}

/// "this Friday", "the coming Friday": the next one; "next Friday": the
/// Friday of next week.
fn this_or_next_weekday(toks: &[Tok], at: usize, to: usize, meeting: Date) -> Option<Time> {
    let word = |i: usize| word(toks, i, to);
    let w = word(at);
    if matches!(w, "this" | "next" | "coming" | "following")
        && let Some(weekday) = weekday(word(at + 1))
    {
        let date = match w {
            "next" | "following" => monday_of(meeting).checked_add(Duration::days(7 + weekday_index(weekday))),
            _ => Some(meeting.next_occurrence(weekday)),
        };
        return day(at, 2, date);
    }
    if w == "the" && word(at + 1) == "coming" {
        return day(at, 3, Some(meeting.next_occurrence(weekday(word(at + 2))?)));
    }
    None
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;
    use crate::summarise::tokens::tokenize;

    /// A Wednesday.
    const MEETING: Date = date!(2026 - 03 - 11);

    #[test]
    fn each_rule_reads_its_examples_and_no_rule_before_it_does() {
        for (i, rule) in RULES.iter().enumerate() {
            for &(phrase, want) in rule.examples {
                let toks = tokenize(phrase);
                let to = toks.len();
                let at = (0..to).find(|&at| time_at(&toks, at, to, MEETING).is_some());
                let at = at.unwrap_or_else(|| panic!("{}: no rule reads {phrase:?}", rule.name));
                let read = (rule.read)(&toks, at, to, MEETING);
                let read = read.unwrap_or_else(|| panic!("{}: an earlier rule reads {phrase:?}", rule.name));
                assert_eq!(read.end, to, "{}: {phrase:?} is read only in part", rule.name);
                assert_eq!(
                    read.date.map(crate::domain::action_item::iso).as_deref(),
                    want,
                    "{}: {phrase:?}",
                    rule.name
                );
                for earlier in &RULES[..i] {
                    assert!(
                        (earlier.read)(&toks, at, to, MEETING).is_none(),
                        "{phrase:?} is read by {:?} before {:?}",
                        earlier.name,
                        rule.name
                    );
                }
            }
        }
    }
}

//! Deadlines in a clause of speech ("by Friday", "before the audit on the
//! 3rd", "in two weeks", "end of the month") and the date each names,
//! resolved against the meeting's date. Conventions, so a date is always
//! the same for the same words: a weekday is the first such day after the
//! meeting ("next Friday": the Friday of next week); "end of the week" and
//! "end of next week" are those Fridays; "the 3rd" is the next 3rd; "end of
//! the month" its last day; "before Christmas" the 24th of December; "a
//! week on Friday" a week after the coming Friday; a time of day goes with
//! the day said beside it ("by 5pm today", "COB Friday"), the close of
//! business alone is the meeting's day and a clock time alone names none;
//! a deadline tied to a dated event is that date. Vague ones ("next week",
//! "this weekend", "in January", "before the install") keep their words
//! and name no day, and a day something is booked for ("book the room for
//! Tuesday") is what is booked, not a deadline.

mod days;
mod hours;
mod periods;
mod rules;
mod spans;
mod timex;

use time::Date;

use self::hours::closing_words;
use self::rules::time_at;
use self::timex::{Kind, TIME_OF_DAY, skip_article};
use super::numbers;
use super::tokens::Tok;

/// A deadline found: the words `start..end` of the clause, as said, and
/// the date when the words settle one.
#[derive(Debug, Clone, PartialEq)]
pub struct Due {
    pub start: usize,
    pub end: usize,
    pub text: String,
    pub date: Option<Date>,
}

impl Due {
    /// Whether the deadline's words are in the clause (not carried over a
    /// cut in an unpunctuated run, which leaves them none there).
    pub fn said_in_clause(&self) -> bool {
        self.end > self.start
    }
}

/// Words that make the time after them a deadline; longest first.
const DEADLINE_PREPOSITIONS: &[&[&str]] = &[
    &["no", "later", "than"],
    &["not", "later", "than"],
    &["in", "time", "for"],
    &["ahead", "of"],
    &["first", "thing"],
    &["by"],
    &["before"],
    &["until"],
    &["till"],
    &["on"],
    &["over"],
    &["at"],
    &["within"],
    &["in"],
];
/// Words before a time that make it no deadline: "from January", "last
/// Friday", "since Monday", "every week".
const NOT_DEADLINE: &[&str] =
    &["from", "since", "last", "every", "each", "per", "during", "starting", "after", "ago", "for"];
/// The longest time, in words, a list of times may hold ("the 8th and the
/// 9th").
const LISTED_TIME_WORDS: usize = 4;
/// Words after "before"/"ahead of" that start an event: "before the audit".
const EVENT_OPENERS: &[&str] = &["the", "our", "your", "their", "my", "next", "this"];
/// Words that end an event's name ("before the audit, and…").
const EVENT_STOPS: &[&str] = &[
    "and", "but", "so", "if", "because", "then", "or", "we", "i", "you", "they", "he", "she", "it", "is", "are", "was",
    "will", "can", "that", "which", "okay", "yeah", "right",
];

/// The deadline in `toks[from..to]`, if it names one: one with a date wins
/// over an event without ("on the 7th, before the launch"), then a time
/// after a deadline word over a bare one; of several alike, the last.
pub fn find(toks: &[Tok], from: usize, to: usize, meeting: Date) -> Option<Due> {
    let to = to.min(toks.len());
    let mut best: Option<((bool, bool), Due)> = None;
    let mut at = from;
    while at < to {
        let Some((strong, due)) = deadline_at(toks, at, from, to, meeting) else {
            at += 1;
            continue;
        };
        at = due.end.max(at + 1);
        // "by the 20th, well before the 28th": the second is a comment.
        let strong = strong && !(due.start > from && toks[due.start - 1].is("well"));
        let rank = (due.date.is_some(), strong);
        if best.as_ref().is_none_or(|(was, _)| rank >= *was) {
            best = Some((rank, due));
        }
    }
    best.map(|(_, due)| due)
}

/// Where `toks[from..to]` says "by then", a deadline that points back to
/// one said before it.
pub fn by_then(toks: &[Tok], from: usize, to: usize) -> Option<(usize, usize)> {
    let to = to.min(toks.len());
    let at = (from..to.saturating_sub(1)).find(|&i| toks[i].is("by") && toks[i + 1].is("then"))?;
    Some((at, at + 2))
}

/// A deadline starting at `at`: a deadline preposition with its time or
/// event, or a bare time. `true` when a preposition says it is a deadline.
fn deadline_at(toks: &[Tok], at: usize, from: usize, to: usize, meeting: Date) -> Option<(bool, Due)> {
    let word = |i: usize| toks.get(i).filter(|_| i < to).map_or("", |t| t.low.as_str());
    let preposition = DEADLINE_PREPOSITIONS
        .iter()
        .find(|p| p.iter().enumerate().all(|(k, w)| word(at + k) == *w))
        .map_or(0, |p| p.len());
    if preposition > 0 {
        let first = word(at);
        let start = at + preposition;
        let time =
            time_at(toks, skip_article(toks, start, to), to, meeting).or_else(|| time_at(toks, start, to, meeting));
        if let Some(time) = time {
            // "for two weeks" is how long, "in two weeks" when; "in March"
            // says the month but no day in it.
            let fits = match time.kind {
                Kind::Duration => matches!(first, "in" | "within"),
                Kind::Month => !matches!(first, "on" | "at" | "over" | "within"),
                Kind::Day | Kind::Vague => true,
            };
            if fits {
                let date = match time.kind {
                    Kind::Month if first == "in" => None,
                    _ if first == "before" && word(start) == "christmas" => time.date.and_then(Date::previous_day),
                    _ => time.date,
                };
                let strong = !matches!(first, "on" | "at" | "over");
                return Some((strong, due(toks, at, extend(toks, time.end, to), date)));
            }
        }
        if matches!(first, "before" | "ahead") || (first == "in" && preposition == 3) {
            return event(toks, at, start, to, meeting).map(|d| (true, d));
        }
        return None;
    }
    if said_as_no_deadline(toks, at, from, meeting) {
        return None;
    }
    // "the week of the 14th" is a week, no day.
    if at >= from + 2 && word(at - 1) == "of" && matches!(word(at - 2), "week" | "weekend" | "month") {
        return None;
    }
    let time =
        time_at(toks, skip_article(toks, at, to), to, meeting).filter(|t| matches!(t.kind, Kind::Day | Kind::Vague))?;
    Some((false, due(toks, at, extend(toks, time.end, to), time.date)))
}

/// Whether the words before a bare time at `at` say it is no deadline:
/// "from the 8th", "every Monday", and a time listed after such a one
/// ("I'll book them today, for the 8th and the 9th").
fn said_as_no_deadline(toks: &[Tok], at: usize, from: usize, meeting: Date) -> bool {
    let at = if at > from && toks[at - 1].is("the") { at - 1 } else { at };
    if at == from {
        return false;
    }
    let before = toks[at - 1].low.as_str();
    if NOT_DEADLINE.contains(&before) {
        return true;
    }
    matches!(before, "and" | "or")
        && (from..at - 1).rev().take(LISTED_TIME_WORDS).any(|start| {
            time_at(toks, start, at - 1, meeting).is_some_and(|t| t.end == at - 1)
                && said_as_no_deadline(toks, start, from, meeting)
        })
}

/// "before the audit on the 3rd", "ahead of the board meeting": an event,
/// with its date when one follows within a few words.
fn event(toks: &[Tok], at: usize, start: usize, to: usize, meeting: Date) -> Option<Due> {
    if !toks.get(start).is_some_and(|t| t.is_any(EVENT_OPENERS)) {
        return None;
    }
    let mut end = start + 1;
    while end < to && end < start + 6 {
        let t = &toks[end];
        if let Some(time) = time_at(toks, end, to, meeting).or_else(|| {
            (t.is("on") || t.is("in")).then(|| time_at(toks, skip_article(toks, end + 1, to), to, meeting)).flatten()
        }) {
            return Some(due(toks, at, extend(toks, time.end, to), time.date));
        }
        if t.is_any(EVENT_STOPS) {
            break;
        }
        end += 1;
        if toks[end - 1].mark.is_some() {
            break;
        }
    }
    // A name of at least one word after the opener: "before the audit".
    (end > start + 1 && !toks[start + 1].is_any(EVENT_STOPS)).then(|| due(toks, at, end, None))
}

fn due(toks: &[Tok], start: usize, end: usize, date: Option<Date>) -> Due {
    Due { start, end, text: super::tokens::text(toks, start, end), date }
}

/// Past the end of a time: "morning", "at noon", "at the latest", "at 3",
/// "close of business".
fn extend(toks: &[Tok], mut end: usize, to: usize) -> usize {
    let word = |i: usize| toks.get(i).filter(|_| i < to).map_or("", |t| t.low.as_str());
    loop {
        if toks.get(end.wrapping_sub(1)).is_some_and(|t| t.mark.is_some()) {
            return end;
        }
        let closing = closing_words(toks, end, to);
        if closing > 0 {
            end += closing;
        } else if TIME_OF_DAY.contains(&word(end)) || word(end) == "latest" {
            end += 1;
        } else if word(end) == "at" && word(end + 1) == "the" && word(end + 2) == "latest" {
            end += 3;
        } else if word(end) == "at" && (TIME_OF_DAY.contains(&word(end + 1)) || is_clock(word(end + 1))) {
            end += 2;
            if matches!(word(end), "am" | "pm" | "o'clock" | "thirty") {
                end += 1;
            }
        } else {
            return end;
        }
    }
}

fn is_clock(word: &str) -> bool {
    word.split(':').next().is_some_and(|h| h.parse::<u8>().is_ok_and(|h| (1..=12).contains(&h)))
        || numbers::at(&[word], 0).is_some_and(|n| !n.ordinal && (1.0..=12.0).contains(&n.value))
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;
    use crate::summarise::tokens::tokenize;

    /// A Wednesday.
    const MEETING: Date = date!(2026 - 03 - 11);

    fn found(clause: &str) -> Option<(String, Option<String>)> {
        let toks = tokenize(clause);
        find(&toks, 0, toks.len(), MEETING).map(|d| (d.text, d.date.map(crate::domain::action_item::iso)))
    }

    fn date_of(clause: &str) -> Option<String> {
        found(clause).and_then(|(_, date)| date)
    }

    #[test]
    fn weekdays_resolve_to_the_next_one_and_next_to_the_week_after() {
        assert_eq!(found("send it by Friday."), Some(("by Friday".into(), Some("2026-03-13".into()))));
        assert_eq!(date_of("call them on monday"), Some("2026-03-16".into()));
        assert_eq!(date_of("by wednesday"), Some("2026-03-18".into()), "the same weekday is next week's");
        assert_eq!(date_of("next friday"), Some("2026-03-20".into()));
        assert_eq!(date_of("this friday"), Some("2026-03-13".into()));
        assert_eq!(date_of("monday week"), Some("2026-03-23".into()));
        assert_eq!(
            found("get sign-off at Thursday's meeting"),
            Some(("at Thursday's meeting".into(), Some("2026-03-12".into())))
        );
        assert_eq!(found("Monday's fine."), None, "a day that is the subject is no deadline");
        assert_eq!(
            found("by Friday morning at the latest"),
            Some(("by Friday morning at the latest".into(), Some("2026-03-13".into())))
        );
    }

    #[test]
    fn days_weeks_months_and_quarters_resolve() {
        assert_eq!(date_of("tomorrow"), Some("2026-03-12".into()));
        assert_eq!(date_of("by end of day"), Some("2026-03-11".into()));
        assert_eq!(date_of("later today"), Some("2026-03-11".into()));
        assert_eq!(found("next week"), Some(("next week".into(), None)), "a week names no day");
        assert_eq!(found("early next week"), Some(("early next week".into(), None)));
        assert_eq!(found("over the weekend"), Some(("over the weekend".into(), None)));
        assert_eq!(date_of("by the end of next week"), Some("2026-03-20".into()));
        assert_eq!(date_of("by the end of the week"), Some("2026-03-13".into()));
        assert_eq!(date_of("the week after next"), None);
        assert_eq!(date_of("by the end of the month"), Some("2026-03-31".into()));
        assert_eq!(date_of("end of next month"), Some("2026-04-30".into()));
        assert_eq!(date_of("before the end of the quarter"), Some("2026-03-31".into()));
        assert_eq!(date_of("by the end of Q3"), Some("2026-09-30".into()));
        assert_eq!(date_of("in two weeks"), Some("2026-03-25".into()));
        assert_eq!(date_of("within ten days"), Some("2026-03-21".into()));
        assert_eq!(date_of("in a couple of weeks"), Some("2026-03-25".into()));
        assert_eq!(date_of("in a fortnight"), Some("2026-03-25".into()));
        assert_eq!(date_of("in three months"), Some("2026-06-11".into()));
        assert_eq!(found("in a few weeks"), None);
    }

    #[test]
    fn a_clock_time_or_the_close_of_business_goes_with_the_day_beside_it() {
        assert_eq!(found("send it by 5pm today."), Some(("by 5pm today".into(), Some("2026-03-11".into()))));
        assert_eq!(found("call them by 10am on Monday"), Some(("by 10am on Monday".into(), Some("2026-03-16".into()))));
        assert_eq!(
            found("ring him at 3 o'clock tomorrow"),
            Some(("at 3 o'clock tomorrow".into(), Some("2026-03-12".into())))
        );
        assert_eq!(found("send the budget by COB Friday."), Some(("by COB Friday".into(), Some("2026-03-13".into()))));
        assert_eq!(
            found("send it by close of play on Thursday"),
            Some(("by close of play on Thursday".into(), Some("2026-03-12".into())))
        );
        assert_eq!(
            found("by end of play tomorrow"),
            Some(("by end of play tomorrow".into(), Some("2026-03-12".into())))
        );
        assert_eq!(
            found("send it by Friday close of business"),
            Some(("by Friday close of business".into(), Some("2026-03-13".into())))
        );
        assert_eq!(found("by lunchtime"), Some(("by lunchtime".into(), Some("2026-03-11".into()))));
        assert_eq!(date_of("by the end of the day"), Some("2026-03-11".into()));
        assert_eq!(
            found("I will send 3 tomorrow"),
            Some(("tomorrow".into(), Some("2026-03-12".into()))),
            "a count, no clock"
        );
        assert_eq!(
            found("send the notes before the noon meeting"),
            Some(("before the noon meeting".into(), None)),
            "a time of day naming an event"
        );
    }

    #[test]
    fn a_time_on_from_a_day_counts_from_that_day() {
        assert_eq!(found("send it a week on Friday."), Some(("a week on Friday".into(), Some("2026-03-20".into()))));
        assert_eq!(found("two weeks from today"), Some(("two weeks from today".into(), Some("2026-03-25".into()))));
        assert_eq!(date_of("a week from tomorrow"), Some("2026-03-19".into()));
        assert_eq!(date_of("ten days from now"), Some("2026-03-21".into()));
        assert_eq!(date_of("within 48 hours"), Some("2026-03-13".into()));
        assert_eq!(date_of("within 24 hours"), Some("2026-03-12".into()));
        assert_eq!(found("in a month's time"), Some(("in a month's time".into(), Some("2026-04-11".into()))));
        assert_eq!(date_of("by the twenty-third"), Some("2026-03-23".into()));
        assert_eq!(found("we spent a week on it"), None);
        assert_eq!(found("for 48 hours"), None, "how long, not when");
    }

    #[test]
    fn a_dated_deadline_wins_over_an_event_and_a_well_before_is_a_comment() {
        assert_eq!(date_of("meet on Thursday the 7th of May, a week before the deadline"), Some("2026-05-07".into()));
        assert_eq!(
            date_of("file it by the 30th of November, so nothing hangs over Christmas"),
            Some("2026-11-30".into())
        );
        assert_eq!(date_of("ready to sign by the 20th, well before the 28th"), Some("2026-03-20".into()));
        assert_eq!(date_of("send it on Monday, by Friday at the latest"), Some("2026-03-13".into()));
    }

    #[test]
    fn a_weekday_with_its_date_is_that_date() {
        assert_eq!(found("by Friday the 20th."), Some(("by Friday the 20th".into(), Some("2026-03-20".into()))));
        assert_eq!(date_of("on monday the sixth of april"), Some("2026-04-06".into()));
        assert_eq!(date_of("launch on Monday 22nd March"), Some("2026-03-22".into()));
        assert_eq!(
            date_of("by friday. the 20th is too late"),
            Some("2026-03-13".into()),
            "a new sentence is not its date"
        );
    }

    #[test]
    fn a_spelled_ordinal_ends_its_phrase_where_a_reply_starts() {
        assert_eq!(date_of("send the artwork by the twenty first good that gives us time"), Some("2026-03-21".into()));
        assert_eq!(date_of("the draft report by the twenty third two days after testing"), Some("2026-03-23".into()));
        assert_eq!(date_of("at their meeting on the fifteenth it's on the agenda"), Some("2026-03-15".into()));
        assert_eq!(date_of("look at the back wall on the fourteenth he needs an hour"), Some("2026-03-14".into()));
        assert_eq!(date_of("by the first draft"), None, "an ordinal before a noun is no date");
    }

    #[test]
    fn calendar_dates_resolve_forward_from_the_meeting() {
        assert_eq!(date_of("by the 3rd"), Some("2026-04-03".into()), "the 3rd has passed this month");
        assert_eq!(date_of("on the twentieth"), Some("2026-03-20".into()));
        assert_eq!(date_of("by the twenty first"), Some("2026-03-21".into()));
        assert_eq!(date_of("by March 3rd"), Some("2027-03-03".into()));
        assert_eq!(date_of("on the fifteenth of april"), Some("2026-04-15".into()));
        assert_eq!(date_of("by 30 June"), Some("2026-06-30".into()));
        assert_eq!(date_of("by the end of april"), Some("2026-04-30".into()));
        assert_eq!(date_of("mid may"), Some("2026-05-15".into()));
        assert_eq!(date_of("before christmas"), Some("2026-12-24".into()));
        assert_eq!(found("in January"), Some(("in January".into(), None)), "a month names no day");
    }

    #[test]
    fn an_event_deadline_keeps_its_words_and_its_date_when_said() {
        assert_eq!(
            found("send the figures before the audit on the 3rd"),
            Some(("before the audit on the 3rd".into(), Some("2026-04-03".into())))
        );
        assert_eq!(
            found("book it ahead of the board meeting, okay"),
            Some(("ahead of the board meeting".into(), None))
        );
    }

    #[test]
    fn times_that_are_no_deadline_are_not_taken() {
        assert_eq!(found("the discount can apply from January"), None);
        assert_eq!(found("we sent it last Friday"), None);
        assert_eq!(found("the second phase of the project"), None);
        assert_eq!(found("for the month"), None);
        assert_eq!(found("the unit for the first two weeks of the month"), None, "a rank, not the 1st");
        assert_eq!(found("book the room for Tuesday"), None, "the day booked is what is booked");
        assert_eq!(
            found("book the interviews today, for the 8th and the 9th, an hour each"),
            Some(("today".into(), Some("2026-03-11".into()))),
            "days listed after one booked are booked too"
        );
        assert_eq!(found("from the 8th or the 9th"), None);
        assert_eq!(
            date_of("fit them in the week of the 14th"),
            Some("2026-03-14".into()),
            "the day that names the week"
        );
        assert_eq!(found("a week"), None);
    }

    #[test]
    fn a_preposition_deadline_wins_over_a_bare_time() {
        let (text, _) =
            found("ask whether the discount can apply from January, and come back to you by Monday").unwrap();
        assert_eq!(text, "by Monday");
        let (text, _) = found("send the contract we discussed on Monday by Thursday").unwrap();
        assert_eq!(text, "by Thursday");
    }
}

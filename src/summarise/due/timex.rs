//! A time expression (a "timex") as the deadline rules read it, and the
//! words around one: its article, and the time of day that may follow it.

use time::Date;

use crate::summarise::tokens::Tok;

/// Words after a time that say more of it: "Friday morning", "Friday at
/// the latest".
pub(super) const TIME_OF_DAY: &[&str] =
    &["morning", "afternoon", "evening", "night", "lunchtime", "noon", "midday", "eod"];
/// A time expression: where it ends, the date it names, if any, and what
/// kind of time it is.
pub(super) struct Time {
    pub end: usize,
    pub date: Option<Date>,
    pub kind: Kind,
}

/// Durations and bare months are deadlines only after the right word.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Kind {
    /// A day or a period with its position: "Friday", "next week".
    Day,
    /// "two weeks": a deadline after "in" or "within".
    Duration,
    /// "March" alone.
    Month,
    /// A period that names no day: "next week", "this weekend".
    Vague,
}

/// Past "the" at `at`, where the clause goes on.
pub(super) fn skip_article(toks: &[Tok], at: usize, to: usize) -> usize {
    if at < to && toks.get(at).is_some_and(|t| t.is("the")) { at + 1 } else { at }
}

//! Date arithmetic for deadlines: the day, week, month, quarter or year a
//! phrase points at, seen from the meeting's date, and which part of it
//! ("early", "mid", "end of") is meant.

use time::{Date, Duration, Month, Weekday};

/// Which part of a period a deadline means: "next week" (the whole, which
/// starts then), "early", "mid" or "end of" it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Part {
    Whole,
    Start,
    Middle,
    End,
}

/// The day numbered `day` on or after the meeting: this month's, or next
/// month's once this month's has passed.
pub(super) fn next_numbered_day(meeting: Date, day: u8) -> Option<Date> {
    match Date::from_calendar_date(meeting.year(), meeting.month(), day).ok() {
        Some(date) if date >= meeting => Some(date),
        _ => {
            let next = add_months(monday_of(meeting).replace_day(1).ok()?, 1)?;
            Date::from_calendar_date(next.year(), next.month(), day).ok()
        }
    }
}

/// Monday 0 … Sunday 6.
pub(super) fn weekday_index(day: Weekday) -> i64 {
    i64::from(day.number_days_from_monday())
}

/// The Monday of `date`'s week.
pub(super) fn monday_of(date: Date) -> Date {
    date.checked_sub(Duration::days(weekday_index(date.weekday()))).unwrap_or(date)
}

/// The year in which `month`/`day` is next, seen from `meeting`.
pub(super) fn year_of(meeting: Date, month: Month, day: u8) -> i32 {
    match Date::from_calendar_date(meeting.year(), month, day.min(month.length(meeting.year()))) {
        Ok(date) if date < meeting && (meeting - date).whole_days() > 31 => meeting.year() + 1,
        _ => meeting.year(),
    }
}

/// `day` of `month` next on or after the meeting: this year's, or next
/// year's once it has passed.
pub(super) fn dated(meeting: Date, month: Month, day: u8) -> Option<Date> {
    let year = match Date::from_calendar_date(meeting.year(), month, day) {
        Ok(date) if date < meeting => meeting.year() + 1,
        _ => meeting.year(),
    };
    Date::from_calendar_date(year, month, day).ok()
}

/// The week `offset` weeks from the meeting's, at `part`.
pub(super) fn week(meeting: Date, offset: i64, part: Part) -> Option<Date> {
    let monday = monday_of(meeting).checked_add(Duration::days(7 * offset))?;
    match part {
        // "this week" is a deadline at its end; "next week" starts then.
        Part::Whole if offset == 0 => monday.checked_add(Duration::days(4)),
        Part::Whole | Part::Start => Some(monday),
        Part::Middle => monday.checked_add(Duration::days(2)),
        Part::End => monday.checked_add(Duration::days(4)),
    }
}

/// `months` later (earlier when negative), the day kept within the month.
pub(super) fn add_months(date: Date, months: i32) -> Option<Date> {
    let index = date.year() * 12 + i32::from(u8::from(date.month())) - 1 + months;
    let (year, month) = (index.div_euclid(12), Month::try_from((index.rem_euclid(12) + 1) as u8).ok()?);
    Date::from_calendar_date(year, month, date.day().min(month.length(year))).ok()
}

/// The month `offset` months from the meeting's, at `part`.
pub(super) fn month(meeting: Date, offset: i64, part: Part) -> Option<Date> {
    let first = add_months(meeting.replace_day(1).ok()?, offset as i32)?;
    match part {
        Part::Whole if offset == 0 => first.replace_day(first.month().length(first.year())).ok(),
        Part::Whole | Part::Start => Some(first),
        Part::Middle => first.replace_day(15).ok(),
        Part::End => first.replace_day(first.month().length(first.year())).ok(),
    }
}

/// The quarter `offset` quarters from the meeting's, at `part`.
pub(super) fn quarter(meeting: Date, offset: i64, part: Part) -> Option<Date> {
    let q = (u8::from(meeting.month()) - 1) / 3;
    let first = add_months(
        meeting.replace_day(1).ok()?.replace_month(Month::try_from(q * 3 + 1).ok()?).ok()?,
        3 * offset as i32,
    )?;
    match part {
        Part::Whole if offset == 0 => last_of_quarter(first),
        Part::Whole | Part::Start => Some(first),
        Part::Middle => add_months(first, 1)?.replace_day(15).ok(),
        Part::End => last_of_quarter(first),
    }
}

/// The last day of the quarter that starts on `first`.
fn last_of_quarter(first: Date) -> Option<Date> {
    let last = add_months(first, 2)?;
    last.replace_day(last.month().length(last.year())).ok()
}

/// "Q3": the next such quarter not yet over, at `part`.
pub(super) fn quarter_named(meeting: Date, q: &str, part: Part) -> Option<Date> {
    let n: u8 = q[1..].parse().ok()?;
    let mut first = Date::from_calendar_date(meeting.year(), Month::try_from((n - 1) * 3 + 1).ok()?, 1).ok()?;
    if last_of_quarter(first)? < meeting {
        first = add_months(first, 12)?;
    }
    match part {
        Part::Start => Some(first),
        Part::Middle => add_months(first, 1)?.replace_day(15).ok(),
        Part::Whole | Part::End => last_of_quarter(first),
    }
}

/// The year `year`, at `part`.
pub(super) fn year(year: i32, part: Part) -> Option<Date> {
    match part {
        Part::Start => Date::from_calendar_date(year, Month::January, 1).ok(),
        Part::Middle => Date::from_calendar_date(year, Month::June, 30).ok(),
        Part::Whole | Part::End => Date::from_calendar_date(year, Month::December, 31).ok(),
    }
}

//! Dated next steps as an iCalendar file (RFC 5545): one all-day VEVENT per
//! item, since calendars that subscribe to a feed (Google, Apple, Outlook)
//! show events and ignore VTODO.

use time::{Date, Duration, OffsetDateTime};

use super::action_item_record::ActionItemRecord;

/// Longest content line, in octets, before it is folded.
const LINE_OCTETS: usize = 75;

/// One dated next step with the client it is for.
pub struct DatedStep<'a> {
    pub item: &'a ActionItemRecord,
    pub client_name: &'a str,
}

/// A calendar named `name` holding the dated ones of `steps` (an undated
/// step has no day to sit on), stamped at `now` (Unix milliseconds).
pub fn calendar<'a>(name: &str, steps: impl IntoIterator<Item = DatedStep<'a>>, now: i64) -> String {
    let stamp = utc_stamp(now);
    let mut out = String::new();
    for line in ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Debrief//Next steps//EN", "CALSCALE:GREGORIAN"] {
        push_line(&mut out, line);
    }
    push_line(&mut out, &format!("X-WR-CALNAME:{}", escape(name)));
    for step in steps {
        if let Some(date) = step.item.item.due_date {
            push_event(&mut out, &step, date, &stamp);
        }
    }
    push_line(&mut out, "END:VCALENDAR");
    out
}

fn push_event(out: &mut String, step: &DatedStep<'_>, date: Date, stamp: &str) {
    let item = step.item;
    // The item's id is its identity: Regenerate keeps the id of a step it
    // writes again, and edits never change it, so a calendar updates the
    // event in place instead of showing a second one.
    push_line(out, "BEGIN:VEVENT");
    push_line(out, &format!("UID:next-step-{}@debrief", item.id));
    push_line(out, &format!("DTSTAMP:{stamp}"));
    push_line(out, &format!("DTSTART;VALUE=DATE:{}", day(date)));
    push_line(out, &format!("DTEND;VALUE=DATE:{}", day(date.saturating_add(Duration::days(1)))));
    push_line(out, &format!("SUMMARY:{}", escape(&format!("{} ({})", item.item.action, step.client_name))));
    push_line(out, &format!("DESCRIPTION:{}", escape(&format!("{}\nClient: {}", item.item.line(), step.client_name))));
    push_line(out, "TRANSP:TRANSPARENT");
    push_line(out, "END:VEVENT");
}

/// `date` as iCalendar's DATE value, "20260306".
fn day(date: Date) -> String {
    format!("{:04}{:02}{:02}", date.year(), u8::from(date.month()), date.day())
}

/// Unix milliseconds as a UTC DATE-TIME, "20260306T091500Z".
fn utc_stamp(unix_ms: i64) -> String {
    let at = OffsetDateTime::from_unix_timestamp(unix_ms.div_euclid(1000)).unwrap_or(OffsetDateTime::UNIX_EPOCH);
    format!("{}T{:02}{:02}{:02}Z", day(at.date()), at.hour(), at.minute(), at.second())
}

/// A TEXT value with its backslashes, semicolons, commas and line breaks
/// escaped; other control characters cannot be in a content line and go.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' | '\r' => out.push_str("\\n"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Appends `line` with CRLF, folded so that no line is longer than 75
/// octets: a break goes before a character, never inside one, and each
/// continuation starts with a space.
fn push_line(out: &mut String, line: &str) {
    let mut room = LINE_OCTETS;
    for c in line.chars() {
        if c.len_utf8() > room {
            out.push_str("\r\n ");
            room = LINE_OCTETS - 1;
        }
        out.push(c);
        room -= c.len_utf8();
    }
    out.push_str("\r\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::action_item::{ActionItem, Who};
    use crate::domain::action_item_record::Source;
    use crate::domain::ids::{ActionItemId, ClientId, UserId};
    use time::macros::date;

    fn record(id: u64, action: &str, due: Option<Date>) -> ActionItemRecord {
        ActionItemRecord {
            id: ActionItemId::from_key(id),
            client: ClientId::from_key(1),
            owner: UserId::from_key(1),
            position: 0,
            item: ActionItem { who: Who::Me, action: action.into(), due_text: None, due_date: due },
            done: false,
            source: Source::Summary,
            extracted: None,
        }
    }

    /// The content lines, unfolded.
    fn unfolded(ics: &str) -> Vec<String> {
        ics.replace("\r\n ", "").split("\r\n").filter(|l| !l.is_empty()).map(str::to_owned).collect()
    }

    #[test]
    fn a_dated_step_is_an_all_day_event_with_a_stable_uid() {
        let item = record(7, "Send the quote", Some(date!(2026 - 12 - 31)));
        let ics = calendar("Next steps", [DatedStep { item: &item, client_name: "Ana" }], 1_780_000_000_000);
        let lines = unfolded(&ics);
        for expected in [
            "UID:next-step-7@debrief",
            "DTSTART;VALUE=DATE:20261231",
            "DTEND;VALUE=DATE:20270101",
            "SUMMARY:Send the quote (Ana)",
            "DESCRIPTION:I will send the quote.\\nClient: Ana",
        ] {
            assert!(lines.iter().any(|l| l == expected), "{expected} in {lines:?}");
        }
        assert!(lines.iter().any(|l| l.starts_with("DTSTAMP:2026") && l.ends_with('Z')), "{lines:?}");
        assert!(ics.ends_with("END:VCALENDAR\r\n"));
    }

    #[test]
    fn an_undated_step_is_left_out() {
        let item = record(1, "Call back", None);
        let ics = calendar("Next steps", [DatedStep { item: &item, client_name: "Ana" }], 0);
        assert!(!ics.contains("VEVENT"));
    }

    #[test]
    fn text_is_escaped_and_long_lines_fold_between_characters() {
        let action = format!("Price, terms; and a \\ path\nthen {}", "é".repeat(80));
        let item = record(2, &action, Some(date!(2026 - 03 - 06)));
        let ics = calendar("Next steps", [DatedStep { item: &item, client_name: "Ana" }], 0);
        for line in ics.split("\r\n") {
            assert!(line.len() <= LINE_OCTETS, "{} octets: {line}", line.len());
        }
        let summary = unfolded(&ics).into_iter().find(|l| l.starts_with("SUMMARY:")).unwrap();
        assert!(summary.starts_with("SUMMARY:Price\\, terms\\; and a \\\\ path\\nthen éé"), "{summary}");
        assert!(summary.ends_with("é (Ana)"), "{summary}");
    }
}

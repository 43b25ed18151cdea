//! The figures of the follow-up tracker: meetings, follow-ups and next
//! steps, counted over one user's clients or everyone's. Days are the
//! caller's (the phone's "today"); a meeting's days are where it was
//! recorded.

use serde::Serialize;
use time::{Date, Duration, Month, OffsetDateTime};

use super::action_item::iso;
use super::action_item_record::ActionItemRecord;
use super::client::ClientRecord;

/// How many weeks the chart of meetings covers.
pub const WEEKS: usize = 12;

/// What the figures say, as the browser reads them.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Figures {
    pub meetings_this_month: u32,
    pub meetings_last_month: u32,
    pub follow_ups_this_month: u32,
    /// The median time from a meeting to its follow-up email, in hours
    /// (one decimal); none before the first email.
    pub median_hours_to_follow_up: Option<f64>,
    pub open_items: u32,
    pub overdue_items: u32,
    /// Meetings per week, oldest first, the last being this week.
    pub weeks: Vec<Week>,
}

/// Meetings in the week that starts on Monday `start`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Week {
    pub start: String,
    pub meetings: u32,
}

/// Counts clients and items into [`Figures`], as they are read.
pub struct Tally {
    today: Date,
    this_month: (i32, Month),
    last_month: (i32, Month),
    first_week: Date,
    figures: Figures,
    hours_to_follow_up: Vec<f64>,
}

impl Tally {
    pub fn new(today: Date) -> Self {
        let first_of_month = today.replace_day(1).unwrap_or(today);
        let last = first_of_month.previous_day().unwrap_or(first_of_month);
        let monday = today - Duration::days(i64::from(today.weekday().number_days_from_monday()));
        let first_week = monday - Duration::weeks(WEEKS as i64 - 1);
        let weeks =
            (0..WEEKS).map(|n| Week { start: iso(first_week + Duration::weeks(n as i64)), meetings: 0 }).collect();
        Self {
            today,
            this_month: (today.year(), today.month()),
            last_month: (last.year(), last.month()),
            first_week,
            figures: Figures {
                meetings_this_month: 0,
                meetings_last_month: 0,
                follow_ups_this_month: 0,
                median_hours_to_follow_up: None,
                open_items: 0,
                overdue_items: 0,
                weeks,
            },
            hours_to_follow_up: Vec::new(),
        }
    }

    pub fn client(&mut self, client: &ClientRecord) {
        let day_of = |unix_ms: i64| match client.recording.as_ref().and_then(|r| r.recorded) {
            Some(recorded) => recorded.date_of(unix_ms),
            None => utc_date(unix_ms),
        };
        let month = |day: Date| (day.year(), day.month());
        if client.emailed_at.is_some_and(|emailed| month(day_of(emailed)) == self.this_month) {
            self.figures.follow_ups_this_month += 1;
        }
        let Some(met) = client.meeting_at() else { return };
        let day = day_of(met);
        if month(day) == self.this_month {
            self.figures.meetings_this_month += 1;
        } else if month(day) == self.last_month {
            self.figures.meetings_last_month += 1;
        }
        let week = (day - self.first_week).whole_weeks();
        if let Some(week) = usize::try_from(week).ok().filter(|_| day >= self.first_week).filter(|&w| w < WEEKS) {
            self.figures.weeks[week].meetings += 1;
        }
        if let Some(emailed) = client.emailed_at {
            self.hours_to_follow_up.push((emailed - met).max(0) as f64 / 3_600_000.0);
        }
    }

    pub fn item(&mut self, item: &ActionItemRecord) {
        if item.done {
            return;
        }
        self.figures.open_items += 1;
        if item.item.due_date.is_some_and(|due| due < self.today) {
            self.figures.overdue_items += 1;
        }
    }

    pub fn finish(mut self) -> Figures {
        self.figures.median_hours_to_follow_up =
            median(&mut self.hours_to_follow_up).map(|h| (h * 10.0).round() / 10.0);
        self.figures
    }
}

fn median(values: &mut [f64]) -> Option<f64> {
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    match values.len() {
        0 => None,
        n if n % 2 == 1 => Some(values[mid]),
        _ => Some((values[mid - 1] + values[mid]) / 2.0),
    }
}

fn utc_date(unix_ms: i64) -> Date {
    OffsetDateTime::from_unix_timestamp(unix_ms.div_euclid(1000)).unwrap_or(OffsetDateTime::UNIX_EPOCH).date()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::action_item::{ActionItem, Who};
    use crate::domain::action_item_record::Source;
    use crate::domain::client::{ClientInput, RecordedAt, Recording};
    use crate::domain::ids::{ActionItemId, BlobId, ClientId, UserId};
    use time::macros::{date, datetime};

    const HOUR: i64 = 3_600_000;

    fn ms(at: OffsetDateTime) -> i64 {
        (at.unix_timestamp_nanos() / 1_000_000) as i64
    }

    /// A client met at `met` (UTC), followed up by email `emailed` later.
    fn met(at: OffsetDateTime, emailed_after_hours: Option<i64>) -> ClientRecord {
        let details = ClientInput {
            name: Some("Ana Silva".into()),
            email: Some("ana@example.com".into()),
            phone: Some("+44 20 7946 0000".into()),
            ..Default::default()
        };
        let mut client =
            ClientRecord::new(ClientId::from_key(1), UserId::from_key(1), details.parse().unwrap(), ms(at) + 9 * HOUR);
        let recorded = RecordedAt::parse(&ms(at).to_string(), "0", i64::MAX).unwrap();
        let mut recording = Recording::uploaded(BlobId::from_key(1), 1, String::new(), 1, ms(at));
        recording.recorded = Some(recorded);
        client.recording = Some(recording);
        client.emailed_at = emailed_after_hours.map(|h| ms(at) + h * HOUR);
        client
    }

    fn item(done: bool, due: Option<Date>) -> ActionItemRecord {
        ActionItemRecord {
            id: ActionItemId::from_key(1),
            client: ClientId::from_key(1),
            owner: UserId::from_key(1),
            position: 0,
            item: ActionItem { who: Who::Me, action: "Call".into(), due_text: None, due_date: due },
            done,
            source: Source::Summary,
            extracted: None,
        }
    }

    #[test]
    fn meetings_count_by_month_and_week_and_follow_ups_by_their_median_delay() {
        // Thursday 3 December 2026: this week started on Monday 30 November.
        let mut tally = Tally::new(date!(2026 - 12 - 03));
        tally.client(&met(datetime!(2026-12-01 10:00 UTC), Some(4)));
        tally.client(&met(datetime!(2026-11-30 09:00 UTC), Some(30)));
        tally.client(&met(datetime!(2026-11-29 18:00 UTC), None));
        tally.client(&met(datetime!(2026-11-02 08:00 UTC), Some(2)));
        tally.client(&met(datetime!(2026-09-01 08:00 UTC), None));
        let figures = tally.finish();
        assert_eq!((figures.meetings_this_month, figures.meetings_last_month), (1, 3));
        // The email about the 30 November meeting went out on 1 December.
        assert_eq!(figures.follow_ups_this_month, 2);
        assert_eq!(figures.median_hours_to_follow_up, Some(4.0), "of 2, 4 and 30 hours");
        assert_eq!(figures.weeks.len(), WEEKS);
        assert_eq!(figures.weeks[11], Week { start: "2026-11-30".into(), meetings: 2 });
        assert_eq!(figures.weeks[10], Week { start: "2026-11-23".into(), meetings: 1 });
        assert_eq!(figures.weeks[7], Week { start: "2026-11-02".into(), meetings: 1 }, "{:?}", figures.weeks);
        assert_eq!(figures.weeks[0].start, "2026-09-14", "the September meeting is older than the chart");
        assert_eq!(figures.weeks.iter().map(|w| w.meetings).sum::<u32>(), 4);
    }

    #[test]
    fn open_items_are_counted_and_those_past_their_day_are_overdue() {
        let mut tally = Tally::new(date!(2026 - 12 - 03));
        tally.item(&item(false, Some(date!(2026 - 12 - 02))));
        tally.item(&item(false, Some(date!(2026 - 12 - 03))));
        tally.item(&item(false, None));
        tally.item(&item(true, Some(date!(2026 - 11 - 01))));
        let figures = tally.finish();
        assert_eq!((figures.open_items, figures.overdue_items), (3, 1));
        assert_eq!(figures.median_hours_to_follow_up, None);
    }

    #[test]
    fn a_client_without_a_recording_is_no_meeting() {
        let mut tally = Tally::new(date!(2026 - 12 - 03));
        let mut client = met(datetime!(2026-12-01 10:00 UTC), None);
        client.recording = None;
        tally.client(&client);
        assert_eq!(tally.finish().meetings_this_month, 0);
    }
}

//! How long recordings are kept: the admin's retention policy.

use serde::{Deserialize, Serialize};

/// Most days a policy may keep recordings: ten years. Longer is "for good".
pub const DAYS_MAX: u32 = 3650;
const DAY_MS: i64 = 24 * 60 * 60 * 1000;

pub const INVALID: &str = "Keep recordings between 1 and 3650 days, or leave the field empty to keep them for good";

/// Keep recordings for good (the default), or delete their audio once it
/// is older than a number of days; transcripts, summaries and next steps
/// are always kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Retention {
    days: Option<u32>,
}

impl Retention {
    /// Reads a policy as an admin gives it: `None` keeps recordings for good.
    pub fn parse(days: Option<i64>) -> Result<Self, &'static str> {
        match days {
            None => Ok(Self::default()),
            Some(days) => match u32::try_from(days) {
                Ok(days @ 1..=DAYS_MAX) => Ok(Self { days: Some(days) }),
                _ => Err(INVALID),
            },
        }
    }

    pub fn days(self) -> Option<u32> {
        self.days
    }

    /// Audio uploaded before this moment (Unix milliseconds) is removed.
    pub fn cutoff(self, now: i64) -> Option<i64> {
        self.days.map(|days| now - i64::from(days) * DAY_MS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_policy_keeps_between_one_day_and_ten_years_or_for_good() {
        assert_eq!(Retention::parse(None).unwrap().days(), None);
        assert_eq!(Retention::parse(Some(30)).unwrap().days(), Some(30));
        assert_eq!(Retention::parse(Some(3650)).unwrap().days(), Some(3650));
        for bad in [0, -1, 3651, i64::MAX] {
            assert_eq!(Retention::parse(Some(bad)), Err(INVALID), "{bad}");
        }
    }

    #[test]
    fn the_cutoff_lies_the_policy_s_days_before_now() {
        let week = Retention::parse(Some(7)).unwrap();
        assert_eq!(week.cutoff(8 * DAY_MS), Some(DAY_MS));
        assert_eq!(Retention::default().cutoff(8 * DAY_MS), None);
    }
}

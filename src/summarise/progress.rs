//! Progress as the callers want it: whole percents that never go back and
//! end at 100, whatever order the steps of a summariser report in.

use super::Progress;

pub struct Reporter<'a> {
    report: Progress<'a>,
    last: Option<u8>,
}

impl<'a> Reporter<'a> {
    pub fn new(report: Progress<'a>) -> Self {
        Self { report, last: None }
    }

    /// Reports `percent` (capped at 100) unless it would go back or repeat.
    pub fn set(&mut self, percent: u8) {
        let percent = percent.min(100);
        if self.last.is_none_or(|last| percent > last) {
            self.last = Some(percent);
            (self.report)(percent);
        }
    }

    /// Reports `done` of `total` steps as a point between `from` and `to`.
    pub fn part(&mut self, from: u8, to: u8, done: usize, total: usize) {
        let share = if total == 0 { 1.0 } else { done.min(total) as f32 / total as f32 };
        self.set(from + ((to.saturating_sub(from)) as f32 * share) as u8);
    }

    pub fn done(&mut self) {
        self.set(100);
    }
}

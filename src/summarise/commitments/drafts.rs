//! Items in the making, as the merge rules build them: a recap merged
//! with what it repeats, and the surest kept when there are too many.

use std::collections::HashSet;

use crate::domain::action_item::{ActionItem, Who};
use crate::summarise::due::Due;
use crate::summarise::text::terms;

/// Most items an email lists.
const MAX_ITEMS: usize = 12;
/// Two items whose actions share this share of their words are one.
const SAME_ACTION: f32 = 0.5;

/// An item in the making.
pub(super) struct Draft {
    pub sentence: usize,
    pub score: f32,
    pub who: Who,
    pub action: String,
    pub due: Option<Due>,
    pub words: HashSet<String>,
}

impl Draft {
    /// Folds in a promise to report back on it: its deadline when the
    /// draft has none, and the thing the listener will receive, if named.
    pub fn take_report(&mut self, thing: Option<String>, due: &Option<Due>) {
        if let Some(thing) = thing {
            self.action = format!("{}, and send {thing}", self.action.trim_end_matches([',', ';']));
            self.words.extend(terms(&thing));
        }
        if self.due.is_none() {
            self.due.clone_from(due);
        }
    }
}

pub(super) fn draft(sentence: usize, score: f32, who: Who, action: String, due: Option<Due>) -> Draft {
    let words = terms(&action).collect();
    Draft { sentence, score, who, action, due, words }
}

/// A recap repeats what was agreed: an item whose action shares most of
/// its words with an earlier one is that item, said again. The merged
/// item keeps the fuller action, a deadline from either, and the surer owner.
pub(super) fn merge_repeats(drafts: Vec<Draft>) -> Vec<Draft> {
    let mut kept: Vec<Draft> = Vec::new();
    for d in drafts {
        let same = kept.iter().position(|k| same_commitment(k, &d));
        match same {
            Some(k) => {
                let k = &mut kept[k];
                if d.words.len() > k.words.len() {
                    k.action = d.action;
                    k.words = d.words;
                }
                if k.due.as_ref().is_none_or(|due| due.date.is_none())
                    && d.due.as_ref().is_some_and(|due| due.date.is_some() || k.due.is_none())
                {
                    k.due = d.due;
                }
                if rank(&d.who) > rank(&k.who) {
                    k.who = d.who;
                }
                k.score = k.score.max(d.score);
            }
            None => kept.push(d),
        }
    }
    kept
}

fn same_commitment(a: &Draft, b: &Draft) -> bool {
    let owners_agree = a.who == b.who || rank(&a.who) < 2 || rank(&b.who) < 2;
    let shared = a.words.intersection(&b.words).count() as f32;
    let smaller = a.words.len().min(b.words.len()).max(1) as f32;
    // One word in common of several is a person or a thing both touch
    // ("send it to Fiona", "flag anything to Fiona"), not one commitment.
    let enough = shared >= 2.0 || smaller == 1.0;
    // A recap says the deadline again: two different days are two steps
    // ("send the revised proposal by Tuesday", "send last year's campaign
    // results tomorrow").
    let dates = |d: &Draft| d.due.as_ref().and_then(|due| due.date);
    let other_day = matches!((dates(a), dates(b)), (Some(x), Some(y)) if x != y);
    owners_agree && shared / smaller >= SAME_ACTION && enough && !other_day
}

/// How much an owner says: a person beats "we", "we" beats nobody.
fn rank(who: &Who) -> u8 {
    match who {
        Who::Unattributed => 0,
        Who::We => 1,
        _ => 2,
    }
}

/// The surest items when there are too many, in meeting order.
pub(super) fn finish(mut drafts: Vec<Draft>) -> Vec<ActionItem> {
    if drafts.len() > MAX_ITEMS {
        drafts.sort_by(|a, b| b.score.total_cmp(&a.score));
        drafts.truncate(MAX_ITEMS);
        drafts.sort_by_key(|d| d.sentence);
    }
    drafts
        .into_iter()
        .map(|d| ActionItem {
            who: d.who,
            action: d.action,
            due_text: d.due.as_ref().map(|due| due.text.clone()),
            due_date: d.due.and_then(|due| due.date),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use time::{Date, Month};

    use super::*;

    #[test]
    fn steps_alike_but_due_on_different_days_are_two_and_a_recap_is_one() {
        let day = |d: u8| Due {
            start: 0,
            end: 0,
            text: format!("on the {d}th"),
            date: Date::from_calendar_date(2026, Month::May, d).ok(),
        };
        let step = |action: &str, due: Option<Due>| draft(0, 1.0, Who::Me, action.into(), due);
        let two = merge_repeats(vec![
            step("Send the revised proposal, campaign only", Some(day(19))),
            step("Send over last year's campaign results", Some(day(15))),
        ]);
        assert_eq!(two.len(), 2);
        let one = merge_repeats(vec![
            step("Send the revised proposal, campaign only", Some(day(19))),
            step("Send you the revised proposal", Some(day(19))),
            step("Send the revised proposal", None),
        ]);
        assert_eq!(one.len(), 1);
    }
}

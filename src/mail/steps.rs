//! The next steps of a follow-up as a consultant lists them: by who does
//! them, each with its date. "From us" holds the consultant's and their
//! side's steps, "From you" the client's, "Others" named third parties and
//! steps whose owner the meeting does not say. When no step has a known
//! owner the list stays one list, as the spec's `nextSteps` text has it.

use time::Date;

use crate::domain::action_item::{ActionItem, Who, lower_first};

/// One heading of the list and its lines; `heading` is `None` for the
/// single list of steps without owners.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepGroup {
    pub heading: Option<&'static str>,
    pub lines: Vec<String>,
}

const FROM_US: &str = "From us";
const FROM_YOU: &str = "From you";
const OTHERS: &str = "Others";

/// The groups of `items` in the order a reader acts on them (what the
/// consultant promised first); empty groups are left out. `None` when no
/// item has an owner the meeting names: then the plain lines stand.
pub fn grouped(items: &[ActionItem]) -> Option<Vec<StepGroup>> {
    if items.iter().all(|i| i.who == Who::Unattributed) {
        return None;
    }
    let mut groups = [FROM_US, FROM_YOU, OTHERS].map(|h| StepGroup { heading: Some(h), lines: Vec::new() });
    for item in items {
        let (group, line) = match &item.who {
            Who::Me | Who::We => (0, dated(item)),
            Who::Client => (1, dated(item)),
            Who::Person(name) => (2, format!("{name}: {}", lower_first(&dated(item)))),
            Who::Unattributed => (2, dated(item)),
        };
        groups[group].lines.push(line);
    }
    Some(groups.into_iter().filter(|g| !g.lines.is_empty()).collect())
}

/// The action with its deadline: the date spelled out when the meeting
/// fixed one ("by Friday 6 March"), else the words as said ("next week").
fn dated(item: &ActionItem) -> String {
    let action = item.action.trim().trim_end_matches('.');
    match (item.due_date, item.due_text.as_deref()) {
        (Some(date), _) => format!("{action} — by {}", spelled(date)),
        (None, Some(said)) => format!("{action} — {said}"),
        (None, None) => action.to_owned(),
    }
}

/// "Friday 6 March": the year goes without saying for a step due within it.
fn spelled(date: Date) -> String {
    format!("{} {} {}", date.weekday(), date.day(), date.month())
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    fn item(who: Who, action: &str, due_text: Option<&str>, due_date: Option<Date>) -> ActionItem {
        ActionItem { who, action: action.into(), due_text: due_text.map(Into::into), due_date }
    }

    #[test]
    fn steps_are_grouped_by_owner_with_their_dates_spelled_out() {
        let items = [
            item(Who::Client, "Confirm the final headcount", Some("by the 13th"), Some(date!(2026 - 03 - 13))),
            item(Who::Me, "Send the revised proposal", Some("by Friday"), Some(date!(2026 - 03 - 06))),
            item(Who::Person("Marcus".into()), "Test the Outlook integration", Some("next week"), None),
            item(Who::We, "Switch on the ten new seats", None, None),
            item(Who::Unattributed, "Book the training", None, None),
        ];
        let groups = grouped(&items).expect("owners are known");
        let shown: Vec<(Option<&str>, Vec<&str>)> =
            groups.iter().map(|g| (g.heading, g.lines.iter().map(String::as_str).collect())).collect();
        assert_eq!(
            shown,
            vec![
                (Some("From us"), vec!["Send the revised proposal — by Friday 6 March", "Switch on the ten new seats"]),
                (Some("From you"), vec!["Confirm the final headcount — by Friday 13 March"]),
                (Some("Others"), vec!["Marcus: test the Outlook integration — next week", "Book the training"]),
            ]
        );
    }

    #[test]
    fn steps_without_any_known_owner_stay_one_list() {
        let items = [item(Who::Unattributed, "Book the training", None, None)];
        assert_eq!(grouped(&items), None);
        assert_eq!(grouped(&[]), None);
    }
}

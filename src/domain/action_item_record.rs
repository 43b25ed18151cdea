//! Action items as the store keeps them, one row per next step of a client,
//! and the owner's edits of them. Regenerate replaces only what the
//! summariser wrote and nobody touched; an edited, added or done item stays.

use serde::{Deserialize, Serialize};
use time::Date;

use super::action_item::{ActionItem, Who, parse_iso};
use super::client::TEXT_BLOCK_MAX;
use super::fields::{FieldError, FieldErrors};
use super::ids::{ActionItemId, ClientId, UserId};
use super::text::has_control_chars;

/// Most next steps one client has.
pub const ITEMS_MAX: usize = 50;
/// Longest action.
pub const ACTION_MAX: usize = 500;
/// Longest `who` or deadline as said.
pub const SHORT_MAX: usize = 100;

/// Where an item comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// As the summariser wrote it.
    Summary,
    /// Written by the summariser, then changed by the owner.
    Edited,
    /// Added by the owner.
    Added,
}

/// One stored next step.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ActionItemRecord {
    pub id: ActionItemId,
    pub client: ClientId,
    pub owner: UserId,
    /// Its place in the client's list.
    pub position: u32,
    #[serde(flatten)]
    pub item: ActionItem,
    pub done: bool,
    pub source: Source,
    /// The action as the summariser first wrote it, kept through edits so
    /// that Regenerate does not list an edited step a second time.
    pub extracted: Option<String>,
}

impl ActionItemRecord {
    /// Regenerate may replace it: the summariser's own, untouched, not done.
    pub fn replaceable(&self) -> bool {
        self.source == Source::Summary && !self.done
    }

    /// The actions this item stands for, compared without case or spacing.
    pub fn covers(&self, action: &str) -> bool {
        let key = comparable(action);
        comparable(&self.item.action) == key || self.extracted.as_deref().is_some_and(|e| comparable(e) == key)
    }

    pub fn view(&self) -> ActionItemView {
        ActionItemView {
            id: self.id,
            item: self.item.clone(),
            line: self.item.line(),
            done: self.done,
            source: self.source,
        }
    }
}

fn comparable(action: &str) -> String {
    action.split_whitespace().collect::<Vec<_>>().join(" ").trim_end_matches('.').to_lowercase()
}

/// An item as its owner's browser sees it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ActionItemView {
    pub id: ActionItemId,
    #[serde(flatten)]
    pub item: ActionItem,
    /// The item as its line of the email reads.
    pub line: String,
    pub done: bool,
    pub source: Source,
}

/// One item of the list the owner sends back: an `id` it had, or none for
/// a new one.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ActionItemInput {
    pub id: Option<ActionItemId>,
    pub who: Option<String>,
    pub action: Option<String>,
    pub due_text: Option<String>,
    pub due_date: Option<String>,
    pub done: Option<bool>,
}

/// A valid item of the owner's list, made by [`parse_items`] alone.
#[derive(Debug, Clone)]
pub struct ItemEdit {
    id: Option<ActionItemId>,
    item: ActionItem,
    done: bool,
}

impl ItemEdit {
    pub fn id(&self) -> Option<ActionItemId> {
        self.id
    }

    /// True when the edit leaves `item` (done or not) as it is.
    pub fn same_as(&self, item: &ActionItem, done: bool) -> bool {
        self.item == *item && self.done == done
    }

    pub fn into_parts(self) -> (ActionItem, bool) {
        (self.item, self.done)
    }
}

/// A change to one next step from the tracker: ticked or unticked, a new
/// due date or none. A field left out stays as it is.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StepChangeInput {
    pub done: Option<bool>,
    /// Absent: unchanged; `null`: no date any more.
    #[serde(deserialize_with = "present")]
    pub due_date: Option<Option<String>>,
}

fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

/// A valid [`StepChangeInput`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepChange {
    done: Option<bool>,
    due: Option<Option<Date>>,
}

impl StepChangeInput {
    pub fn parse(&self) -> Result<StepChange, Vec<FieldError>> {
        let mut e = FieldErrors::default();
        let due = self.due_date.as_ref().map(|text| match text.as_deref().map(str::trim) {
            None | Some("") => Some(None),
            Some(text) => parse_iso(text).map(Some),
        });
        e.check(matches!(due, Some(None)), "dueDate", "A due date must be a date (YYYY-MM-DD)");
        e.finish(|| StepChange { done: self.done, due: due.flatten() })
    }
}

impl StepChange {
    /// Applies the change; true when the item's line in the email changed.
    /// A new date replaces the deadline as said, and makes the summariser's
    /// item the owner's, so Regenerate keeps it.
    pub fn apply_to(self, record: &mut ActionItemRecord) -> bool {
        if let Some(done) = self.done {
            record.done = done;
        }
        let Some(due) = self.due.filter(|due| *due != record.item.due_date) else { return false };
        record.item.due_date = due;
        record.item.due_text = due.map(|date| format!("by {}", spoken(date)));
        if record.source == Source::Summary {
            record.source = Source::Edited;
        }
        true
    }
}

/// A date as a deadline reads in a sentence: "Friday 6 March".
fn spoken(date: Date) -> String {
    format!("{} {} {}", date.weekday(), date.day(), date.month())
}

const FIELD: &str = "actionItems";

/// The owner's whole list of next steps, checked: every item has an action,
/// nothing is too long or holds control characters, due dates are dates.
pub fn parse_items(inputs: &[ActionItemInput]) -> Result<Vec<ItemEdit>, Vec<FieldError>> {
    let mut e = FieldErrors::default();
    e.check(inputs.len() > ITEMS_MAX, FIELD, "Next steps must be at most 50 items");
    let text = |v: &Option<String>| v.as_deref().map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned);
    let mut edits = Vec::with_capacity(inputs.len());
    for input in inputs {
        let (action, who, due_text) = (text(&input.action), text(&input.who), text(&input.due_text));
        let due_date = text(&input.due_date);
        e.check(action.is_none(), FIELD, "Every next step needs an action");
        let long = |v: &Option<String>, max: usize| v.as_ref().is_some_and(|t| t.chars().count() > max);
        e.check(long(&action, ACTION_MAX), FIELD, "A next step must be less than 500 characters");
        e.check(
            long(&who, SHORT_MAX) || long(&due_text, SHORT_MAX),
            FIELD,
            "Who and when must be less than 100 characters",
        );
        let controls = [&action, &who, &due_text].iter().any(|v| v.as_deref().is_some_and(has_control_chars));
        e.check(controls, FIELD, "Next steps contain characters that are not allowed");
        let date = due_date.as_deref().map(parse_iso);
        e.check(matches!(date, Some(None)), FIELD, "A due date must be a date (YYYY-MM-DD)");
        edits.push(ItemEdit {
            id: input.id,
            item: ActionItem {
                who: who.as_deref().map_or(Who::Unattributed, Who::parse),
                action: action.unwrap_or_default(),
                due_text,
                due_date: date.flatten(),
            },
            done: input.done.unwrap_or(false),
        });
    }
    // One step listed twice would be kept twice, and its tracker row with it.
    let mut seen = std::collections::HashSet::new();
    let repeated = edits.iter().filter_map(|edit| edit.id).any(|id| !seen.insert(id));
    e.check(repeated, FIELD, "A next step may be listed only once");
    let rendered: usize = edits.iter().map(|edit| edit.item.line().chars().count() + 1).sum();
    e.check(rendered > TEXT_BLOCK_MAX, FIELD, "Next steps must be less than 10000 characters");
    e.finish(|| edits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(action: &str) -> ActionItemInput {
        ActionItemInput { action: Some(action.into()), ..Default::default() }
    }

    fn record(source: Source) -> ActionItemRecord {
        ActionItemRecord {
            id: ActionItemId::from_key(1),
            client: ClientId::from_key(1),
            owner: UserId::from_key(1),
            position: 0,
            item: ActionItem { who: Who::Me, action: "Send the quote".into(), due_text: None, due_date: None },
            done: false,
            source,
            extracted: None,
        }
    }

    fn message(inputs: &[ActionItemInput]) -> String {
        parse_items(inputs).unwrap_err().into_iter().map(|e| e.message).collect::<Vec<_>>().join("; ")
    }

    #[test]
    fn an_owners_list_is_parsed_into_items_with_who_and_dates() {
        let edits = parse_items(&[ActionItemInput {
            id: None,
            who: Some(" client ".into()),
            action: Some(" Send the signed order ".into()),
            due_text: Some("by Friday".into()),
            due_date: Some("2026-03-06".into()),
            done: Some(true),
        }])
        .unwrap();
        let (item, done) = edits[0].clone().into_parts();
        assert_eq!(item.who, Who::Client);
        assert_eq!(item.action, "Send the signed order");
        assert_eq!(item.line(), "You will send the signed order by Friday.");
        assert_eq!(item.due_date.map(super::super::action_item::iso).as_deref(), Some("2026-03-06"));
        assert!(done);
        let (plain, _) = parse_items(&[input("Call the bank")]).unwrap()[0].clone().into_parts();
        assert_eq!((plain.who, plain.due_date), (Who::Unattributed, None));
    }

    #[test]
    fn a_list_that_breaks_a_rule_is_refused_with_the_reason() {
        assert_eq!(message(&[input("  ")]), "Every next step needs an action");
        assert_eq!(message(&[input(&"x".repeat(501))]), "A next step must be less than 500 characters");
        assert_eq!(message(&[input("Call\u{7}")]), "Next steps contain characters that are not allowed");
        let bad_date = ActionItemInput { due_date: Some("2026-02-30".into()), ..input("Call") };
        assert_eq!(message(&[bad_date]), "A due date must be a date (YYYY-MM-DD)");
        let many: Vec<_> = (0..51).map(|i| input(&format!("Step {i}"))).collect();
        assert_eq!(message(&many), "Next steps must be at most 50 items");
    }

    fn change(json: &str) -> Result<StepChange, String> {
        let input: StepChangeInput = serde_json::from_str(json).unwrap();
        input.parse().map_err(|e| e[0].message.clone())
    }

    #[test]
    fn a_tracker_change_sets_done_and_a_date_that_the_line_then_reads() {
        let mut record = record(Source::Summary);
        assert!(!change(r#"{"done":true}"#).unwrap().apply_to(&mut record));
        assert!(record.done);
        assert_eq!(record.source, Source::Summary, "ticking leaves the words the summariser's");
        assert!(change(r#"{"dueDate":"2026-03-06"}"#).unwrap().apply_to(&mut record));
        assert_eq!(record.item.line(), "I will send the quote by Friday 6 March.");
        assert_eq!(record.source, Source::Edited);
        assert!(record.done, "a date alone leaves done as it was");
        assert!(!change(r#"{"dueDate":"2026-03-06"}"#).unwrap().apply_to(&mut record), "the same date again");
        assert!(change(r#"{"dueDate":null}"#).unwrap().apply_to(&mut record));
        assert_eq!((record.item.due_date, record.item.due_text.as_deref()), (None, None));
        assert_eq!(change(r#"{"dueDate":"6 March"}"#).unwrap_err(), "A due date must be a date (YYYY-MM-DD)");
    }

    #[test]
    fn an_item_covers_its_action_and_what_the_summariser_first_wrote() {
        let record = ActionItemRecord { extracted: Some("Send over the quote".into()), ..record(Source::Edited) };
        assert!(record.covers("send  the quote."));
        assert!(record.covers("Send over the quote"));
        assert!(!record.covers("Send the invoice"));
        assert!(!record.replaceable());
    }

    #[test]
    fn a_list_naming_one_step_twice_is_refused_and_new_steps_may_be_many() {
        let id = Some(ActionItemId::from_key(7));
        let twice =
            [ActionItemInput { id, ..input("Send the quote") }, ActionItemInput { id, ..input("Send it again") }];
        let errors = parse_items(&twice).expect_err("refused");
        assert_eq!(errors[0].message, "A next step may be listed only once");
        assert!(parse_items(&[input("One"), input("Two")]).is_ok(), "steps without an id are new ones");
    }
}

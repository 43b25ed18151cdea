//! Next steps as action items: who will do what, by when. The spec's
//! `nextSteps` text is their rendering, one line per item, so every screen
//! that reads the text keeps working.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use time::{Date, Month};

/// Who will do it, as far as the meeting's words tell.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Who {
    /// The consultant who recorded the meeting.
    Me,
    /// The client the meeting was with.
    Client,
    /// Both sides, or the consultant's side as a group.
    We,
    /// Someone named in the meeting who is neither of the above.
    Person(String),
    /// The words do not say who: an unlabelled "I'll …".
    Unattributed,
}

impl Who {
    pub fn as_str(&self) -> &str {
        match self {
            Who::Me => "me",
            Who::Client => "client",
            Who::We => "we",
            Who::Person(name) => name,
            Who::Unattributed => "unattributed",
        }
    }

    /// Reads what [`Who::as_str`] writes; any other text is a name.
    pub fn parse(text: &str) -> Self {
        match text.trim() {
            "me" => Who::Me,
            "client" => Who::Client,
            "we" => Who::We,
            "" | "unattributed" => Who::Unattributed,
            name => Who::Person(name.to_string()),
        }
    }
}

impl Serialize for Who {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Who {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Who::parse(&String::deserialize(deserializer)?))
    }
}

/// One next step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActionItem {
    pub who: Who,
    /// The whole action in the imperative, without its deadline: "Send the
    /// updated floor plan with the two extra meeting rooms".
    pub action: String,
    /// The deadline as said: "by Tuesday", "before the audit on the 3rd".
    pub due_text: Option<String>,
    /// The deadline as a date, when it resolves against the meeting's date.
    #[serde(with = "iso_date")]
    pub due_date: Option<Date>,
}

impl ActionItem {
    /// The item as one line of the follow-up email, in the consultant's
    /// voice to the client: "I will send the revised proposal by Friday.",
    /// "You will confirm the stock count.", "Maria will book the room.",
    /// or the bare action when nobody is named.
    pub fn line(&self) -> String {
        let action = match &self.due_text {
            Some(due) => format!("{} {due}", self.action),
            None => self.action.clone(),
        };
        let subject = match &self.who {
            Who::Me => "I",
            Who::Client => "You",
            Who::We => "We",
            Who::Person(name) => name,
            Who::Unattributed => return finished(&action),
        };
        finished(&format!("{subject} will {}", lower_first(&action)))
    }
}

/// The next-step lines of `items`, as the spec's `nextSteps` text holds them.
pub fn next_steps_text<'a>(items: impl IntoIterator<Item = &'a ActionItem>) -> String {
    items.into_iter().map(ActionItem::line).collect::<Vec<_>>().join("\n")
}

fn finished(text: &str) -> String {
    let mut chars = text.trim().chars();
    let mut out: String = match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => return String::new(),
    };
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

/// The first letter in lower case, unless the first word is a name or an
/// acronym (a capital inside it, or "I").
pub(crate) fn lower_first(text: &str) -> String {
    let first_word = text.split_whitespace().next().unwrap_or("");
    if first_word == "I" || first_word.starts_with("I'") || first_word.chars().skip(1).any(char::is_uppercase) {
        return text.to_string();
    }
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A due date as "YYYY-MM-DD" in JSON and in the store.
mod iso_date {
    use super::*;

    pub fn serialize<S: Serializer>(date: &Option<Date>, serializer: S) -> Result<S::Ok, S::Error> {
        match date {
            Some(date) => serializer.serialize_str(&super::iso(*date)),
            None => serializer.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Date>, D::Error> {
        match Option::<String>::deserialize(deserializer)? {
            Some(text) => super::parse_iso(&text)
                .map(Some)
                .ok_or_else(|| serde::de::Error::custom(format!("not a date (YYYY-MM-DD): {text}"))),
            None => Ok(None),
        }
    }
}

/// `date` as "YYYY-MM-DD".
pub fn iso(date: Date) -> String {
    format!("{:04}-{:02}-{:02}", date.year(), u8::from(date.month()), date.day())
}

/// A "YYYY-MM-DD" date, if `text` is one.
pub fn parse_iso(text: &str) -> Option<Date> {
    let mut parts = text.trim().splitn(3, '-');
    let (year, month, day) = (parts.next()?, parts.next()?, parts.next()?);
    if year.len() != 4 || month.len() != 2 || day.len() != 2 {
        return None;
    }
    let month = Month::try_from(month.parse::<u8>().ok()?).ok()?;
    Date::from_calendar_date(year.parse().ok()?, month, day.parse().ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(who: Who, action: &str, due_text: Option<&str>) -> ActionItem {
        ActionItem { who, action: action.into(), due_text: due_text.map(Into::into), due_date: None }
    }

    #[test]
    fn an_item_reads_as_a_sentence_in_the_consultants_voice() {
        assert_eq!(
            item(Who::Me, "Send the revised proposal", Some("by Friday")).line(),
            "I will send the revised proposal by Friday."
        );
        assert_eq!(item(Who::Client, "Confirm the stock count", None).line(), "You will confirm the stock count.");
        assert_eq!(item(Who::Person("Maria".into()), "Book the room", None).line(), "Maria will book the room.");
        assert_eq!(item(Who::We, "Meet again in two weeks", None).line(), "We will meet again in two weeks.");
        assert_eq!(item(Who::Unattributed, "Call the bank", Some("tomorrow")).line(), "Call the bank tomorrow.");
        assert_eq!(item(Who::Me, "CC Maria on the contract", None).line(), "I will CC Maria on the contract.");
    }

    #[test]
    fn items_travel_as_json_with_iso_dates_and_who_as_text() {
        let item = ActionItem {
            who: Who::Person("Maria Silva".into()),
            action: "Book the room".into(),
            due_text: Some("by the 3rd".into()),
            due_date: Date::from_calendar_date(2026, Month::March, 3).ok(),
        };
        let json = serde_json::to_value(&item).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"who": "Maria Silva", "action": "Book the room", "dueText": "by the 3rd", "dueDate": "2026-03-03"})
        );
        assert_eq!(serde_json::from_value::<ActionItem>(json).unwrap(), item);
        let unattributed = serde_json::json!({"who": "unattributed", "action": "x", "dueText": null, "dueDate": null});
        assert_eq!(serde_json::from_value::<ActionItem>(unattributed).unwrap().who, Who::Unattributed);
        let bad = serde_json::json!({"who": "me", "action": "x", "dueText": null, "dueDate": "2026-02-30"});
        assert!(serde_json::from_value::<ActionItem>(bad).is_err());
    }
}

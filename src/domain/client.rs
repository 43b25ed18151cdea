//! Clients: the people a user meets, with their contact details, photo,
//! recording and what the box made of it.

use serde::{Deserialize, Serialize};

use super::action_item_record::{ActionItemInput, ActionItemRecord, ActionItemView, ItemEdit, parse_items};
use super::fields::{FieldError, FieldErrors};
use super::ids::{BlobId, ClientId, UserId};
use super::job::{JobStatus, JobView};
pub use super::recording::{RecordedAt, Recording, Superseded, WAV};
use super::text::{EMAIL_MAX, has_control_chars, is_email, normalise_email};
use super::user::{TEXT_MAX, iso_time};

pub const PHONE_MIN: usize = 10;
pub const PHONE_MAX: usize = 20;
/// How much of a summary a list row carries.
pub const SUMMARY_PREVIEW: usize = 200;

/// A client as stored.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ClientRecord {
    pub id: ClientId,
    pub owner: UserId,
    pub name: String,
    pub email: String,
    pub phone: String,
    pub company: Option<String>,
    pub position: Option<String>,
    /// The blob of the photo.
    pub photo: Option<BlobId>,
    pub recording: Option<Recording>,
    pub transcription: Option<String>,
    pub summary: Option<String>,
    /// One step per line.
    pub next_steps: Option<String>,
    /// Unix milliseconds.
    pub created_at: i64,
    /// When the follow-up email was last sent (or filed), Unix milliseconds.
    #[serde(default)]
    pub emailed_at: Option<i64>,
    /// When the owner said they followed up another way, Unix milliseconds.
    #[serde(default)]
    pub followed_up_at: Option<i64>,
    /// Who wrote the summary the last job saved; none before this was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary_source: Option<SummarySource>,
}

/// Who wrote a summary: the instruct LLM (its paragraph passed the check
/// that every number, name and date is in the transcript), or the
/// extractive summariser (the meeting's own sentences).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SummarySource {
    Llm,
    #[default]
    Extractive,
}

/// A client as its owner's browser sees it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Client {
    pub id: ClientId,
    pub user_id: UserId,
    pub name: String,
    pub email: String,
    pub phone: String,
    pub company: Option<String>,
    pub position: Option<String>,
    pub photo_url: Option<String>,
    pub recording_url: Option<String>,
    pub recording: Option<RecordingView>,
    pub transcription: Option<String>,
    pub summary: Option<String>,
    /// Who wrote the summary: `llm` or `extractive`.
    pub summary_source: Option<SummarySource>,
    pub next_steps: Option<String>,
    /// The next steps as items (who, what, by when); `nextSteps` is their
    /// rendering, or the owner's text where they wrote one.
    pub action_items: Vec<ActionItemView>,
    pub created_at: String,
    pub emailed_at: Option<String>,
    /// When the owner marked it followed up another way.
    pub followed_up_at: Option<String>,
    /// The processing of the recording; none without a recording.
    pub job: Option<JobView>,
}

impl Client {
    pub fn with_job(mut self, job: Option<JobView>) -> Self {
        self.job = job;
        self
    }
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordingView {
    pub size: u64,
    pub sha256: String,
    pub duration_ms: u64,
    pub content_type: String,
    pub stored_size: u64,
    /// When the retention policy removed the audio.
    pub removed_at: Option<String>,
}

/// A row of the client list: what the row shows, never the transcript.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientRow {
    pub id: ClientId,
    pub name: String,
    pub email: String,
    pub company: Option<String>,
    pub photo_url: Option<String>,
    pub summary: Option<String>,
    pub created_at: String,
    pub emailed_at: Option<String>,
    pub job_status: Option<JobStatus>,
}

impl ClientRow {
    pub fn with_job_status(mut self, status: Option<JobStatus>) -> Self {
        self.job_status = status;
        self
    }
}

impl ClientRecord {
    /// When the meeting was, Unix milliseconds: when its recording was made
    /// (or, for one from before the browser said, when the client was
    /// saved). No recording, no meeting.
    pub fn meeting_at(&self) -> Option<i64> {
        let recording = self.recording.as_ref()?;
        Some(recording.recorded.map_or(self.created_at, RecordedAt::unix_ms))
    }

    /// A summary is there and no follow-up went out, by email or otherwise.
    pub fn awaits_follow_up(&self) -> bool {
        self.summary.is_some() && self.emailed_at.is_none() && self.followed_up_at.is_none()
    }

    /// Where the browser gets the photo, naming its version.
    pub fn photo_url(&self) -> Option<String> {
        self.photo.map(|blob| format!("/api/clients/{}/photo?v={blob}", self.id))
    }
}

/// A client with its next steps, read together.
#[derive(Debug, Clone)]
pub struct ClientWithSteps {
    pub record: ClientRecord,
    pub items: Vec<ActionItemRecord>,
}

impl ClientWithSteps {
    /// The client as its owner's browser sees it.
    pub fn view(&self) -> Client {
        Client::new(&self.record, &self.items)
    }
}

impl Client {
    /// Client `r` with its next steps `items`, as the store keeps them.
    pub fn new(r: &ClientRecord, items: &[ActionItemRecord]) -> Self {
        Self {
            id: r.id,
            user_id: r.owner,
            name: r.name.clone(),
            email: r.email.clone(),
            phone: r.phone.clone(),
            company: r.company.clone(),
            position: r.position.clone(),
            photo_url: r.photo_url(),
            recording_url: r
                .recording
                .as_ref()
                .and_then(Recording::audio)
                .map(|blob| format!("/api/clients/{}/recording?v={blob}", r.id)),
            recording: r.recording.as_ref().map(|rec| RecordingView {
                size: rec.size,
                sha256: rec.sha256.clone(),
                duration_ms: rec.duration_ms,
                content_type: rec.content_type.clone(),
                stored_size: rec.stored_size.unwrap_or(rec.size),
                removed_at: rec.removed_at.map(iso_time),
            }),
            transcription: r.transcription.clone(),
            summary: r.summary.clone(),
            summary_source: r.summary_source,
            next_steps: r.next_steps.clone(),
            action_items: items.iter().map(ActionItemRecord::view).collect(),
            created_at: iso_time(r.created_at),
            emailed_at: r.emailed_at.map(iso_time),
            followed_up_at: r.followed_up_at.map(iso_time),
            job: None,
        }
    }
}

impl From<&ClientRecord> for ClientRow {
    fn from(r: &ClientRecord) -> Self {
        Self {
            id: r.id,
            name: r.name.clone(),
            email: r.email.clone(),
            company: r.company.clone(),
            photo_url: r.photo_url(),
            summary: r.summary.as_deref().map(preview),
            created_at: iso_time(r.created_at),
            emailed_at: r.emailed_at.map(iso_time),
            job_status: None,
        }
    }
}

/// The first [`SUMMARY_PREVIEW`] characters, cut at a word with an ellipsis.
pub fn preview(text: &str) -> String {
    if text.chars().count() <= SUMMARY_PREVIEW {
        return text.to_owned();
    }
    let cut: String = text.chars().take(SUMMARY_PREVIEW).collect();
    let at_word =
        cut.rfind(char::is_whitespace).filter(|i| *i > SUMMARY_PREVIEW / 2).map_or(cut.as_str(), |i| &cut[..i]);
    format!("{}…", at_word.trim_end())
}

/// The contact fields of the client form; a `userId` sent along is ignored:
/// the owner is always the signed-in user.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ClientInput {
    pub name: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub company: Option<String>,
    pub position: Option<String>,
}

/// The summary and next steps as the owner corrects them before emailing;
/// a field left out stays as it is. The next steps come as text (one per
/// line), as items, or both as read back (see [`NextSteps::Both`]).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TextsInput {
    pub summary: Option<String>,
    pub next_steps: Option<String>,
    pub action_items: Option<Vec<ActionItemInput>>,
}

/// Longest summary or list of next steps.
pub const TEXT_BLOCK_MAX: usize = 10_000;

/// Valid summary and next steps, made by [`TextsInput::parse`]; the
/// default changes neither.
#[derive(Debug, Clone, Default)]
pub struct Texts {
    summary: Option<String>,
    next_steps: Option<NextSteps>,
}

/// The next steps as the owner corrected them.
#[derive(Debug, Clone)]
pub enum NextSteps {
    /// Text, one step per line; empty clears them.
    Text(String),
    /// The whole list of items, in order.
    Items(Vec<ItemEdit>),
    /// Both, as a client sends back the whole record it read: the one that
    /// changed is meant.
    Both(String, Vec<ItemEdit>),
}

impl Texts {
    /// Writes the summary, if one was given, into the client (an empty one
    /// clears it) and hands back the next steps, which live in a table of
    /// their own.
    pub fn apply_to(self, client: &mut ClientRecord) -> Option<NextSteps> {
        if let Some(summary) = self.summary {
            client.summary = (!summary.is_empty()).then_some(summary);
        }
        self.next_steps
    }
}

impl TextsInput {
    pub fn parse(&self) -> Result<Texts, Vec<FieldError>> {
        let mut e = FieldErrors::default();
        let block = |v: &Option<String>| v.as_ref().map(|t| t.trim().replace("\r\n", "\n"));
        let (summary, next_steps) = (block(&self.summary), block(&self.next_steps));
        let too_long = |v: &Option<String>| v.as_ref().is_some_and(|t| t.chars().count() > TEXT_BLOCK_MAX);
        let bad_chars = |v: &Option<String>| {
            v.as_ref().is_some_and(|t| t.chars().any(|c| c.is_control() && c != '\n' && c != '\t'))
        };
        e.check(too_long(&summary), "summary", "Summary must be less than 10000 characters");
        e.check(bad_chars(&summary), "summary", "Summary contains characters that are not allowed");
        e.check(too_long(&next_steps), "nextSteps", "Next steps must be less than 10000 characters");
        e.check(bad_chars(&next_steps), "nextSteps", "Next steps contain characters that are not allowed");
        let items = match self.action_items.as_deref().map(parse_items) {
            Some(Ok(items)) => Some(items),
            Some(Err(errors)) => {
                errors.iter().for_each(|error| e.add(&error.field, &error.message));
                None
            }
            None => None,
        };
        let next_steps = match (next_steps, items) {
            (Some(text), Some(items)) => Some(NextSteps::Both(text, items)),
            (Some(text), None) => Some(NextSteps::Text(text)),
            (None, items) => items.map(NextSteps::Items),
        };
        e.finish(|| Texts { summary, next_steps })
    }
}

/// Valid contact details. [`ClientInput::parse`] is the only way to make
/// them, so a record never gets details that skipped validation:
///
/// ```compile_fail,E0451
/// let details = debrief::domain::client::ContactDetails {
///     name: "Jane\rBcc: eve@example.com".into(),
///     email: "jane@example.com".into(),
///     phone: "555 123 4567".into(),
///     company: None,
///     position: None,
/// };
/// ```
#[derive(Debug, Clone)]
pub struct ContactDetails {
    name: String,
    email: String,
    phone: String,
    company: Option<String>,
    position: Option<String>,
}

impl ContactDetails {
    /// Writes the details into the client.
    pub fn apply_to(self, client: &mut ClientRecord) {
        client.name = self.name;
        client.email = self.email;
        client.phone = self.phone;
        client.company = self.company;
        client.position = self.position;
    }
}

impl ClientRecord {
    /// A new client of `owner`, with its contact details and nothing else yet.
    pub fn new(id: ClientId, owner: UserId, details: ContactDetails, created_at: i64) -> Self {
        let ContactDetails { name, email, phone, company, position } = details;
        Self {
            id,
            owner,
            name,
            email,
            phone,
            company,
            position,
            photo: None,
            recording: None,
            transcription: None,
            summary: None,
            next_steps: None,
            created_at,
            emailed_at: None,
            followed_up_at: None,
            summary_source: None,
        }
    }
}

fn text(value: &Option<String>) -> String {
    value.as_deref().unwrap_or_default().trim().to_owned()
}

fn is_name_char(c: char) -> bool {
    c.is_alphabetic() || matches!(c, ' ' | '-' | '\'' | '’' | '.')
}

fn is_phone(phone: &str) -> bool {
    let digits = phone.strip_prefix('+').unwrap_or(phone);
    digits.chars().all(|c| c.is_ascii_digit() || matches!(c, ' ' | '-' | '(' | ')' | '.'))
}

impl ClientInput {
    pub fn parse(&self) -> Result<ContactDetails, Vec<FieldError>> {
        let mut e = FieldErrors::default();
        let (name, email, phone, company, position) =
            (text(&self.name), text(&self.email), text(&self.phone), text(&self.company), text(&self.position));
        e.check(name.is_empty(), "name", "Client name is required");
        e.check(name.chars().count() > TEXT_MAX, "name", "Name must be less than 100 characters");
        e.check(
            !name.chars().all(is_name_char),
            "name",
            "Name can only contain letters, spaces, hyphens, apostrophes, and periods",
        );
        e.check(email.is_empty(), "email", "Email address is required");
        e.check(email.chars().count() > EMAIL_MAX, "email", "Email address is too long");
        e.check(!is_email(&email), "email", "Please enter a valid email address (e.g., an example address)");
        e.check(phone.is_empty(), "phone", "Phone number is required");
        e.check(phone.chars().count() < PHONE_MIN, "phone", "Phone number must be at least 10 digits");
        e.check(phone.chars().count() > PHONE_MAX, "phone", "Phone number is too long");
        e.check(
            !is_phone(&phone),
            "phone",
            "Phone number can only contain numbers, spaces, hyphens, parentheses, plus sign, and periods",
        );
        e.check(company.chars().count() > TEXT_MAX, "company", "Company name must be less than 100 characters");
        e.check(has_control_chars(&company), "company", "Company name contains characters that are not allowed");
        e.check(position.chars().count() > TEXT_MAX, "position", "Position must be less than 100 characters");
        e.check(has_control_chars(&position), "position", "Position contains characters that are not allowed");
        let optional = |s: String| (!s.is_empty()).then_some(s);
        e.finish(|| ContactDetails {
            name,
            email: normalise_email(&email),
            phone,
            company: optional(company),
            position: optional(position),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_summary_is_cut_at_a_word_near_200_characters() {
        let long = "word ".repeat(100);
        let cut = preview(&long);
        assert!(cut.chars().count() <= SUMMARY_PREVIEW + 1);
        assert!(cut.ends_with("word…"), "{cut}");
        assert_eq!(preview("short"), "short");
    }
}

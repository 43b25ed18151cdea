//! The LLM as a checker of the rule path's next steps: each step goes to
//! the model with the few sentences around the one it came from, and one
//! small question: is this a commitment for after the meeting, who makes
//! it, and what exactly, with its object spelled out? A "NO" drops the
//! step; a "YES" may name the owner and reword the action, where the
//! transcript bears the words out. The deadline stays the rule path's,
//! which resolves dates against the meeting's day.
//!
//! Small local questions suit a small model far better than a whole
//! transcript: the answer is one line the parser either reads or refuses.

use crate::domain::action_item::{ActionItem, Who};
use crate::summarise::lexicon::is_stopword;
use crate::summarise::llm::ground::{Vocabulary, action_of, runs_in_another};
use crate::summarise::meeting::{Meeting, MeetingContext};
use crate::summarise::text::words;

/// The question, with `{me}`, `{client}` and `{excerpt}` to fill.
const QUESTION: &str = include_str!("prompts/check.txt");
/// Sentences of the excerpt before the step's own, and after it.
const BEFORE: usize = 2;
const AFTER: usize = 1;
/// Content words a reworded action may add to the step's own: its object
/// spelled out, not another commitment run in.
const ADDED_WORDS: usize = 6;

/// What the model said of a step it confirmed: who makes the commitment
/// and what, as it put them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confirmed {
    pub who: String,
    pub action: String,
}

/// The question about `item`, or `None` when no sentence of the meeting
/// holds its words (then there is nothing to show the model).
pub fn question(meeting: &Meeting, context: &MeetingContext, item: &ActionItem) -> Option<String> {
    let at = source(meeting, &item.action)?;
    let said = |s: usize| match meeting.speaker(s) {
        Some(speaker) => format!("{speaker}: \"{}\"", meeting.sentences[s].text),
        None => format!("\"{}\"", meeting.sentences[s].text),
    };
    let before: Vec<String> = (at.saturating_sub(BEFORE)..at).map(said).collect();
    let line: Vec<String> = (at..(at + AFTER + 1).min(meeting.sentences.len())).map(said).collect();
    let me = context.me.as_deref().unwrap_or("the consultant");
    let client = context.client.as_deref().unwrap_or("the client");
    Some(
        QUESTION
            .replace("{me}", me)
            .replace("{client}", client)
            .replace("{context}", &before.join(" "))
            .replace("{line}", &line.join(" ")),
    )
}

/// The sentence a step came from: the one sharing most of its content
/// words (the rule path writes the action from the sentence's own words).
fn source(meeting: &Meeting, action: &str) -> Option<usize> {
    let wanted = content(action);
    if wanted.is_empty() {
        return None;
    }
    let shared = |s: usize| {
        let have = content(&meeting.sentences[s].text);
        wanted.iter().filter(|w| have.contains(w)).count()
    };
    let (best, count) =
        (0..meeting.sentences.len()).map(|s| (s, shared(s))).max_by_key(|&(s, n)| (n, usize::MAX - s))?;
    (count * 2 >= wanted.len()).then_some(best)
}

fn content(text: &str) -> Vec<String> {
    words(text).filter(|w| w.len() > 2 && !is_stopword(w)).collect()
}

/// Where the model's answer begins: it says YES or NO next, and the
/// likelihood of each is what decides (see [`is_commitment`]).
pub const ANSWER_START: &str = "Commitment:";
/// What follows a YES, for the model to go on with the owner.
pub const AFTER_YES: &str = " YES\nWho:";

/// Whether the model's next-token logits after [`ANSWER_START`] make the
/// step a commitment: the share of " YES" between " YES" and " NO" at
/// least `threshold`.
pub fn is_commitment(yes_logit: f32, no_logit: f32, threshold: f32) -> bool {
    let yes = 1.0 / (1.0 + (no_logit - yes_logit).exp());
    yes >= threshold
}

/// Reads what the model wrote after [`AFTER_YES`]: the owner on the first
/// line, the action after "Action:". `None` when there is no action.
pub fn parse(answer: &str) -> Option<Confirmed> {
    let mut lines = answer.lines().map(|l| l.trim().replace("**", ""));
    let who = lines.next()?.trim_start_matches("Who:").trim().to_owned();
    let action = lines.find_map(|l| l.strip_prefix("Action:").map(|a| a.trim().trim_end_matches('.').to_owned()))?;
    (!action.is_empty()).then_some(Confirmed { who, action })
}

/// A confirmed `item` with the owner the model names where the rule path
/// had none, and its wording where every word is in the transcript, it
/// keeps the step's own and takes in none of the `others`.
pub fn apply(
    item: &ActionItem,
    confirmed: &Confirmed,
    context: &MeetingContext,
    vocabulary: &Vocabulary,
    others: &[ActionItem],
) -> ActionItem {
    let Confirmed { who, action } = confirmed;
    let mut out = item.clone();
    if item.who == Who::Unattributed
        && let Some(named) = owner(who, context, vocabulary)
    {
        out.who = named;
    }
    let action = action_of(action, item);
    if rewording_holds(&item.action, &action, vocabulary) && !runs_in_another(&item.action, &action, others) {
        out.action = action;
    }
    out
}

/// The owner the model names, as a [`Who`]: the consultant, the client, or
/// a first name the transcript says.
fn owner(who: &str, context: &MeetingContext, vocabulary: &Vocabulary) -> Option<Who> {
    let lower = who.trim().to_lowercase();
    let is = |name: &Option<String>| {
        name.as_deref().is_some_and(|n| {
            let n = n.to_lowercase();
            lower == n || n.split_whitespace().next().is_some_and(|first| lower == first)
        })
    };
    if lower.contains("consultant") || is(&context.me) {
        return Some(Who::Me);
    }
    if lower.contains("client") || is(&context.client) {
        return Some(Who::Client);
    }
    if lower == "we" || lower == "both" {
        return Some(Who::We);
    }
    let name = who.trim();
    let one_name = !name.is_empty()
        && name.split_whitespace().count() <= 2
        && name.chars().next().is_some_and(char::is_uppercase)
        && vocabulary.missing(name).is_empty();
    one_name.then(|| Who::Person(name.to_owned()))
}

/// Whether `rewording` may stand for `action`: at least two words, every
/// content word in the transcript, the step's own content words kept but
/// for at most one, and not much added.
fn rewording_holds(action: &str, rewording: &str, vocabulary: &Vocabulary) -> bool {
    let new = content(rewording);
    let old = content(action);
    let kept = old.iter().filter(|w| new.contains(w)).count();
    rewording.split_whitespace().count() >= 2
        && vocabulary.missing(rewording).is_empty()
        && kept + 1 >= old.len()
        && new.len() <= old.len() + ADDED_WORDS
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    fn context() -> MeetingContext {
        MeetingContext { date: date!(2026 - 03 - 11), me: Some("Ana Lopez".into()), client: Some("Raj Patel".into()) }
    }

    fn item(action: &str) -> ActionItem {
        ActionItem { who: Who::Unattributed, action: action.into(), due_text: None, due_date: None }
    }

    const MEETING: &str = "Can you send me the signed contractor agreement? We need it for the bank. \
        Email those. And the invoices too, please. Great, thanks.";

    #[test]
    fn the_question_shows_the_sentences_around_the_step_and_marks_its_own() {
        let meeting = Meeting::new(MEETING);
        let q = question(&meeting, &context(), &item("Email those")).expect("a source sentence");
        assert!(q.contains("Ana Lopez (the consultant) and Raj Patel (the client)"), "{q}");
        assert!(
            q.ends_with(
                "Context: \"Can you send me the signed contractor agreement?\" \"We need it for the bank.\"\n\
                             Line: \"Email those.\" \"And the invoices too, please.\"\n"
            ),
            "{q}"
        );
        assert_eq!(question(&meeting, &context(), &item("Book the venue")), None, "no sentence holds its words");
    }

    #[test]
    fn the_owner_and_the_action_are_read_after_a_yes_and_an_answer_without_an_action_is_refused() {
        assert_eq!(
            parse(" the client\nAction: Email the signed contractor agreement."),
            Some(Confirmed { who: "the client".into(), action: "Email the signed contractor agreement".into() })
        );
        assert_eq!(parse(" Raj\nSure! Here is the answer"), None);
        assert_eq!(parse(""), None);
    }

    #[test]
    fn a_yes_must_be_likelier_than_the_threshold_says() {
        assert!(is_commitment(2.0, 0.0, 0.5));
        assert!(!is_commitment(0.0, 2.0, 0.5));
        assert!(!is_commitment(0.2, 0.0, 0.7), "a coin toss is not enough where the threshold asks for more");
    }

    #[test]
    fn a_yes_names_the_owner_and_spells_out_the_object_where_the_transcript_bears_it() {
        let vocabulary = Vocabulary::of(MEETING);
        let yes = Confirmed { who: "the client".into(), action: "Email the signed contractor agreement".into() };
        let kept = apply(&item("Email those"), &yes, &context(), &vocabulary, &[]);
        assert_eq!((kept.who, kept.action.as_str()), (Who::Client, "Email the signed contractor agreement"));
    }

    #[test]
    fn a_rewording_with_words_the_meeting_never_said_keeps_the_rule_paths_action() {
        let vocabulary = Vocabulary::of(MEETING);
        let invented = Confirmed { who: "Raj".into(), action: "Email the mortgage offer to the solicitor".into() };
        let kept = apply(&item("Email those"), &invented, &context(), &vocabulary, &[]);
        assert_eq!((kept.who, kept.action.as_str()), (Who::Client, "Email those"));
    }

    #[test]
    fn a_rewording_says_neither_the_owner_nor_the_deadline_the_step_already_gives() {
        let vocabulary = Vocabulary::of("Maggie will test the booking page next week. Thanks.");
        let step = ActionItem { due_text: Some("next week".into()), ..item("Test the booking page") };
        let yes = Confirmed { who: "Maggie".into(), action: "Maggie will test the booking page next week".into() };
        let kept = apply(&step, &yes, &context(), &vocabulary, &[]);
        assert_eq!(kept.action, "Test the booking page");
        assert_eq!(kept.line(), "Maggie will test the booking page next week.");

        let vocabulary = Vocabulary::of("I'll set up the trial account today and send the login details.");
        let step = ActionItem { due_text: Some("today".into()), ..item("Set up the trial account") };
        let yes = Confirmed {
            who: "the consultant".into(),
            action: "Set up the trial account today, send the login details".into(),
        };
        let kept = apply(&step, &yes, &context(), &vocabulary, &[]);
        assert_eq!(kept.action, "Set up the trial account, send the login details");
        let sending = [item("Send the login details")];
        let kept = apply(&step, &yes, &context(), &vocabulary, &sending);
        assert_eq!(kept.action, "Set up the trial account", "the next step is not run into this one");
    }

    #[test]
    fn an_owner_is_a_name_the_meeting_says_or_nobody() {
        let vocabulary = Vocabulary::of("Priya from finance will send it. Thanks Raj.");
        assert_eq!(owner("Priya", &context(), &vocabulary), Some(Who::Person("Priya".into())));
        assert_eq!(owner("the consultant", &context(), &vocabulary), Some(Who::Me));
        assert_eq!(owner("Raj", &context(), &vocabulary), Some(Who::Client));
        assert_eq!(owner("Bartholomew", &context(), &vocabulary), None);
        assert_eq!(owner("someone at the bank", &context(), &vocabulary), None);
    }
}

//! The grounding check: what the LLM writes is kept only where the
//! transcript bears it out. A rewritten step whose content words are not
//! all in the transcript is dropped and the extractive item kept; each item
//! takes a step that keeps all its words, and other steps are dropped. The
//! summary paragraph has its own check (see [`super::paragraph`]).

use std::collections::HashSet;

use super::paragraph::{Said, paragraph};
use super::prompt;
use crate::domain::action_item::ActionItem;
use crate::summarise::lexicon::is_stopword;
use crate::summarise::meeting::MeetingContext;
use crate::summarise::numbers;
use crate::summarise::text::words;
use crate::summarise::{Summary, SummarySource};

/// Content words a rewritten step may add to the item's own (the object
/// spelled out, who it goes to): more is another step run in.
const ADDED_WORDS: usize = 4;

/// The content words of a text, as forms that match across inflections
/// ("revised", "revise") and numbers by value ("15,000", "fifteen thousand").
pub struct Vocabulary(HashSet<String>);

impl Vocabulary {
    pub fn of(text: &str) -> Self {
        Self(content(text).into_iter().collect())
    }

    /// The content words of `text` that the vocabulary lacks.
    pub fn missing(&self, text: &str) -> Vec<String> {
        content(text).into_iter().filter(|w| !self.0.contains(w)).collect()
    }
}

/// The extracted notes as the LLM rewrote them in `answer`, where the
/// transcript grounds the rewrite; the extracted text elsewhere.
pub fn rewritten(extracted: &Summary, answer: &str, transcript: &str, context: &MeetingContext) -> Summary {
    let parsed = match prompt::parse(answer) {
        Ok(parsed) => parsed,
        Err(reason) => {
            tracing::warn!("the LLM's answer is off the format ({reason}); the extracted notes are kept");
            return extracted.clone();
        }
    };
    let vocabulary = Vocabulary::of(transcript);
    // A small model skips or reorders steps: each item looks for its own
    // rewrite among all of them, not at its position, so one skipped step
    // does not leave every later item with its neighbour's.
    let mut unused: Vec<Option<&str>> = parsed.next_steps.iter().map(|step| Some(step.as_str())).collect();
    let action_items: Vec<ActionItem> = extracted
        .action_items
        .iter()
        .enumerate()
        .map(|(i, item)| match take_rewrite_of(item, i, &extracted.action_items, &mut unused) {
            Some(action) => grounded(item, action, &vocabulary),
            None => item.clone(),
        })
        .collect();
    for step in unused.into_iter().flatten() {
        tracing::info!(step, "a step the LLM wrote is dropped: it is about no extracted item");
    }
    // The meeting's day and people, as the request gave them, are as good
    // as said: a paragraph that opens "On Friday 31 October 2025, …" is
    // right, though the transcript never says its own date.
    let told = format!("{transcript}\n{}", prompt::meeting_facts(context));
    let (summary, summary_source) =
        match paragraph(&extracted.summary, &parsed.summary, &Vocabulary::of(&told), &Said::of(&told)) {
            Some(paragraph) => (paragraph, SummarySource::Llm),
            None => (extracted.summary.clone(), extracted.summary_source),
        };
    let next_steps = action_items.iter().map(ActionItem::line).collect();
    Summary { summary, next_steps, action_items, summary_source }
}

/// The action of the unused step that keeps every content word of `item`
/// (the one nearest its own position `at` when several do), the step taken
/// out of `unused`. A rewrite may reorder and add what the transcript
/// grounds, never drop what was said; nor is it several steps run into one
/// ("Send a sample first. Assign the team. Deliver the German first"),
/// which keeps the words of each, nor does it take in another of `items`.
fn take_rewrite_of(item: &ActionItem, at: usize, items: &[ActionItem], unused: &mut [Option<&str>]) -> Option<String> {
    let said = content(&item.action);
    let (taken, action) = unused
        .iter()
        .enumerate()
        .filter_map(|(j, step)| Some((j, action_of((*step)?, item))))
        .filter(|(_, action)| {
            let rewritten: HashSet<String> = content(action).into_iter().collect();
            !action.contains(". ")
                && rewritten.len() <= said.len() + ADDED_WORDS
                && said.iter().all(|w| rewritten.contains(w))
                && !runs_in_another(&item.action, action, items)
        })
        .min_by_key(|&(j, _)| j.abs_diff(at))?;
    unused[taken] = None;
    Some(action)
}

/// Whether `rewording` of `action` runs another of `items` in: it says the
/// other's verb, and what it adds holds two or more of the other's content
/// words, at least half of those it does not share with `action` ("Send the
/// draft accounts and set up a payment plan" for "Send the draft accounts",
/// when "Set up a payment plan" is a step of its own). A small model joins
/// neighbours so, and the email would say the second step twice. The object
/// spelled out is no other step, though another step names it: "Email the
/// signed agreement" beside "Sign the agreement".
pub(super) fn runs_in_another(action: &str, rewording: &str, items: &[ActionItem]) -> bool {
    let own: HashSet<String> = content(action).into_iter().collect();
    let added: HashSet<String> = content(rewording).into_iter().filter(|w| !own.contains(w)).collect();
    let said: HashSet<String> = words(rewording).collect();
    items.iter().filter(|other| other.action != action).any(|other| {
        let says_verb = words(&other.action).next().is_some_and(|verb| said.contains(&verb));
        let theirs: HashSet<String> = content(&other.action).into_iter().filter(|w| !own.contains(w)).collect();
        let taken = theirs.intersection(&added).count();
        says_verb && taken >= 2 && taken * 2 >= theirs.len()
    })
}

/// `item` with `action` as its action, when the transcript grounds it.
fn grounded(item: &ActionItem, action: String, vocabulary: &Vocabulary) -> ActionItem {
    let missing = vocabulary.missing(&action);
    if !missing.is_empty() {
        tracing::info!(
            action,
            ?missing,
            "a rewritten step says what the transcript does not; the extracted one is kept"
        );
        return item.clone();
    }
    if action.split_whitespace().count() < 2 {
        return item.clone();
    }
    ActionItem { action, ..item.clone() }
}

/// The action of a rewritten step: no "I will" before it, no deadline
/// after it (the item keeps its own), a capital first letter.
pub(super) fn action_of(step: &str, item: &ActionItem) -> String {
    let mut action = step.trim().trim_end_matches(['.', ';', '!']).to_string();
    if let Some(at) = action.find(" will ").filter(|&at| action[..at].split_whitespace().count() <= 3) {
        action = action[at + " will ".len()..].to_string();
    }
    if let Some(due) = &item.due_text
        // ASCII case only: a full lower-casing can change a byte count
        // ("İ" is longer lower-cased), and the index must fit `action`.
        && let Some(at) = action.to_ascii_lowercase().rfind(&due.to_ascii_lowercase())
    {
        action = format!("{}{}", &action[..at], &action[at + due.len()..]);
    }
    // A deadline taken from the middle leaves its comma alone ("today, send"
    // → " , send"), or beside another ("selected, by Friday, with" → ", ,").
    let action = action.split_whitespace().collect::<Vec<_>>().join(" ").replace(" ,", ",").replace(",,", ",");
    crate::summarise::text::capitalise(action.trim_start_matches(',').trim_end_matches(',').trim())
}

/// "15,000" as "15000", so a figure is one word as "fifteen thousand" is
/// one number.
fn without_thousands_separators(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let digit = |i: Option<usize>| i.and_then(|i| chars.get(i)).is_some_and(char::is_ascii_digit);
    chars
        .iter()
        .enumerate()
        .filter(|&(i, c)| !(*c == ',' && digit(i.checked_sub(1)) && digit(Some(i + 1))))
        .map(|(_, c)| *c)
        .collect()
}

/// Content words in a form that matches across inflections; numbers as
/// "#value".
pub(super) fn content(text: &str) -> Vec<String> {
    let text = without_thousands_separators(text);
    let all: Vec<String> = words(&text).collect();
    let lows: Vec<&str> = all.iter().map(String::as_str).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lows.len() {
        if let Some(n) = numbers::at(&lows, i).filter(|n| n.value >= 2.0 || n.ordinal) {
            out.push(format!("#{}", n.value));
            i += n.len;
            continue;
        }
        let word = lows[i];
        if word.chars().count() > 2 && !is_stopword(word) {
            out.push(root(word));
        }
        i += 1;
    }
    out
}

/// A crude root: "revised", "revising", "revises" and "revise" are one.
fn root(word: &str) -> String {
    let word = word.strip_suffix("'s").unwrap_or(word);
    for suffix in ["ing", "ed", "es", "s", "ly", "e"] {
        if let Some(stem) = word.strip_suffix(suffix)
            && stem.chars().count() >= 3
        {
            return stem.to_string();
        }
    }
    word.to_string()
}

#[cfg(test)]
mod tests {
    use time::Month;

    use super::super::paragraph::dates;
    use super::*;
    use crate::domain::action_item::Who;

    const TRANSCRIPT: &str = "Anna: I'll send you the revised proposal by Friday. It comes to fifteen thousand pounds. \
        Mike: Great. We'll book the workshop for the second week of May.";

    fn extracted() -> Summary {
        let items = vec![
            ActionItem {
                who: Who::Me,
                action: "Send the revised proposal".into(),
                due_text: Some("by Friday".into()),
                due_date: None,
            },
            ActionItem {
                who: Who::Client,
                action: "Book the workshop for the second week of May".into(),
                due_text: None,
                due_date: None,
            },
        ];
        Summary {
            summary: "It comes to fifteen thousand pounds.".into(),
            next_steps: items.iter().map(ActionItem::line).collect(),
            action_items: items,
            summary_source: SummarySource::Extractive,
        }
    }

    #[test]
    fn the_grounding_check_drops_an_invented_step_and_keeps_the_extracted_item() {
        let answer = "SUMMARY: The proposal comes to 15,000 pounds.\nNEXT STEPS:\n1. Send the revised proposal by Friday.\n\
            2. Schedule a celebration dinner with the marketing team.\n3. Hire two new developers.";
        let got = rewritten(&extracted(), answer, TRANSCRIPT, &context());
        assert_eq!(got.action_items, extracted().action_items, "the invented second step leaves the extracted one");
        assert_eq!(got.next_steps.len(), 2, "the added third step is dropped: {:?}", got.next_steps);
        assert!(
            !got.next_steps.iter().any(|s| s.contains("dinner") || s.contains("developers")),
            "{:?}",
            got.next_steps
        );
        assert_eq!(got.summary, "The proposal comes to 15,000 pounds.", "a grounded rewrite with its figure is kept");
    }

    #[test]
    fn a_deadline_is_cut_from_a_rewritten_action_whatever_letters_come_before_it() {
        let item = |due: &str| ActionItem {
            who: Who::Me,
            action: "Send the slides".into(),
            due_text: Some(due.into()),
            due_date: None,
        };
        assert_eq!(action_of("İlker will send the slides by Friday", &item("by Friday")), "Send the slides");
        assert_eq!(action_of("Send İlker's slides By Friday.", &item("by friday")), "Send İlker's slides");
        assert_eq!(
            action_of("Send the slides, by Friday, with the notes", &item("by Friday")),
            "Send the slides, with the notes",
            "the commas on each side of the deadline leave one"
        );
    }

    #[test]
    fn a_grounded_rewrite_replaces_the_action_and_keeps_who_and_when() {
        let answer = "SUMMARY: It comes to fifteen thousand pounds.\nNEXT STEPS:\n1. Anna will send the revised proposal by Friday.\n2. Book the workshop for the second week of May.";
        let got = rewritten(&extracted(), answer, TRANSCRIPT, &context());
        assert_eq!(got.action_items[0].action, "Send the revised proposal");
        assert_eq!(got.action_items[0].who, Who::Me);
        assert_eq!(got.next_steps[0], "I will send the revised proposal by Friday.");
    }

    #[test]
    fn a_step_the_model_wrote_out_of_order_still_rewrites_its_own_item() {
        let answer = "SUMMARY: It comes to fifteen thousand pounds.\nNEXT STEPS:\n1. Book the workshop in the second week of May.\n2. Send Mike the revised proposal.";
        let got = rewritten(&extracted(), answer, TRANSCRIPT, &context());
        assert_eq!(got.action_items[0].action, "Send Mike the revised proposal");
        assert_eq!(got.action_items[1].action, "Book the workshop in the second week of May");
    }

    #[test]
    fn a_rewrite_that_drops_words_the_item_said_is_not_taken() {
        let answer = "SUMMARY: It comes to fifteen thousand pounds.\nNEXT STEPS:\n1. Send the revised proposal.\n2. Book the workshop in May.";
        let got = rewritten(&extracted(), answer, TRANSCRIPT, &context());
        assert_eq!(got.action_items[1], extracted().action_items[1], "\"second week\" is gone from the rewrite");
    }

    #[test]
    fn steps_run_into_one_line_rewrite_no_item() {
        let answer = "SUMMARY: It comes to fifteen thousand pounds.\nNEXT STEPS:\n1. Book the workshop for the second \
            week of May. Send the revised proposal.\n2. Send the revised proposal and book the workshop with Mike and \
            Anna for the second week of May at fifteen thousand pounds.";
        let got = rewritten(&extracted(), answer, TRANSCRIPT, &context());
        assert_eq!(got.action_items, extracted().action_items, "{:?}", got.action_items);
    }

    /// The context of the test meeting: its people by name.
    fn context() -> MeetingContext {
        MeetingContext {
            me: Some("Anna Price".into()),
            client: Some("Mike Dunn".into()),
            ..MeetingContext::on(time::macros::date!(2025 - 05 - 02))
        }
    }

    /// A summary answer with `paragraph` and no steps.
    fn answer(paragraph: &str) -> String {
        format!("SUMMARY: {paragraph}\nNEXT STEPS: none")
    }

    #[test]
    fn a_paragraph_in_the_models_own_words_is_taken_when_its_figures_and_names_are_the_meetings() {
        let paragraph = "Anna Price and Mike Dunn went through the revised proposal, which comes to fifteen thousand pounds. \
            Mike will book the workshop for the second week of May.";
        let got = rewritten(&extracted(), &answer(paragraph), TRANSCRIPT, &context());
        assert_eq!(got.summary, paragraph);
        assert_eq!(got.summary_source, SummarySource::Llm);
    }

    #[test]
    fn a_paragraph_that_names_someone_or_somewhere_the_meeting_never_did_is_not_taken() {
        for invented in ["Sarah from finance", "the office in Leeds", "a call on Tuesday"] {
            let paragraph = format!(
                "The revised proposal comes to fifteen thousand pounds, and Mike books the workshop after {invented}."
            );
            let got = rewritten(&extracted(), &answer(&paragraph), TRANSCRIPT, &context());
            assert_eq!(
                (got.summary.as_str(), got.summary_source),
                (extracted().summary.as_str(), SummarySource::Extractive),
                "{invented}"
            );
        }
    }

    #[test]
    fn a_paragraph_that_loses_the_notes_figures_or_invents_some_is_not_taken() {
        for paragraph in [
            "The meeting went well, and everyone was happy with where things stand.",
            "It comes to twenty thousand pounds.",
        ] {
            assert_eq!(
                rewritten(&extracted(), &answer(paragraph), TRANSCRIPT, &context()).summary,
                extracted().summary,
                "{paragraph}"
            );
        }
        assert_eq!(rewritten(&extracted(), "I cannot help with that.", TRANSCRIPT, &context()), extracted());
    }

    #[test]
    fn a_paragraph_shorter_than_a_summary_is_not_taken_and_a_long_one_is_cut_at_a_sentence() {
        let extracted = Summary { summary: "It comes to fifteen thousand pounds. ".repeat(15), ..extracted() };
        let line = "It comes to fifteen thousand pounds, Mike.";
        assert_eq!(rewritten(&extracted, &answer(line), TRANSCRIPT, &context()).summary, extracted.summary);
        let sentence = "Anna sends the revised proposal, which comes to fifteen thousand pounds, to Mike by Friday.";
        let long = [sentence; 12].join(" ");
        // Past the parser, which refuses a paragraph that repeats itself.
        let got = paragraph(&extracted.summary, &long, &Vocabulary::of(TRANSCRIPT), &Said::of(TRANSCRIPT));
        assert_eq!(got, Some([sentence; 10].join(" ")), "ten sentences of fifteen words fit in 150");
    }

    #[test]
    fn a_day_is_a_date_only_beside_its_month_and_a_paragraph_that_moves_one_is_not_taken() {
        let may = |day| (day, Month::May);
        assert_eq!(dates("Due on the 1st of May, and the rest by the 14th."), HashSet::from([may(1)]));
        assert_eq!(
            dates("May 14th, or 3 June, or the twenty first of june"),
            HashSet::from([may(14), (3, Month::June), (21, Month::June)])
        );
        assert_eq!(dates("We may need 3 of them in the second week of May."), HashSet::new());
        let transcript =
            "Tax is due on the 1st of May, and we meet again before the 14th. It comes to fifteen thousand pounds.";
        let moved = "Tax of fifteen thousand pounds is due on May 1st, and Anna Price meets Mike Dunn before May 14th.";
        assert_eq!(rewritten(&extracted(), &answer(moved), transcript, &context()).summary, extracted().summary);
        let kept = "Tax of fifteen thousand pounds is due on May 1st, and Anna Price meets Mike Dunn before the 14th.";
        assert_eq!(rewritten(&extracted(), &answer(kept), transcript, &context()).summary, kept);
    }

    #[test]
    fn a_rewrite_that_runs_the_next_step_into_its_own_is_not_taken() {
        let mut items = extracted().action_items;
        items[1].action = "Book the workshop".into();
        let notes = Summary { action_items: items.clone(), ..extracted() };
        let answer = "SUMMARY: It comes to fifteen thousand pounds.\nNEXT STEPS:\n1. Send the revised proposal and book the \
            workshop by Friday.\n\
            2. Book the workshop.";
        let got = rewritten(&notes, answer, TRANSCRIPT, &context());
        assert_eq!(got.action_items[0].action, "Send the revised proposal", "the workshop is a step of its own");
        assert!(!runs_in_another("Send the revised proposal", "Send Mike the revised proposal", &items));
        let signing = [ActionItem { action: "Sign the contractor agreement".into(), ..items[0].clone() }];
        assert!(
            !runs_in_another("Email those", "Email the signed contractor agreement", &signing),
            "an object another step names is no step run in"
        );
    }

    #[test]
    fn the_meetings_day_and_people_as_the_request_gave_them_count_as_said() {
        let paragraph = "On Friday 2 May 2025, Anna Price and Mike Dunn went through the revised proposal, which \
            comes to fifteen thousand pounds. Mike will book the workshop for the second week of May.";
        let got = rewritten(&extracted(), &answer(paragraph), TRANSCRIPT, &context());
        assert_eq!((got.summary.as_str(), got.summary_source), (paragraph, SummarySource::Llm));
        let another_day = paragraph.replace("Friday 2 May 2025", "Monday 5 May 2025");
        let got = rewritten(&extracted(), &answer(&another_day), TRANSCRIPT, &context());
        assert_eq!(got.summary_source, SummarySource::Extractive, "a day the request did not give is not said");
    }

    #[test]
    fn a_name_in_the_plural_is_the_name_the_meeting_said() {
        let said = Said::of("We could lease the ThinkPad T14 instead.");
        assert!(said.names("T14s") && said.names("ThinkPad"));
        assert!(!said.names("T15s") && !said.names("Lenovo") && !said.names("S"));
    }
}

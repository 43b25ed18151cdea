//! The grounding check: what the LLM writes is kept only where the
//! transcript bears it out. A rewritten step whose content words are not
//! all in the transcript is dropped and the extractive item kept; each item
//! takes a step that keeps all its words, and other steps are dropped; a
//! rewritten summary keeps only its grounded sentences, and only when they
//! still carry the extractive summary's facts.

use std::collections::HashSet;

use super::prompt;
use crate::domain::action_item::ActionItem;
use crate::summarise::lexicon::is_stopword;
use crate::summarise::numbers;
use crate::summarise::sentences;
use crate::summarise::text::words;
use crate::summarise::{Summary, SummarySource};

/// Share of the extractive summary's content words a rewrite must keep:
/// names and decisions are words, and a small model drops them first.
const WORDS_KEPT: f32 = 0.7;
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
pub fn rewritten(extracted: &Summary, answer: &str, transcript: &str) -> Summary {
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
        .map(|(i, item)| match take_rewrite_of(item, i, &mut unused) {
            Some(action) => grounded(item, action, &vocabulary),
            None => item.clone(),
        })
        .collect();
    for step in unused.into_iter().flatten() {
        tracing::info!(step, "a step the LLM wrote is dropped: it is about no extracted item");
    }
    let summary = rewrite_summary(&extracted.summary, &parsed.summary, &vocabulary);
    let next_steps = action_items.iter().map(ActionItem::line).collect();
    let summary_source = if summary == extracted.summary { extracted.summary_source } else { SummarySource::Llm };
    Summary { summary, next_steps, action_items, summary_source }
}

/// The action of the unused step that keeps every content word of `item`
/// (the one nearest its own position `at` when several do), the step taken
/// out of `unused`. A rewrite may reorder and add what the transcript
/// grounds, never drop what was said; nor is it several steps run into one
/// ("Send a sample first. Assign the team. Deliver the German first"),
/// which keeps the words of each.
fn take_rewrite_of(item: &ActionItem, at: usize, unused: &mut [Option<&str>]) -> Option<String> {
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
        })
        .min_by_key(|&(j, _)| j.abs_diff(at))?;
    unused[taken] = None;
    Some(action)
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
fn action_of(step: &str, item: &ActionItem) -> String {
    let mut action = step.trim().trim_end_matches(['.', ';', '!']).to_string();
    if let Some(at) = action.find(" will ").filter(|&at| action[..at].split_whitespace().count() <= 3) {
        action = action[at + " will ".len()..].to_string();
    }
    if let Some(due) = &item.due_text
        && let Some(at) = action.to_lowercase().rfind(&due.to_lowercase())
    {
        action = format!("{}{}", &action[..at], &action[at + due.len()..]);
    }
    crate::summarise::text::capitalise(action.split_whitespace().collect::<Vec<_>>().join(" ").trim_end_matches(','))
}

/// The grounded sentences of the rewritten summary, when they keep every
/// figure and most words of the extracted summary and say something of
/// their own; else the extracted one (a copy with a sentence left out only
/// loses what that sentence said).
fn rewrite_summary(extracted: &str, rewrite: &str, vocabulary: &Vocabulary) -> String {
    let grounded: Vec<String> = sentences::split(rewrite)
        .into_iter()
        .filter(|sentence| {
            let missing = vocabulary.missing(sentence);
            if !missing.is_empty() {
                tracing::info!(sentence, ?missing, "a rewritten summary sentence is not in the transcript; dropped");
            }
            missing.is_empty()
        })
        .collect();
    let rewrite = grounded.join(" ");
    let said: HashSet<String> = content(&rewrite).into_iter().collect();
    let wanted: HashSet<String> = content(extracted).into_iter().collect();
    let figure_lost = wanted.iter().any(|w| w.starts_with('#') && !said.contains(w));
    let kept = wanted.intersection(&said).count();
    // Nothing added, something lost: a cut, not a rewrite.
    let only_cuts = said.is_subset(&wanted) && kept < wanted.len();
    if rewrite.split_whitespace().count() < 3
        || figure_lost
        || only_cuts
        || (kept as f32) < WORDS_KEPT * wanted.len() as f32
    {
        tracing::info!("the rewritten summary leaves out what the extracted one says; the extracted one is kept");
        return extracted.to_string();
    }
    rewrite
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
fn content(text: &str) -> Vec<String> {
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
        let got = rewritten(&extracted(), answer, TRANSCRIPT);
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
    fn a_grounded_rewrite_replaces_the_action_and_keeps_who_and_when() {
        let answer = "SUMMARY: It comes to fifteen thousand pounds.\nNEXT STEPS:\n1. Anna will send the revised proposal by Friday.\n2. Book the workshop for the second week of May.";
        let got = rewritten(&extracted(), answer, TRANSCRIPT);
        assert_eq!(got.action_items[0].action, "Send the revised proposal");
        assert_eq!(got.action_items[0].who, Who::Me);
        assert_eq!(got.next_steps[0], "I will send the revised proposal by Friday.");
    }

    #[test]
    fn a_step_the_model_wrote_out_of_order_still_rewrites_its_own_item() {
        let answer = "SUMMARY: It comes to fifteen thousand pounds.\nNEXT STEPS:\n1. Book the workshop in the second week of May.\n2. Send Mike the revised proposal.";
        let got = rewritten(&extracted(), answer, TRANSCRIPT);
        assert_eq!(got.action_items[0].action, "Send Mike the revised proposal");
        assert_eq!(got.action_items[1].action, "Book the workshop in the second week of May");
    }

    #[test]
    fn a_rewrite_that_drops_words_the_item_said_is_not_taken() {
        let answer = "SUMMARY: It comes to fifteen thousand pounds.\nNEXT STEPS:\n1. Send the revised proposal.\n2. Book the workshop in May.";
        let got = rewritten(&extracted(), answer, TRANSCRIPT);
        assert_eq!(got.action_items[1], extracted().action_items[1], "\"second week\" is gone from the rewrite");
    }

    #[test]
    fn steps_run_into_one_line_rewrite_no_item() {
        let answer = "SUMMARY: It comes to fifteen thousand pounds.\nNEXT STEPS:\n1. Book the workshop for the second \
            week of May. Send the revised proposal.\n2. Send the revised proposal and book the workshop with Mike and \
            Anna for the second week of May at fifteen thousand pounds.";
        let got = rewritten(&extracted(), answer, TRANSCRIPT);
        assert_eq!(got.action_items, extracted().action_items, "{:?}", got.action_items);
    }

    #[test]
    fn a_summary_that_keeps_the_figure_but_drops_who_does_what_is_not_taken() {
        let extracted = Summary {
            summary: "Anna sends the revised proposal. It comes to fifteen thousand pounds. Mike books the workshop."
                .into(),
            ..extracted()
        };
        let answer = "SUMMARY: It comes to fifteen thousand pounds in total.\nNEXT STEPS: none";
        assert_eq!(rewritten(&extracted, answer, TRANSCRIPT).summary, extracted.summary);
        let answer = "SUMMARY: Anna sends Mike the revised proposal, which comes to fifteen thousand pounds, and Mike books the workshop.\nNEXT STEPS: none";
        assert!(
            rewritten(&extracted, answer, TRANSCRIPT).summary.starts_with("Anna sends Mike"),
            "a rewrite that says it all is taken"
        );
    }

    #[test]
    fn a_copy_of_the_summary_with_a_sentence_left_out_is_not_taken() {
        let extracted = Summary {
            summary: "It comes to fifteen thousand pounds. Anna sends the revised proposal to Mike by Friday, and \
                Mike books the workshop for the second week of May."
                .into(),
            ..extracted()
        };
        let answer = "SUMMARY: It comes to fifteen thousand pounds. Anna sends the revised proposal to Mike by \
            Friday.\nNEXT STEPS:\n1. Send the revised proposal.";
        assert_eq!(rewritten(&extracted, answer, TRANSCRIPT).summary, extracted.summary);
    }

    #[test]
    fn a_summary_that_loses_its_figures_or_invents_some_is_not_taken() {
        let answer = "SUMMARY: The meeting went well and everyone was happy.\nNEXT STEPS: none";
        assert_eq!(rewritten(&extracted(), answer, TRANSCRIPT).summary, extracted().summary);
        let answer = "SUMMARY: It comes to twenty thousand pounds.\nNEXT STEPS: none";
        assert_eq!(rewritten(&extracted(), answer, TRANSCRIPT).summary, extracted().summary);
        assert_eq!(rewritten(&extracted(), "I cannot help with that.", TRANSCRIPT), extracted());
    }
}

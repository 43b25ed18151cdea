//! A commitment's words as an action in the imperative, its deadline apart:
//! "I'll send you the updated floor plan by Tuesday" → "Send the updated
//! floor plan".

use super::lexicon::{COURTESY, DANGLING, GIVING_VERBS, NOT_OBJECTS, RECEIVERS, is_action_verb};
use super::text::{capitalise, is_filler};
use super::tokens::Tok;

/// Longest action, in words.
const MAX_WORDS: usize = 28;

/// The action of `toks[verb..end]` without the words `skip` (the
/// deadline), in the imperative.
pub fn imperative(toks: &[Tok], verb: usize, end: usize, skip: Option<(usize, usize)>) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut i = verb;
    while i < end.min(toks.len()) && words.len() < MAX_WORDS {
        if skip.is_some_and(|(from, to)| (from..to).contains(&i)) {
            i = skip.map_or(i + 1, |(_, to)| to);
            continue;
        }
        let t = &toks[i];
        if COURTESY.phrases().any(|p| p.iter().enumerate().all(|(k, w)| toks.get(i + k).is_some_and(|t| t.is(w)))) {
            break;
        }
        if is_filler(&t.low) || (t.is("like") && toks.get(i + 1).is_some_and(|n| n.is_any(&["a", "the", "some"]))) {
            i += 1;
            continue;
        }
        let word = if i == verb {
            base_form(&t.low)
        } else if t.is("i") {
            "I".to_string()
        } else {
            t.orig.clone()
        };
        // "send you the plan": the receiver goes, the object stays.
        if i == verb + 1
            && toks[verb].is_in(&GIVING_VERBS)
            && let Some(len) = receiver_at(toks, i, end)
            && takes_object(toks, i + len, end)
        {
            i += len;
            continue;
        }
        let mark = t.mark.filter(|m| matches!(m, ',' | ';' | ':')).filter(|_| i + 1 < end);
        words.push(match mark {
            Some(mark) => format!("{word}{mark}"),
            None => word,
        });
        i += 1;
    }
    while words.last().is_some_and(|w| DANGLING.has(&w.trim_end_matches([',', ';', ':']).to_lowercase())) {
        words.pop();
    }
    if let Some(last) = words.last_mut() {
        *last = last.trim_end_matches([',', ';', ':']).to_string();
    }
    capitalise(&words.join(" "))
}

/// How many words from `at` name who receives ("you", "you guys"): the
/// longest receiver there, if any.
fn receiver_at(toks: &[Tok], at: usize, end: usize) -> Option<usize> {
    let said = |p: &[&str]| at + p.len() <= end && p.iter().enumerate().all(|(k, w)| toks[at + k].is(w));
    RECEIVERS.phrases().filter(|p| said(p)).map(<[&str]>::len).max()
}

/// Whether an object follows at `at`: a word that is not a preposition or
/// the end ("send you the plan", not "send you over").
fn takes_object(toks: &[Tok], at: usize, end: usize) -> bool {
    at < end && toks.get(at).is_some_and(|t| !t.is_in(&NOT_OBJECTS))
}

/// The verb's base form: "sending" → "send", "sharing" → "share".
fn base_form(verb: &str) -> String {
    let Some(stem) = verb.strip_suffix("ing").filter(|s| s.len() >= 2) else { return verb.to_string() };
    let undoubled = stem.strip_suffix(|c: char| stem.len() >= 3 && stem.ends_with(c) && !"aeiouls".contains(c));
    [format!("{stem}e"), stem.to_string(), undoubled.map(str::to_string).unwrap_or_default()]
        .into_iter()
        .find(|form| is_action_verb(form) || super::lexicon::is_general_verb(form))
        .unwrap_or_else(|| verb.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::summarise::tokens::tokenize;

    fn action(sentence: &str, verb: usize, skip: Option<(usize, usize)>) -> String {
        let toks = tokenize(sentence);
        imperative(&toks, verb, toks.len(), skip)
    }

    #[test]
    fn an_action_reads_as_an_imperative_without_its_deadline() {
        assert_eq!(
            action(
                "I'll send you the updated floor plan with the two extra meeting rooms by Tuesday.",
                2,
                Some((14, 16))
            ),
            "Send the updated floor plan with the two extra meeting rooms"
        );
        assert_eq!(action("I'm sending the contract over tonight, okay?", 2, Some((6, 7))), "Send the contract over");
        assert_eq!(
            action("we'll um get back to you on the pricing if that works", 3, None),
            "Get back to you on the pricing"
        );
        assert_eq!(action("I'll send them over as well.", 2, None), "Send them over");
        assert_eq!(action("I'll send you guys the plan.", 2, None), "Send the plan");
        assert_eq!(action("I'll send you both over.", 2, None), "Send you both over");
        assert_eq!(action("let's book the room for", 1, None), "Book the room");
    }
}

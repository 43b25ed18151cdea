//! Who a clause says acts: a pronoun, a name ("Sarah", "Dev Malik"), a
//! group ("the finance team", "our lawyers"), with where they work said
//! between the name and the modal ("Priya from finance will…"); or a
//! thing, when a noun phrase acts ("the price will go up").

use super::clauses::{Subject, modal};
use super::lexicon::{NOT_NAMES, NOT_SUBJECTS, PEOPLE, is_function_word};
use super::tokens::Tok;

/// Words that open a noun phrase: "the finance team", "our lawyers".
pub(super) const DETERMINERS: &[&str] = &["the", "our", "your", "their", "my", "his", "her", "this", "that"];

/// Who the words at `at` name as acting, and how many words that takes.
pub fn subject_at(toks: &[Tok], at: usize) -> Option<(Subject, usize)> {
    let word = toks.get(at)?;
    let subject = match word.low.as_str() {
        "i" => Subject::I,
        "we" => Subject::We,
        "you" => Subject::You,
        "he" | "she" | "they" => Subject::Other,
        _ => return named(toks, at),
    };
    Some((subject, 1))
}

/// "Sarah", "Mike and I"... a name or a group: "the finance team", "our
/// lawyers", "Sarah's team"; else a thing when a noun phrase acts.
fn named(toks: &[Tok], at: usize) -> Option<(Subject, usize)> {
    let word = &toks[at];
    if is_no_name(word) || word.is_any(DETERMINERS) || !word.low.chars().all(|c| c.is_alphabetic() || c == '\'') {
        return None;
    }
    // "the finance team", "our legal people", "Sarah's team"; "Dev Malik".
    let mut len = 1;
    while toks.get(at + len).is_some_and(|t| t.is_in(&PEOPLE) || is_surname(word, t))
        && toks[at + len - 1].mark.is_none()
        && len < 3
    {
        len += 1;
    }
    let name = super::tokens::text(toks, at, at + len);
    let capitalised = word.orig.starts_with(|c: char| c.is_uppercase());
    let group = toks[at..at + len].iter().any(|t| t.is_in(&PEOPLE));
    let len = len + affiliation(toks, at + len);
    if capitalised || group || word.low.ends_with("'s") {
        return Some((Subject::Named(name), len));
    }
    // Lower-case speech: a single unknown word before a modal may be a
    // name ("sarah will send…"); the classifier weighs it as a thing.
    Some((Subject::Thing, len))
}

/// Whether `word` can be no one's name.
fn is_no_name(word: &Tok) -> bool {
    word.is_any(NOT_NAMES) || word.is_in(&NOT_SUBJECTS) || is_function_word(&word.low)
}

/// Whether `next` continues the capitalised name `first` ("Dev Malik").
fn is_surname(first: &Tok, next: &Tok) -> bool {
    let capitalised = |t: &Tok| t.orig.starts_with(|c: char| c.is_uppercase());
    capitalised(first) && capitalised(next) && next.low.chars().all(char::is_alphabetic) && !is_no_name(next)
}

/// "from finance", "at Hollins": where a named person works, said between
/// the name and the modal ("Priya from finance will…"); or who they are,
/// between commas ("Tomasz, our IT lead, will…"); its length.
fn affiliation(toks: &[Tok], at: usize) -> usize {
    let appositive = at > 0 && toks[at - 1].mark == Some(',') && toks.get(at).is_some_and(|t| t.is_any(DETERMINERS));
    if !appositive && !toks.get(at).is_some_and(|t| t.is_any(&["from", "at", "in", "on"]) && t.mark.is_none()) {
        return 0;
    }
    (2..=4)
        .find(|&len| {
            let words = &toks[at..(at + len).min(toks.len())];
            let Some((last, inner)) = words.split_last() else { return false };
            let closed = if appositive { last.mark == Some(',') } else { last.mark.is_none() };
            closed
                && inner.iter().all(|t| t.mark.is_none())
                && words.iter().all(|t| !t.is_any(&["i", "we", "you"]))
                && modal(toks, at + len).is_some()
        })
        .unwrap_or(0)
}

/// A subject with its determiner: "the finance team" starting at "the".
pub fn subject_with_determiner(toks: &[Tok], at: usize) -> Option<(Subject, usize)> {
    if toks.get(at).is_some_and(|t| t.is_any(DETERMINERS)) && toks.get(at + 1).is_some_and(|t| t.mark.is_none()) {
        let (subject, len) = named(toks, at + 1)?;
        return match subject {
            Subject::Named(name) => Some((Subject::Named(format!("{} {name}", toks[at].orig)), len + 1)),
            other => Some((other, len + 1)),
        };
    }
    subject_at(toks, at)
}

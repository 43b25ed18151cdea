//! From candidate clauses to action items: each candidate with its
//! deadline and features, then, once the classifier has scored them, the
//! commitments as items, by the named rules of `merge`: coordinated verbs
//! without an object of their own folded into the clause before ("…and
//! come back to you by Monday"), a request merged with the reply that takes
//! it up, a deadline said after ("you'll have them Thursday", "…, and let
//! you know by Wednesday") given to its commitment, a promise to report
//! back on it folded into it; and a recap merged with what it repeats.

mod drafts;
mod merge;
mod signs;

use super::clauses::{Clause, clauses};
use super::due::{self, Due};
use super::features::{self, Features};
use super::meeting::{Meeting, MeetingContext};
use super::run_on;
use super::tokens::{self, Tok};
use crate::domain::action_item::ActionItem;

/// A clause that may be a commitment.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub sentence: usize,
    pub clause: Clause,
    pub due: Option<Due>,
    pub features: Features,
}

/// Words of context before a clause that its embedding reads.
const CONTEXT_WORDS: usize = 6;
/// How many sentences back a "by then" may find the date it means.
const THEN_REACH: usize = 2;

/// Every candidate clause of the meeting, in order.
pub fn candidates(meeting: &Meeting, context: &MeetingContext) -> Vec<Candidate> {
    let mut found = Vec::new();
    for (s, sentence) in meeting.sentences.iter().enumerate() {
        for clause in clauses(&sentence.toks) {
            let due = due::find(&sentence.toks, clause.verb, clause.end, context.date).or_else(|| {
                let (start, end) = due::by_then(&sentence.toks, clause.verb, clause.end)?;
                Some(Due { start, end, ..said_before(meeting, s, clause.verb, context)? })
            });
            let features =
                features::of(meeting, s, &clause, due.is_some(), due.as_ref().is_some_and(|d| d.date.is_some()));
            // Not read by the classifier: a deadline after a cut is less
            // sure than one said in the clause, and only fills a gap.
            let due = due.or_else(|| run_on::deadline(meeting, s, clause.end, context.date));
            found.push(Candidate { sentence: s, clause, due, features });
        }
    }
    found
}

/// The last dated deadline said before word `at` of sentence `s`, in it
/// or the few before: what a "by then" there means.
fn said_before(meeting: &Meeting, s: usize, at: usize, context: &MeetingContext) -> Option<Due> {
    let dated = |toks: &[Tok], to: usize| due::find(toks, 0, to, context.date).filter(|d| d.date.is_some());
    dated(&meeting.sentences[s].toks, at)
        .or_else(|| (s.saturating_sub(THEN_REACH)..s).rev().find_map(|b| dated(&meeting.sentences[b].toks, usize::MAX)))
}

/// The text whose embedding stands for candidate `i`: `None` when it is
/// its sentence's only candidate (the sentence's own embedding serves),
/// else the clause with its subject and a few words before.
pub fn embedding_text(meeting: &Meeting, candidates: &[Candidate], i: usize) -> Option<String> {
    let c = &candidates[i];
    let alone = candidates.iter().filter(|o| o.sentence == c.sentence).count() == 1;
    if alone {
        return None;
    }
    let toks = &meeting.sentences[c.sentence].toks;
    let from = c.clause.start.saturating_sub(CONTEXT_WORDS);
    let head = tokens::text(toks, from, c.clause.head);
    Some(format!("{head} {}", tokens::text(toks, c.clause.verb, c.clause.end)).trim().to_string())
}

/// The action items of the candidates `probabilities` says are
/// commitments (at least `threshold`).
pub fn items(
    meeting: &Meeting,
    context: &MeetingContext,
    candidates: &[Candidate],
    probabilities: &[f32],
    threshold: f32,
) -> Vec<ActionItem> {
    let (drafts, _) = merge::build(meeting, context, candidates, probabilities, threshold);
    drafts::finish(drafts::merge_repeats(drafts))
}

#[cfg(test)]
mod tests {
    use time::{Date, Month};

    use super::*;

    #[test]
    fn by_then_is_the_date_said_just_before() {
        let meeting = Meeting::new(
            "Could you get us VPN access by Wednesday the 18th? Four accounts. \
             Yes, I'll sort the VPN access for your people by then. And the budget by then, whenever.",
        );
        let date = Date::from_calendar_date(2026, Month::March, 11).unwrap();
        let found = candidates(&meeting, &MeetingContext::on(date));
        let sort = found
            .iter()
            .find(|c| {
                c.clause.verb < meeting.sentences[c.sentence].toks.len()
                    && meeting.sentences[c.sentence].toks[c.clause.verb].is("sort")
            })
            .unwrap();
        let due = sort.due.as_ref().unwrap();
        assert_eq!(
            (due.text.as_str(), due.date),
            ("by Wednesday the 18th", Date::from_calendar_date(2026, Month::March, 18).ok())
        );
        let far = Meeting::new("Send it by Friday. One. Two. Three. I'll sort the access by then.");
        let found = candidates(&far, &MeetingContext::on(date));
        assert!(
            found.iter().filter(|c| c.sentence == 4).all(|c| c.due.is_none()),
            "a date said long before is not meant"
        );
    }

    /// The items of an unpunctuated `run` on Wednesday 11 March 2026, when
    /// the classifier takes only the clauses whose verb is one of `sure`.
    fn items_of_run(run: &str, sure: &[&str]) -> Vec<ActionItem> {
        let meeting = Meeting::new(run);
        let context = MeetingContext::on(Date::from_calendar_date(2026, Month::March, 11).unwrap());
        let found = candidates(&meeting, &context);
        let verb = |c: &Candidate| meeting.sentences[c.sentence].toks.get(c.clause.verb).map(|t| t.low.clone());
        let p: Vec<f32> =
            found.iter().map(|c| f32::from(verb(c).is_some_and(|v| sure.contains(&v.as_str())))).collect();
        items(&meeting, &context, &found, &p, 0.5)
    }

    #[test]
    fn a_delivery_promised_after_a_cut_in_the_run_dates_the_clause_before_it() {
        let run = "it works out about fifteen percent more expensive overall then it's not for us we've got the cash \
                   this year and the board prefers to own equipment let's just buy them agreed buying fine then let \
                   me put together a quote for both models with the docks and without and you'll have it by thursday \
                   i already checked stock this morning and both models are available in the numbers you need";
        assert!(
            Meeting::new(run).sentences.iter().any(|s| s.text.ends_with("with the docks")),
            "the splitter cuts the run inside the promise"
        );
        let listed = items_of_run(run, &["have"]);
        assert_eq!(listed.len(), 1, "{listed:?}");
        assert_eq!(listed[0].action, "Put together a quote for both models with the docks");
        assert_eq!(listed[0].due_text.as_deref(), Some("by thursday"));
        let recap = run.replace("and without and you'll have it", "and without so to sum up you'll have it");
        assert!(
            items_of_run(&recap, &["have"]).iter().all(|i| !i.action.contains("quote")),
            "a recap after the cut is a thought of its own"
        );
    }
}

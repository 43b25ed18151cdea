//! From candidate clauses to action items: each candidate with its
//! deadline and features, then, once the classifier has scored them, the
//! commitments as items: coordinated verbs without an object of their own
//! folded into the clause before ("…and come back to you by Monday"), a
//! request merged with the reply that takes it up, a deadline said after
//! ("you'll have them Thursday", "…, and let you know by Wednesday") given to
//! its commitment, a promise to report back on it folded into it, and a
//! recap merged with what it repeats.

use std::collections::HashSet;

use super::action::imperative;
use super::clauses::{Clause, Form, Subject, clauses};
use super::due::{self, Due};
use super::features::{self, Features};
use super::lexicon::is_function_word;
use super::meeting::{Meeting, MeetingContext};
use super::run_on;
use super::text::terms;
use super::tokens::{self, Tok};
use super::who;
use crate::domain::action_item::{ActionItem, Who};

/// A clause that may be a commitment.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub sentence: usize,
    pub clause: Clause,
    pub due: Option<Due>,
    pub features: Features,
}

/// Words that make a reply more than a yes: "sure, and I'll also…".
const ADDING: &[&str] = &["also", "too", "another", "additionally", "plus"];
/// Most items an email lists.
const MAX_ITEMS: usize = 12;
/// Words that open a reason said in passing.
const REASONS: &[&str] = &["because", "since", "as"];
/// Words of context before a clause that its embedding reads.
const CONTEXT_WORDS: usize = 6;
/// Two items whose actions share this share of their words are one.
const SAME_ACTION: f32 = 0.5;
/// How many sentences after a commitment may still give its deadline or
/// take up a request.
const FOLLOW_UP_REACH: usize = 3;
/// The words of a promise to report back on a commitment: "get back to
/// you", "let you know", "ring you", "you'll have an answer", "you'll hear
/// from me".
const REPORT_BACK: &[&str] = &[
    "get", "come", "back", "let", "know", "call", "ring", "phone", "email", "hear", "have", "answer", "answers",
    "update", "word", "view",
];
/// How many sentences after a commitment its report-back may come: the same
/// one or the next.
const REPORT_BACK_REACH: usize = 1;

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

/// An item in the making.
struct Draft {
    sentence: usize,
    score: f32,
    who: Who,
    action: String,
    due: Option<Due>,
    words: HashSet<String>,
}

impl Draft {
    /// Folds in a promise to report back on it: its deadline when the
    /// draft has none, and the thing the listener will receive, if named.
    fn take_report(&mut self, thing: Option<String>, due: &Option<Due>) {
        if let Some(thing) = thing {
            self.action = format!("{}, and send {thing}", self.action.trim_end_matches([',', ';']));
            self.words.extend(terms(&thing));
        }
        if self.due.is_none() {
            self.due.clone_from(due);
        }
    }
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
    let mut drafts: Vec<Draft> = Vec::new();
    // Which draft each candidate became part of, for its conjuncts.
    let mut made: Vec<Option<usize>> = vec![None; candidates.len()];
    for (i, c) in candidates.iter().enumerate() {
        let toks = &meeting.sentences[c.sentence].toks;
        let accepted = probabilities[i] >= threshold;
        let vague = c.features.object_words == 0.0;
        // "I'll check with HMRC whether …, and let you know by Wednesday":
        // a deadline said in a later clause of the sentence is the
        // commitment's too, whatever becomes of that clause.
        if c.due.is_some()
            && let Some(d) = made_before(meeting, candidates, &made, i)
            && drafts[d].due.is_none()
        {
            drafts[d].due.clone_from(&c.due);
        }
        // "…and come back to you by Monday", "draft the policy and send it
        // to Fiona": part of the clause before.
        if c.clause.conjunct
            && (vague || points_back(toks, c))
            && i > 0
            && candidates[i - 1].sentence == c.sentence
            && let Some(d) = made[i - 1]
        {
            let draft = &mut drafts[d];
            let more = imperative(toks, c.clause.verb, c.clause.end, c.due.as_ref().map(|d| (d.start, d.end)));
            if !more.is_empty() {
                draft.action = format!("{} and {}", draft.action, lower_first(&more));
            }
            if draft.due.is_none() {
                draft.due.clone_from(&c.due);
            }
            made[i] = Some(d);
            continue;
        }
        // "…you won't outgrow it yes I'll send it over on Monday": a yes in
        // the middle of an unpunctuated run takes the request before up as
        // surely as one that opens a sentence, which is all the classifier
        // reads.
        let yes_in_run = c.clause.form == Form::Future
            && matches!(c.clause.subject, Subject::I | Subject::We)
            && c.clause.start > 0
            && toks[c.clause.start - 1].is_any(&["yes", "sure"]);
        let request = (!accepted && yes_in_run).then(|| request_before(meeting, candidates, i, !vague)).flatten();
        if (!accepted && request.is_none()) || courtesy(toks, c) {
            continue;
        }
        // "Sure, I'll send them tonight", "Sure, I'll ask HR": the request
        // before, taken up (not "and I'll also…", which is more).
        let answers = !vague && (yes_in_run || features::takes_up(toks)) && !toks.iter().any(|t| t.is_any(ADDING));
        if let Some(j) =
            request.or_else(|| (vague || answers).then(|| request_before(meeting, candidates, i, answers)).flatten())
        {
            let request = &candidates[j];
            let who = who::of(meeting, c.sentence, &c.clause, None, context);
            let who = if who == Who::Unattributed {
                who::of(meeting, request.sentence, &request.clause, Some(c.sentence), context)
            } else {
                who
            };
            let due = c.due.clone().or_else(|| request.due.clone());
            let rtoks = &meeting.sentences[request.sentence].toks;
            let action = imperative(
                rtoks,
                request.clause.verb,
                request.clause.end,
                request.due.as_ref().map(|d| (d.start, d.end)),
            );
            match made[j] {
                Some(d) => {
                    drafts[d].who = who;
                    if drafts[d].due.is_none() {
                        drafts[d].due = due;
                    }
                    made[i] = Some(d);
                }
                None => {
                    made[i] = Some(drafts.len());
                    drafts.push(draft(request.sentence, probabilities[i], who, action, due));
                }
            }
            continue;
        }
        // "You'll have them Thursday", "I'll do it tonight": the deadline of
        // the commitment before.
        if (vague || vague_before_deadline(toks, c))
            && c.due.is_some()
            && let Some(d) = drafts.iter().rposition(|d| c.sentence - d.sentence <= FOLLOW_UP_REACH && d.due.is_none())
        {
            drafts[d].due.clone_from(&c.due);
            made[i] = Some(d);
            continue;
        }
        // "…, and get back to you by Friday", "I'll have an answer for you
        // on Monday": the promise to report on the commitment just made is
        // part of it, not a step of its own.
        if reports_back(toks, c) {
            let same_sentence = drafts.iter().rposition(|d| d.sentence == c.sentence);
            // "Let me put the numbers together for you, and you'll have them
            // Thursday": promising to report makes the clause before a
            // commitment, though the classifier doubted it; in its sentence,
            // or before a cut the splitter made in the run. Not past a clause
            // that became a step: the report is on that one.
            let cut = run_on::goes_on(meeting, c.sentence, c.clause.start);
            let joined = |j: usize| {
                let s = candidates[j].sentence;
                s == c.sentence || (cut && s + 1 == c.sentence)
            };
            let doubted = (0..i)
                .rev()
                .take_while(|&j| joined(j))
                .find(|&j| {
                    let d = &candidates[j];
                    made[j].is_some()
                        || (!d.clause.negated && d.clause.subject != Subject::Thing && d.features.object_words > 0.0)
                })
                .filter(|&j| made[j].is_none());
            let before = drafts.iter().rposition(|d| c.sentence - d.sentence <= REPORT_BACK_REACH);
            if let Some(d) = same_sentence.or(if doubted.is_some() { None } else { before }) {
                drafts[d].take_report(received_thing(toks, c), &c.due);
                made[i] = Some(d);
                continue;
            }
            if let Some(j) = doubted
                && let Some(mut promoted) = commitment(meeting, context, &candidates[j], probabilities[i])
            {
                promoted.take_report(received_thing(toks, c), &c.due);
                made[j] = Some(drafts.len());
                made[i] = Some(drafts.len());
                drafts.push(promoted);
                continue;
            }
        }
        if let Some(made_now) = commitment(meeting, context, c, probabilities[i]) {
            made[i] = Some(drafts.len());
            drafts.push(made_now);
        }
    }
    let drafts = merge_repeats(drafts);
    finish(drafts)
}

/// What the listener is promised to receive: "you'll have the figures on
/// Monday", "you'll get it in writing", "you'll hear from me".
const RECEIVE: &[&str] = &["have", "get", "hear", "receive"];
/// Words that name nothing new the listener receives beside [`POINTERS`]
/// (the thing just promised): all of it, or how it comes ("in writing").
const NO_NEW_THING: &[&str] = &["everything", "all", "writing"];
/// Words that point back at something already said: "it", "them".
const POINTERS: &[&str] = &["it", "them", "that", "this", "these", "those"];

/// Whether the clause only promises to report back: every word of it, but
/// for its deadline and the function words, is one of [`REPORT_BACK`]; or
/// it tells the listener they will receive what the clause before makes
/// ("let me work out the costs, and you'll have the figures on Monday").
fn reports_back(toks: &[Tok], c: &Candidate) -> bool {
    if receives(toks, c) {
        return true;
    }
    let outside_due = |k: &usize| c.due.as_ref().is_none_or(|d| *k < d.start || *k >= d.end);
    // What follows "by", "before", "until" is when: "get back to you
    // before we meet on the 14th".
    let mut words = (c.clause.verb..c.clause.end.min(toks.len()))
        .take_while(|&k| k == c.clause.verb || !toks[k].is_any(&["by", "before", "until", "till"]))
        .filter(outside_due)
        .map(|k| &toks[k])
        .filter(|t| !is_function_word(&t.low))
        .peekable();
    words.peek().is_some() && words.all(|t| t.is_any(REPORT_BACK))
}

/// Verbs that, with "you" and a way, lead the listener somewhere in the
/// meeting itself: "I'll walk you through the headlines", "let me take you
/// round", "I'll let you get back to the shop".
const GUIDE: &[&str] = &["walk", "take", "show", "let", "see"];
const WAYS: &[&str] = &["through", "round", "around", "out", "to", "go", "get", "back", "off"];

/// Whether `c` is a courtesy of the meeting rather than work after it:
/// guiding the listener ("walk you to the lift", "let you get back to
/// your day") or keeping it short ("I'll keep this quick"); but for taking
/// leave, one with a deadline ("take you through the plan next week") is
/// work.
fn courtesy(toks: &[Tok], c: &Candidate) -> bool {
    let word = |k: usize| toks.get(c.clause.verb + k).map_or("", |t| t.low.as_str());
    let guides = GUIDE.contains(&word(0)) && word(1) == "you" && WAYS.contains(&word(2));
    let brief = word(0) == "keep" && matches!(word(1), "this" | "it") && matches!(word(2), "quick" | "short" | "brief");
    // "I'll let you get back to the shop before the rush" takes leave,
    // whatever time it names.
    let leave = guides && word(0) == "let";
    // A deadline the clause says itself: one carried over a cut in the run
    // belongs to whatever came next as often.
    let dated = c.due.as_ref().is_some_and(Due::said_in_clause);
    leave || (!dated && (guides || brief))
}

/// Whether the object of `c` is the thing the clause before made: "…and
/// send it to Fiona", "…and pass them on".
fn points_back(toks: &[Tok], c: &Candidate) -> bool {
    toks.get(c.clause.verb + 1).is_some_and(|t| t.is_any(POINTERS))
}

/// Whether `c`, in a run without marks, only points back at something
/// before its deadline: what follows the deadline there is as often the
/// next thought ("I'll do it tonight ken knows where the fuse box is").
fn vague_before_deadline(toks: &[Tok], c: &Candidate) -> bool {
    tokens::unmarked(toks)
        && c.due.as_ref().is_some_and(|d| {
            let object = &toks[c.clause.verb + 1..d.start.max(c.clause.verb + 1)];
            (c.clause.verb + 1..c.clause.end).contains(&d.start)
                && object.iter().any(|t| t.is_any(POINTERS))
                && object.iter().all(|t| !features::is_content(&t.low))
        })
}

/// Whether `c` tells the listener they will receive something.
fn receives(toks: &[Tok], c: &Candidate) -> bool {
    c.clause.subject == Subject::You
        && c.clause.form == Form::Future
        && toks.get(c.clause.verb).is_some_and(|t| t.is_any(RECEIVE))
        && !toks.get(c.clause.verb + 1).is_some_and(|t| t.is("to"))
}

/// What `c` says the listener will receive, when it names it rather than
/// pointing back ("a proper cost comparison", not "it" or "them"): the
/// commitment it is folded into then ends by sending it, so the item keeps
/// the thing the client waits for.
fn received_thing(toks: &[Tok], c: &Candidate) -> Option<String> {
    if !receives(toks, c) || toks[c.clause.verb].is("hear") {
        return None;
    }
    let end = c.due.as_ref().map_or(c.clause.end, |d| d.start.max(c.clause.verb + 1)).min(c.clause.end);
    let named = (c.clause.verb + 1..end.min(toks.len()))
        .map(|k| &toks[k])
        .any(|t| !is_function_word(&t.low) && !t.is_any(REPORT_BACK) && !t.is_any(POINTERS) && !t.is_any(NO_NEW_THING));
    named.then(|| tokens::text(toks, c.clause.verb + 1, end))
}

/// Candidate `c` as an item of its own: who does it, its action in the
/// imperative, its deadline; `None` when the action is under two words.
fn commitment(meeting: &Meeting, context: &MeetingContext, c: &Candidate, score: f32) -> Option<Draft> {
    let toks = &meeting.sentences[c.sentence].toks;
    let replier = meeting.reply(c.sentence).filter(|_| c.features.accepted > 0.0);
    let who = who::of(meeting, c.sentence, &c.clause, replier, context);
    let action = imperative(toks, c.clause.verb, c.clause.end, c.due.as_ref().map(|d| (d.start, d.end)));
    (action.split_whitespace().count() >= 2).then(|| draft(c.sentence, score, who, action, c.due.clone()))
}

/// The draft the clause before candidate `i` in its sentence became,
/// passing over a reason said between them that became none ("I'll ask Raj
/// to join, because he'll be managing them, and confirm by Friday").
fn made_before(meeting: &Meeting, candidates: &[Candidate], made: &[Option<usize>], i: usize) -> Option<usize> {
    let c = &candidates[i];
    let toks = &meeting.sentences[c.sentence].toks;
    let aside = |j: usize| {
        let start = candidates[j].clause.start;
        made[j].is_none() && start > 0 && toks[start - 1].is_any(REASONS)
    };
    let j = (0..i).rev().take_while(|&j| candidates[j].sentence == c.sentence).find(|&j| !aside(j))?;
    made[j]
}

fn draft(sentence: usize, score: f32, who: Who, action: String, due: Option<Due>) -> Draft {
    let words = terms(&action).collect();
    Draft { sentence, score, who, action, due, words }
}

/// The request or offer, a sentence or two before candidate `i`, that `i`
/// answers by taking it up; `at_once`: only the one `i`'s sentence replies to.
fn request_before(meeting: &Meeting, candidates: &[Candidate], i: usize, at_once: bool) -> Option<usize> {
    let c = &candidates[i];
    (0..i).rev().take_while(|&j| c.sentence - candidates[j].sentence <= 2).find(|&j| {
        let r = &candidates[j];
        let reply = meeting.reply(r.sentence);
        r.sentence < c.sentence
            && matches!(r.clause.form, Form::Request | Form::Imperative | Form::Offer)
            && r.features.object_words > 0.0
            && reply.is_some_and(|reply| if at_once { reply == c.sentence } else { reply <= c.sentence })
    })
}

/// A recap repeats what was agreed: an item whose action shares most of
/// its words with an earlier one is that item, said again. The merged
/// item keeps the fuller action, a deadline from either, and the surer owner.
fn merge_repeats(drafts: Vec<Draft>) -> Vec<Draft> {
    let mut kept: Vec<Draft> = Vec::new();
    for d in drafts {
        let same = kept.iter().position(|k| same_commitment(k, &d));
        match same {
            Some(k) => {
                let k = &mut kept[k];
                if d.words.len() > k.words.len() {
                    k.action = d.action;
                    k.words = d.words;
                }
                if k.due.as_ref().is_none_or(|due| due.date.is_none())
                    && d.due.as_ref().is_some_and(|due| due.date.is_some() || k.due.is_none())
                {
                    k.due = d.due;
                }
                if rank(&d.who) > rank(&k.who) {
                    k.who = d.who;
                }
                k.score = k.score.max(d.score);
            }
            None => kept.push(d),
        }
    }
    kept
}

fn same_commitment(a: &Draft, b: &Draft) -> bool {
    let owners_agree = a.who == b.who || rank(&a.who) < 2 || rank(&b.who) < 2;
    let shared = a.words.intersection(&b.words).count() as f32;
    let smaller = a.words.len().min(b.words.len()).max(1) as f32;
    // One word in common of several is a person or a thing both touch
    // ("send it to Fiona", "flag anything to Fiona"), not one commitment.
    let enough = shared >= 2.0 || smaller == 1.0;
    // A recap says the deadline again: two different days are two steps
    // ("send the revised proposal by Tuesday", "send last year's campaign
    // results tomorrow").
    let dates = |d: &Draft| d.due.as_ref().and_then(|due| due.date);
    let other_day = matches!((dates(a), dates(b)), (Some(x), Some(y)) if x != y);
    owners_agree && shared / smaller >= SAME_ACTION && enough && !other_day
}

/// How much an owner says: a person beats "we", "we" beats nobody.
fn rank(who: &Who) -> u8 {
    match who {
        Who::Unattributed => 0,
        Who::We => 1,
        _ => 2,
    }
}

/// The surest items when there are too many, in meeting order.
fn finish(mut drafts: Vec<Draft>) -> Vec<ActionItem> {
    if drafts.len() > MAX_ITEMS {
        drafts.sort_by(|a, b| b.score.total_cmp(&a.score));
        drafts.truncate(MAX_ITEMS);
        drafts.sort_by_key(|d| d.sentence);
    }
    drafts
        .into_iter()
        .map(|d| ActionItem {
            who: d.who,
            action: d.action,
            due_text: d.due.as_ref().map(|due| due.text.clone()),
            due_date: d.due.and_then(|due| due.date),
        })
        .collect()
}

fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) if !text.starts_with("I ") => first.to_lowercase().chain(chars).collect(),
        _ => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use time::{Date, Month};

    use super::*;
    use crate::summarise::tokens::tokenize;

    /// `check` of each clause of `sentence`, in order.
    fn each_clause<T>(sentence: &str, check: impl Fn(&[Tok], &Candidate) -> T) -> Vec<T> {
        let toks = tokenize(sentence);
        let date = Date::from_calendar_date(2026, Month::March, 11).unwrap();
        clauses(&toks)
            .into_iter()
            .map(|clause| {
                let due = due::find(&toks, clause.verb, clause.end, date);
                check(&toks, &Candidate { sentence: 0, clause, due, features: Features::default() })
            })
            .collect()
    }

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

    #[test]
    fn a_deadline_said_after_a_reason_in_passing_is_the_commitments() {
        let meeting = Meeting::new(
            "I'll ask Raj to join the second interviews, because he'll be managing whoever we hire, \
             and confirm his availability by Friday.",
        );
        let context = MeetingContext::on(Date::from_calendar_date(2026, Month::March, 11).unwrap());
        let found = candidates(&meeting, &context);
        let toks = &meeting.sentences[0].toks;
        // Only the request to Raj is a commitment; the reason and the
        // conjunct after it are not steps of their own.
        let sure: Vec<f32> = found.iter().map(|c| if toks[c.clause.verb].is("ask") { 1.0 } else { 0.0 }).collect();
        let listed = items(&meeting, &context, &found, &sure, 0.5);
        assert_eq!(listed.len(), 1, "{listed:?}");
        assert_eq!(listed[0].due_text.as_deref(), Some("by Friday"), "{listed:?}");
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

    #[test]
    fn i_will_do_it_tonight_in_a_run_dates_the_request_before() {
        let listed = items_of_run(
            "ha fair enough i'll leave you our brochure as well oh we've got two already from the man who knocked on \
             the door before i can quote properly could you send me a photo of your electricity meter and the fuse \
             box i want to check the fuse rating i'll do it tonight ken knows where the fuse box is great the \
             scaffolding goes up the side of the house on the shared drive will the neighbours mind",
            &["send", "do"],
        );
        assert_eq!(listed.len(), 1, "{listed:?}");
        assert!(listed[0].action.starts_with("Send a photo of your electricity meter"), "{listed:?}");
        assert_eq!(listed[0].due_text.as_deref(), Some("tonight"));
    }

    #[test]
    fn steps_alike_but_due_on_different_days_are_two_and_a_recap_is_one() {
        let day = |d: u8| Due {
            start: 0,
            end: 0,
            text: format!("on the {d}th"),
            date: Date::from_calendar_date(2026, Month::May, d).ok(),
        };
        let step = |action: &str, due: Option<Due>| draft(0, 1.0, Who::Me, action.into(), due);
        let two = merge_repeats(vec![
            step("Send the revised proposal, campaign only", Some(day(19))),
            step("Send over last year's campaign results", Some(day(15))),
        ]);
        assert_eq!(two.len(), 2);
        let one = merge_repeats(vec![
            step("Send the revised proposal, campaign only", Some(day(19))),
            step("Send you the revised proposal", Some(day(19))),
            step("Send the revised proposal", None),
        ]);
        assert_eq!(one.len(), 1);
    }

    /// Whether each clause of `sentence` only reports back, in order.
    fn report_backs(sentence: &str) -> Vec<bool> {
        each_clause(sentence, reports_back)
    }

    #[test]
    fn the_thing_a_listener_is_told_they_will_receive_is_kept_when_named() {
        let things = |sentence| each_clause(sentence, received_thing).into_iter().flatten().collect::<Vec<_>>();
        assert_eq!(
            things("Let me run your orders through our model, and you'll have a proper cost comparison by Wednesday."),
            ["a proper cost comparison"]
        );
        assert!(things("Let me check the grant, you'll have it in writing by Friday.").is_empty());
        assert!(things("I'll ask finance, you'll hear from me on Monday.").is_empty());
        assert!(things("I'll ask finance, you'll have an answer on Monday.").is_empty());
    }

    #[test]
    fn courtesies_of_the_meeting_are_no_work_after_it() {
        let courtesies = |sentence: &str| each_clause(sentence, courtesy);
        assert_eq!(courtesies("I'll walk you through the headlines, then the tax."), [true]);
        assert_eq!(courtesies("I'll let you get back to the shop before the rush."), [true]);
        assert_eq!(courtesies("Well, I'll keep this quick."), [true]);
        assert_eq!(courtesies("Let me walk you to the lift."), [true]);
        assert_eq!(
            courtesies("I'll take you through the revised plan next week."),
            [false],
            "a deadline makes it work"
        );
        assert_eq!(courtesies("I'll send you the plan."), [false]);
    }

    #[test]
    fn a_promise_to_report_back_is_told_from_a_step_of_its_own() {
        assert_eq!(
            report_backs("I'll check with HMRC whether the penalty can be appealed, and let you know by Wednesday."),
            [false, true]
        );
        assert_eq!(
            report_backs("I'll speak to the bank, and get back to you before we meet on the 14th."),
            [false, true]
        );
        assert_eq!(
            report_backs("I'll talk to the planning team, and get back to you before Christmas."),
            [false, true]
        );
        assert_eq!(report_backs("I'll ask finance, you'll have an answer on Monday."), [false, true]);
        assert_eq!(
            report_backs("Let me work out what the posters would cost, and you'll have the figures on Monday."),
            [false, true]
        );
        assert_eq!(report_backs("Let me check the grant, you'll get it in writing next week."), [false, true]);
        assert_eq!(report_backs("You'll have to sign the lease by Friday."), [false], "a duty is no delivery");
        assert_eq!(report_backs("I'll draft the policy, and send it to Fiona by Friday."), [false, false]);
        assert_eq!(report_backs("I'll call the landlord about the kitchen on Monday."), [false]);
    }
}

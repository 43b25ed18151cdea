//! The merge rules themselves, each a function of the candidate it is
//! tried on; their names and examples are in the table in `merge.rs`.

use super::{Building, Step};
use crate::domain::action_item::Who;
use crate::summarise::action::imperative;
use crate::summarise::clauses::Subject;
use crate::summarise::commitments::Candidate;
use crate::summarise::commitments::drafts::draft;
use crate::summarise::commitments::signs::{
    carries_through, courtesy, handled_thing, points_back, received_thing, reports_back, topic, turned_down,
};
use crate::summarise::features;
use crate::summarise::lexicon::{ADDING, TAKE_BACK, is_general_verb};
use crate::summarise::run_on;
use crate::summarise::tokens::phrase_at;
use crate::summarise::who;

/// How many sentences after a commitment may still give its deadline or
/// take up a request.
const FOLLOW_UP_REACH: usize = 3;
/// How many sentences after a commitment its report-back may come: the same
/// one or the next.
const REPORT_BACK_REACH: usize = 1;
/// How many sentences after a commitment its speaker may still take it back.
const TAKE_BACK_REACH: usize = 2;

/// "The nomination form. I'll fill it in this weekend": the "it" of the
/// first clause after a sentence that only names a thing is that thing.
pub(super) fn named_just_before(b: &mut Building, i: usize) -> Step {
    let c = &b.candidates[i];
    let first_of_sentence = i == 0 || b.candidates[i - 1].sentence != c.sentence;
    let thing = (c.sentence > 0 && first_of_sentence && !b.meeting.cut_before(c.sentence) && points_back(b.toks(i), c))
        .then(|| topic(&b.meeting.sentences[c.sentence - 1].toks))
        .flatten();
    match thing {
        Some(thing) => {
            b.topics[i] = Some(thing);
            Step::Noted
        }
        None => Step::Pass,
    }
}

/// "I'll send you the draft lease by Friday. I'll read it over the
/// weekend": "it" is the draft lease, when "it" follows a verb that works
/// on a thing and opens the commitment's sentence, the sentence before
/// made the last item, and the two agree in number ("it" a thing, "them"
/// things). Only where the speaker ended the sentence before with a mark:
/// a cut in an unmarked run may fall anywhere.
pub(super) fn handled_just_before(b: &mut Building, i: usize) -> Step {
    let c = &b.candidates[i];
    let toks = b.toks(i);
    let first_of_sentence = i == 0 || b.candidates[i - 1].sentence != c.sentence;
    // "I'll do it on Thursday" only dates the item before: a general verb
    // with a pointer is a follow-up, not work on a thing.
    let general = is_general_verb(&toks[c.clause.verb].low);
    if b.topics[i].is_some()
        || c.sentence == 0
        || !first_of_sentence
        || general
        || b.meeting.cut_before(c.sentence)
        || !points_back(toks, c)
    {
        return Step::Pass;
    }
    let Some(j) = (0..i).rev().find(|&j| b.made[j].is_some()).filter(|&j| b.candidates[j].sentence + 1 == c.sentence)
    else {
        return Step::Pass;
    };
    let before = &b.candidates[j];
    let Some(thing) = handled_thing(&b.meeting.sentences[before.sentence].toks, before) else {
        return Step::Pass;
    };
    let many = toks[c.clause.verb + 1].is_any(&["them", "those", "these"]);
    let one = toks[c.clause.verb + 1].is("it");
    let plural = thing.ends_with('s') && !thing.ends_with("ss");
    if (many && plural) || (one && !plural) {
        b.topics[i] = Some(thing);
        b.borrowed[i] = true;
        Step::Noted
    } else {
        Step::Pass
    }
}

/// "I'll check with HMRC whether …, and let you know by Wednesday": a
/// deadline said in a later clause of the sentence is the commitment's
/// too, whatever becomes of that clause.
pub(super) fn later_deadline(b: &mut Building, i: usize) -> Step {
    let c = &b.candidates[i];
    if c.due.is_some()
        && let Some(d) = b.made_before(i)
        && b.drafts[d].due.is_none()
    {
        b.drafts[d].due.clone_from(&c.due);
        return Step::Noted;
    }
    Step::Pass
}

/// "…and come back to you by Monday", "draft the policy and send it to
/// Fiona", "call the landlord and send you his answer": part of the clause
/// before.
pub(super) fn conjunct(b: &mut Building, i: usize) -> Step {
    let c = &b.candidates[i];
    let toks = b.toks(i);
    let folds = c.clause.conjunct && (b.vague(i) || points_back(toks, c) || carries_through(toks, c)) && i > 0;
    let Some(d) = b.made[i.saturating_sub(1)].filter(|_| folds && b.candidates[i - 1].sentence == c.sentence) else {
        return Step::Pass;
    };
    let more = imperative(toks, c.clause.verb, c.clause.end, c.due.as_ref().map(|d| (d.start, d.end)));
    let draft = &mut b.drafts[d];
    if !more.is_empty() {
        draft.action = format!("{} and {}", draft.action, lower_first(&more));
    }
    if draft.due.is_none() {
        draft.due.clone_from(&c.due);
    }
    b.joins(i, d)
}

/// Not accepted (and no yes in the run takes a request up), or a courtesy
/// of the meeting ("I'll walk you through the headlines"): no item.
pub(super) fn doubted_or_courtesy(b: &mut Building, i: usize) -> Step {
    let doubted = !b.accepted(i) && b.request_said_yes_to(i).is_none();
    if doubted || courtesy(b.toks(i), &b.candidates[i]) { Step::Settled } else { Step::Pass }
}

/// "I'll send you the brochure anyway? Please don't", "I'll send you the
/// warranty terms. Don't bother, we have them": no item.
pub(super) fn declined_offer(b: &mut Building, i: usize) -> Step {
    let s = b.candidates[i].sentence;
    let run_goes_on = (s + 1 < b.meeting.sentences.len() && b.meeting.cut_before(s + 1))
        .then(|| &b.meeting.sentences[s + 1].toks[..]);
    let refused = b.meeting.reply(s).is_some_and(|r| features::refuses(&b.meeting.sentences[r].toks));
    if refused || turned_down(b.toks(i), run_goes_on, &b.candidates[i]) { Step::Settled } else { Step::Pass }
}

/// "I'll chase HMRC about the overpayment. Actually, no, it came back.
/// Forget I said that.": no item, when the taking back comes after the
/// commitment and before the next commitment, which it might take back
/// instead.
pub(super) fn taken_back(b: &mut Building, i: usize) -> Step {
    let c = &b.candidates[i];
    // The next commitment, which the taking back may be of instead; not
    // "scratch that" itself, should it read as one.
    let takes_back = |n: &Candidate| {
        let toks = &b.meeting.sentences[n.sentence].toks;
        (n.clause.start..=n.clause.verb).any(|at| phrase_at(toks, at, &TAKE_BACK).is_some())
    };
    let next = (i + 1..b.candidates.len())
        .find(|&j| b.accepted(j) && !takes_back(&b.candidates[j]))
        .map(|j| (b.candidates[j].sentence, b.candidates[j].clause.start));
    let last = (c.sentence + TAKE_BACK_REACH).min(b.meeting.sentences.len() - 1);
    for s in c.sentence..=last {
        let toks = &b.meeting.sentences[s].toks;
        let from = if s == c.sentence { c.clause.end } else { 0 };
        let until = match next {
            Some((at, start)) if at == s => start.max(from),
            _ => toks.len(),
        };
        if (from..until).any(|at| phrase_at(toks, at, &TAKE_BACK).is_some()) {
            return Step::Settled;
        }
        if next.is_some_and(|(at, _)| at == s) {
            break;
        }
    }
    Step::Pass
}

/// "Sure, I'll send them tonight", "Sure, I'll ask HR": the request before,
/// taken up (not "and I'll also…", which is more), by whoever replied.
pub(super) fn taken_up(b: &mut Building, i: usize) -> Step {
    let toks = b.toks(i);
    let vague = b.vague(i);
    let yes = b.yes_in_run(i);
    let yes_before = b.after_bare_yes(b.candidates[i].sentence);
    let answers = !vague && (yes || yes_before || features::takes_up(toks)) && !toks.iter().any(|t| t.is_in(&ADDING));
    let request = b.request_said_yes_to(i);
    let Some(j) = request.or_else(|| (vague || answers).then(|| b.request_before(i, answers)).flatten()) else {
        return Step::Pass;
    };
    let (c, request) = (&b.candidates[i], &b.candidates[j]);
    let who = match who::of(b.meeting, c.sentence, &c.clause, None, b.context) {
        Who::Unattributed => who::of(b.meeting, request.sentence, &request.clause, Some(c.sentence), b.context),
        who => who,
    };
    let due = c.due.clone().or_else(|| request.due.clone());
    match b.made[j] {
        Some(d) => {
            b.drafts[d].who = who;
            if b.drafts[d].due.is_none() {
                b.drafts[d].due = due;
            }
            b.joins(i, d)
        }
        None => {
            let rtoks = &b.meeting.sentences[request.sentence].toks;
            let action = imperative(
                rtoks,
                request.clause.verb,
                request.clause.end,
                request.due.as_ref().map(|d| (d.start, d.end)),
            );
            let new = draft(request.sentence, b.probabilities[i], who, action, due);
            b.adds(i, None, new)
        }
    }
}

/// "You'll have them Thursday", "I'll do it tonight": the deadline of the
/// commitment before.
pub(super) fn follow_up_deadline(b: &mut Building, i: usize) -> Step {
    let c = &b.candidates[i];
    if !((b.vague(i) || b.only_points_back(i)) && c.due.is_some()) {
        return Step::Pass;
    }
    let Some(d) = b.drafts.iter().rposition(|d| c.sentence - d.sentence <= FOLLOW_UP_REACH && d.due.is_none()) else {
        return Step::Pass;
    };
    b.drafts[d].due.clone_from(&c.due);
    b.joins(i, d)
}

/// "…, and get back to you by Friday", "I'll have an answer for you on
/// Monday": the promise to report on the commitment just made is part of
/// it, not a step of its own.
pub(super) fn report_back(b: &mut Building, i: usize) -> Step {
    let c = &b.candidates[i];
    let toks = b.toks(i);
    if !reports_back(toks, c) {
        return Step::Pass;
    }
    let thing = received_thing(toks, c);
    let same_sentence = b.drafts.iter().rposition(|d| d.sentence == c.sentence);
    // "Let me put the numbers together for you, and you'll have them
    // Thursday": promising to report makes the clause before a commitment,
    // though the classifier doubted it; in its sentence, or before a cut the
    // splitter made in the run. Not past a clause that became a step: the
    // report is on that one.
    let cut = run_on::goes_on(b.meeting, c.sentence, c.clause.start);
    let joined = |j: usize| {
        let s = b.candidates[j].sentence;
        s == c.sentence || (cut && s + 1 == c.sentence)
    };
    let doubted = (0..i)
        .rev()
        .take_while(|&j| joined(j))
        .find(|&j| {
            let d = &b.candidates[j];
            b.made[j].is_some()
                || (!d.clause.negated && d.clause.subject != Subject::Thing && d.features.object_words > 0.0)
        })
        .filter(|&j| b.made[j].is_none());
    let before = b.drafts.iter().rposition(|d| c.sentence - d.sentence <= REPORT_BACK_REACH);
    if let Some(d) = same_sentence.or(if doubted.is_some() { None } else { before }) {
        b.drafts[d].take_report(thing, &c.due);
        return b.joins(i, d);
    }
    if let Some(j) = doubted
        && let Some(mut promoted) = b.commitment(j, b.probabilities[i])
    {
        promoted.take_report(thing, &c.due);
        return b.adds(i, Some(j), promoted);
    }
    Step::Pass
}

/// "I'll check it", "let me look it up": said of something in the room,
/// with no deadline, what is left when no rule before joined it to what it
/// points at is no step a follow-up can carry; nor is "I'll do it
/// tonight" with its deadline, when no commitment before took the
/// deadline: "it" is nothing the reader of the email can know.
pub(super) fn nothing_named(b: &mut Building, i: usize) -> Step {
    let c = &b.candidates[i];
    if (b.vague(i) && c.due.is_none()) || b.only_points_back(i) { Step::Settled } else { Step::Pass }
}

/// Anything else the classifier takes is an item of its own.
pub(super) fn own(b: &mut Building, i: usize) -> Step {
    match b.commitment(i, b.probabilities[i]) {
        Some(new) => b.adds(i, None, new),
        None => Step::Settled,
    }
}

fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) if !text.starts_with("I ") => first.to_lowercase().chain(chars).collect(),
        _ => text.to_string(),
    }
}

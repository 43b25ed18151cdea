//! The state the merge rules build on: the meeting, its scored
//! candidates, the items made so far, and the questions the rules ask of
//! them.

use super::Step;
use crate::summarise::action::imperative;
use crate::summarise::clauses::{Form, Subject};
use crate::summarise::commitments::Candidate;
use crate::summarise::commitments::drafts::{Draft, draft};
use crate::summarise::commitments::signs::only_points_back;
use crate::summarise::features;
use crate::summarise::lexicon::{PARTICLES, POINTERS, REASONS};
use crate::summarise::meeting::{Meeting, MeetingContext};
use crate::summarise::text::terms;
use crate::summarise::tokens::Tok;
use crate::summarise::who;

/// How many words a reply may have and still only say yes: "Yes.", "Yes,
/// of course.", "Sure, no problem."
const BARE_YES_WORDS: usize = 3;

/// The meeting's candidates, and the items made of them so far.
pub(super) struct Building<'a> {
    pub(super) meeting: &'a Meeting,
    pub(super) context: &'a MeetingContext,
    pub(super) candidates: &'a [Candidate],
    pub(super) probabilities: &'a [f32],
    pub(super) threshold: f32,
    pub(super) drafts: Vec<Draft>,
    /// Which draft each candidate became part of, for its conjuncts.
    pub(super) made: Vec<Option<usize>>,
    /// What a candidate's word pointing back stands for, when the sentence
    /// before said it alone.
    pub(super) topics: Vec<Option<String>>,
    /// Whether a candidate's topic is the thing the item just before it
    /// handles, not one named alone.
    pub(super) borrowed: Vec<bool>,
}

impl<'a> Building<'a> {
    pub(super) fn new(
        meeting: &'a Meeting,
        context: &'a MeetingContext,
        candidates: &'a [Candidate],
        probabilities: &'a [f32],
        threshold: f32,
    ) -> Self {
        let n = candidates.len();
        Building {
            meeting,
            context,
            candidates,
            probabilities,
            threshold,
            drafts: Vec::new(),
            made: vec![None; n],
            topics: vec![None; n],
            borrowed: vec![false; n],
        }
    }

    pub(super) fn toks(&self, i: usize) -> &[Tok] {
        &self.meeting.sentences[self.candidates[i].sentence].toks
    }

    pub(super) fn accepted(&self, i: usize) -> bool {
        self.probabilities[i] >= self.threshold
    }

    /// Whether candidate `i` names no object: "do it", "come back to you".
    pub(super) fn vague(&self, i: usize) -> bool {
        self.candidates[i].features.object_words == 0.0 && self.topics[i].is_none()
    }

    /// Whether all candidate `i` names before its deadline points back at
    /// something no sentence just before named alone.
    pub(super) fn only_points_back(&self, i: usize) -> bool {
        only_points_back(self.toks(i), &self.candidates[i]) && self.topics[i].is_none()
    }

    /// "…you won't outgrow it yes I'll send it over on Monday": a yes in
    /// the middle of an unpunctuated run takes the request before up as
    /// surely as one that opens a sentence, which is all the classifier
    /// reads.
    pub(super) fn yes_in_run(&self, i: usize) -> bool {
        let c = &self.candidates[i];
        c.clause.form == Form::Future
            && matches!(c.clause.subject, Subject::I | Subject::We)
            && c.clause.start > 0
            && self.toks(i)[c.clause.start - 1].is_any(&["yes", "sure"])
    }

    /// The request a yes in the run takes up, for a candidate the
    /// classifier doubted.
    pub(super) fn request_said_yes_to(&self, i: usize) -> Option<usize> {
        (!self.accepted(i) && self.yes_in_run(i)).then(|| self.request_before(i, !self.vague(i))).flatten()
    }

    /// The draft the clause before candidate `i` in its sentence became,
    /// passing over a reason said between them that became none ("I'll ask
    /// Raj to join, because he'll be managing them, and confirm by Friday").
    pub(super) fn made_before(&self, i: usize) -> Option<usize> {
        let c = &self.candidates[i];
        let toks = self.toks(i);
        let aside = |j: usize| {
            let start = self.candidates[j].clause.start;
            self.made[j].is_none() && start > 0 && toks[start - 1].is_in(&REASONS)
        };
        let j = (0..i).rev().take_while(|&j| self.candidates[j].sentence == c.sentence).find(|&j| !aside(j))?;
        self.made[j]
    }

    /// The request or offer, a sentence or two before candidate `i`, that
    /// `i` answers by taking it up; `at_once`: only the one `i`'s sentence
    /// replies to.
    pub(super) fn request_before(&self, i: usize, at_once: bool) -> Option<usize> {
        let c = &self.candidates[i];
        (0..i).rev().take_while(|&j| c.sentence - self.candidates[j].sentence <= 2).find(|&j| {
            let r = &self.candidates[j];
            let reply = self.meeting.reply(r.sentence);
            r.sentence < c.sentence
                && matches!(r.clause.form, Form::Request | Form::Imperative | Form::Offer)
                && r.features.object_words > 0.0
                && reply
                    .is_some_and(|reply| if at_once { self.answers(reply, c.sentence) } else { reply <= c.sentence })
        })
    }

    /// Whether sentence `s` gives the answer to a request whose reply is
    /// sentence `reply`: it is the reply; or it comes right after it, and
    /// the reply only says yes ("Yes. I'll get it from R&D."), or, where
    /// who says what is not written, `s` opens by taking the request up
    /// after the asker's own next sentence ("Could you send the agreement?
    /// Our compliance person wants it. Of course, I'll attach it…").
    pub(super) fn answers(&self, reply: usize, s: usize) -> bool {
        reply == s
            || (reply + 1 == s
                && (self.after_bare_yes(s)
                    || (!self.meeting.labelled && features::takes_up(&self.meeting.sentences[s].toks))))
    }

    /// Whether sentence `s` follows, in the same turn, one that only says
    /// yes: "Yes." "Sure, no problem."
    pub(super) fn after_bare_yes(&self, s: usize) -> bool {
        let sentences = &self.meeting.sentences;
        s > 0
            && sentences[s].turn == sentences[s - 1].turn
            && sentences[s - 1].toks.len() <= BARE_YES_WORDS
            && features::takes_up(&sentences[s - 1].toks)
    }

    /// Candidate `j` as an item of its own: who does it, its action in the
    /// imperative, its deadline; `None` when the action is under two words.
    pub(super) fn commitment(&self, j: usize, score: f32) -> Option<Draft> {
        let c = &self.candidates[j];
        let replier = self.meeting.reply(c.sentence).filter(|_| c.features.accepted > 0.0);
        let who = who::of(self.meeting, c.sentence, &c.clause, replier, self.context);
        let action = imperative(self.toks(j), c.clause.verb, c.clause.end, c.due.as_ref().map(|d| (d.start, d.end)));
        if action.split_whitespace().count() < 2 {
            return None;
        }
        let mut made = draft(c.sentence, score, who, action, c.due.clone());
        if let Some(thing) = &self.topics[j] {
            made.action = naming(&made.action, thing);
            // A thing taken from the item just before is no word the two
            // share: "send the draft lease", "read it and sign it" are two.
            if !self.borrowed[j] {
                made.words = terms(&made.action).collect();
            }
        }
        Some(made)
    }

    /// Candidate `i` is part of draft `d` now.
    pub(super) fn joins(&mut self, i: usize, d: usize) -> Step {
        self.made[i] = Some(d);
        Step::Settled
    }

    /// Draft `new` is made of candidate `i` (and of `also`, when another
    /// candidate made it with it).
    pub(super) fn adds(&mut self, i: usize, also: Option<usize>, new: Draft) -> Step {
        let d = self.drafts.len();
        self.drafts.push(new);
        if let Some(j) = also {
            self.made[j] = Some(d);
        }
        self.joins(i, d)
    }
}

/// `action` with the word pointing back after its verb replaced by `thing`,
/// a particle after it moved before it: "Fill it in" → "Fill in the
/// nomination form".
fn naming(action: &str, thing: &str) -> String {
    let mut words: Vec<&str> = action.split(' ').collect();
    if !words.get(1).is_some_and(|w| POINTERS.has(&w.to_lowercase())) {
        return action.to_string();
    }
    let at = if words.get(2).is_some_and(|w| PARTICLES.has(w)) {
        words.swap(1, 2);
        2
    } else {
        1
    };
    words[at] = thing;
    words.join(" ")
}

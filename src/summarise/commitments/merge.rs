//! From scored candidates to items, by rules tried in order on each
//! candidate: each rule a named value with the speech it is for, and a test
//! that holds it to its examples. A rule may note something (a deadline
//! for the item before) and let the next rules go on, or settle the
//! candidate: fold it into an item, make it one, or drop it.

use super::Candidate;
use super::drafts::{Draft, draft};
use super::signs::{
    carries_through, courtesy, handled_thing, only_points_back, points_back, received_thing, reports_back, topic,
    turned_down,
};
use crate::domain::action_item::Who;
use crate::summarise::action::imperative;
use crate::summarise::clauses::{Form, Subject};
use crate::summarise::features;
use crate::summarise::lexicon::{ADDING, PARTICLES, POINTERS, REASONS, TAKE_BACK, is_general_verb};
use crate::summarise::meeting::{Meeting, MeetingContext};
use crate::summarise::run_on;
use crate::summarise::text::terms;
use crate::summarise::tokens::{Tok, phrase_at};
use crate::summarise::who;

/// How many sentences after a commitment may still give its deadline or
/// take up a request.
const FOLLOW_UP_REACH: usize = 3;
/// How many sentences after a commitment its report-back may come: the same
/// one or the next.
const REPORT_BACK_REACH: usize = 1;
/// How many sentences after a commitment its speaker may still take it back.
const TAKE_BACK_REACH: usize = 2;
/// How many words a reply may have and still only say yes: "Yes.", "Yes,
/// of course.", "Sure, no problem."
const BARE_YES_WORDS: usize = 3;

/// What a rule did with a candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// Nothing: the next rule is tried.
    Pass,
    /// Something, and the next rule is tried too.
    Noted,
    /// All there is to do: no later rule sees the candidate.
    Settled,
}

/// A way a clause joins the items, with its name and the speech it is for:
/// each example an unpunctuated or punctuated `run`, the verbs of the
/// clauses the classifier takes, and the items' lines (meeting on
/// Wednesday 11 March 2026). The name and the examples are read by the
/// test that holds the rule to them.
#[cfg_attr(not(test), allow(dead_code))]
struct Rule {
    name: &'static str,
    apply: fn(&mut Building, usize) -> Step,
    examples: &'static [Example],
}

#[cfg_attr(not(test), allow(dead_code))]
struct Example {
    run: &'static str,
    sure: &'static [&'static str],
    items: &'static [&'static str],
}

const RULES: &[Rule] = &[
    Rule {
        name: "a word pointing back after a sentence that only names a thing stands for that thing",
        apply: named_just_before,
        examples: &[
            Example {
                run: "The nomination form. I'll fill it out this weekend and post it back.",
                sure: &["fill", "post"],
                items: &["Fill out the nomination form and post it back this weekend."],
            },
            Example {
                run: "Priya: And the steward briefing pack?\nTom: I'll have that to you by Friday.",
                sure: &["have"],
                items: &["Tom will have the steward briefing pack to you by Friday."],
            },
        ],
    },
    Rule {
        name: "a word pointing back that opens a commitment stands for the thing the commitment just before handles",
        apply: handled_just_before,
        examples: &[
            Example {
                run: "I'll send you the draft lease by Friday. I'll read it over the weekend and sign it.",
                sure: &["send", "read"],
                items: &["Send the draft lease by Friday.", "Read the draft lease and sign it over the weekend."],
            },
            Example {
                run: "I'll send you the signed forms tomorrow. Karen will file them with the council.",
                sure: &["send", "file"],
                items: &["Send the signed forms tomorrow.", "Karen will file the signed forms with the council."],
            },
        ],
    },
    Rule {
        name: "a deadline said in a later clause is the commitment's",
        apply: later_deadline,
        examples: &[Example {
            run: "I'll ask Raj to join the second interviews, because he'll be managing whoever we hire, \
                  and confirm his availability by Friday.",
            sure: &["ask"],
            items: &["Ask Raj to join the second interviews by Friday."],
        }],
    },
    Rule {
        name: "a conjunct without an object of its own, or carrying the clause before through, is part of it",
        apply: conjunct,
        examples: &[
            Example {
                run: "I'll draft the policy, and send it to Fiona by Friday.",
                sure: &["draft", "send"],
                items: &["Draft the policy and send it to Fiona by Friday."],
            },
            Example {
                run: "I'll call the landlord and send you his answer by Friday.",
                sure: &["call", "send"],
                items: &["Call the landlord and send his answer by Friday."],
            },
            Example {
                run: "I'll test the backup tonight, and tell you whether it restores cleanly.",
                sure: &["test", "tell"],
                items: &["Test the backup and tell you whether it restores cleanly tonight."],
            },
            Example {
                run: "We'll price the scaffolding and let Dana know on Monday.",
                sure: &["price", "let"],
                items: &["We will price the scaffolding and let Dana know on Monday."],
            },
        ],
    },
    Rule {
        name: "what the classifier doubts, and a courtesy of the meeting, is no item",
        apply: doubted_or_courtesy,
        examples: &[
            Example { run: "I'll walk you through the headlines, then the tax.", sure: &["walk"], items: &[] },
            Example {
                run: "Let's start with the budget, then I'll go through each option.",
                sure: &["start", "go"],
                items: &[],
            },
            Example { run: "I'll make this quick, I know you're busy.", sure: &["make"], items: &[] },
            Example { run: "Let me sketch the layout here on the whiteboard.", sure: &["sketch"], items: &[] },
            Example { run: "We'll probably need a bigger van for the move.", sure: &[], items: &[] },
        ],
    },
    Rule {
        name: "an offer the reply turns down, or a promise it refuses, is no item",
        apply: declined_offer,
        examples: &[
            Example {
                run: "I'll send you the brochure anyway? Please don't, I'll only be tempted.",
                sure: &["send"],
                items: &[],
            },
            Example {
                run: "Anna: Shall I book the meeting room for Tuesday?\nRaj: No need, we'll use my office.",
                sure: &["book"],
                items: &[],
            },
            Example {
                run: "i'll introduce you to our install team anyway just in case no need honestly we have our own people",
                sure: &["introduce"],
                items: &[],
            },
            Example {
                run: "Priya: I'll send you the warranty terms.\nOwen: Don't bother, we have them on file.",
                sure: &["send"],
                items: &[],
            },
        ],
    },
    Rule {
        name: "a commitment its speaker takes back is no item",
        apply: taken_back,
        examples: &[
            Example {
                run: "Oh, and I'll chase HMRC about the overpayment. Actually, no, it came back in March. \
                  Forget I said that.",
                sure: &["chase"],
                items: &[],
            },
            Example {
                run: "i'll mail you the album samples so you can oh wait you said no album scratch that",
                sure: &["mail"],
                items: &[],
            },
            Example {
                run: "I'll send you the quote. Scratch that, I'll send you the revised quote by Friday.",
                sure: &["send"],
                items: &["Send the revised quote by Friday."],
            },
        ],
    },
    Rule {
        name: "a reply that takes up a request is the request, made by who replied",
        apply: taken_up,
        examples: &[
            Example {
                run: "Raj: Could you send me the floor plans?\nAnna: Sure, I'll email them tonight.",
                sure: &["email"],
                items: &["Anna will send the floor plans tonight."],
            },
            Example {
                run: "Raj: Could you send me the floor plans?\nAnna: Yes. I'll get them from the architect on Monday.",
                sure: &["get"],
                items: &["Anna will send the floor plans on Monday."],
            },
            Example {
                run: "ha fair enough i'll leave you our brochure as well oh we've got two already from the man who \
                  knocked on the door before i can quote properly could you send me a photo of your electricity meter \
                  and the fuse box i want to check the fuse rating i'll do it tonight ken knows where the fuse box is \
                  great the scaffolding goes up the side of the house on the shared drive will the neighbours mind",
                sure: &["send", "do"],
                items: &["Send a photo of your electricity meter tonight."],
            },
            Example {
                run: "Could you send me your headcount plan for the next three years? They'll want to know you won't \
                      outgrow it. Yes, I'll send it over on Monday, our finance director has it.",
                sure: &["send"],
                items: &["Send your headcount plan for the next three years on Monday."],
            },
            Example {
                run: "Could you send me the fire risk assessment? The insurer wants the current one. Of course, I'll \
                      attach it to the quote.",
                sure: &["attach"],
                items: &["Send the fire risk assessment."],
            },
        ],
    },
    Rule {
        name: "a vague follow-up with a deadline dates the commitment before",
        apply: follow_up_deadline,
        examples: &[Example {
            run: "I'll book the surveyor for the roof. I'll do it on Thursday.",
            sure: &["book", "do"],
            items: &["Book the surveyor for the roof on Thursday."],
        }],
    },
    Rule {
        name: "a promise to report back is part of the commitment it reports on",
        apply: report_back,
        examples: &[Example {
            run: "I'll check with HMRC whether the penalty can be appealed, and let you know by Wednesday.",
            sure: &["check", "let"],
            items: &["Check with HMRC whether the penalty can be appealed by Wednesday."],
        }],
    },
    Rule {
        name: "a commitment that names nothing beyond its verb, and no deadline, or only \"it\", is no step",
        apply: nothing_named,
        examples: &[
            Example { run: "Let me look it up.", sure: &["look"], items: &[] },
            Example { run: "I'll check it.", sure: &["check"], items: &[] },
            Example { run: "Fine, I'll do it today.", sure: &["do"], items: &[] },
        ],
    },
    Rule {
        name: "a commitment of its own",
        apply: own,
        examples: &[Example {
            run: "I'll send you the signed contract by Friday.",
            sure: &["send"],
            items: &["Send the signed contract by Friday."],
        }],
    },
];

/// The items in the making of the candidates `probabilities` says are
/// commitments (at least `threshold`), and per candidate the rules that
/// did something with it.
pub(super) fn build(
    meeting: &Meeting,
    context: &MeetingContext,
    candidates: &[Candidate],
    probabilities: &[f32],
    threshold: f32,
) -> (Vec<Draft>, Vec<Vec<&'static str>>) {
    let mut building = Building {
        meeting,
        context,
        candidates,
        probabilities,
        threshold,
        drafts: Vec::new(),
        made: vec![None; candidates.len()],
        topics: vec![None; candidates.len()],
        borrowed: vec![false; candidates.len()],
    };
    let mut applied = vec![Vec::new(); candidates.len()];
    for (i, applied) in applied.iter_mut().enumerate() {
        for rule in RULES {
            let step = (rule.apply)(&mut building, i);
            if step != Step::Pass {
                applied.push(rule.name);
            }
            if step == Step::Settled {
                break;
            }
        }
    }
    (building.drafts, applied)
}

/// The meeting's candidates, and the items made of them so far.
struct Building<'a> {
    meeting: &'a Meeting,
    context: &'a MeetingContext,
    candidates: &'a [Candidate],
    probabilities: &'a [f32],
    threshold: f32,
    drafts: Vec<Draft>,
    /// Which draft each candidate became part of, for its conjuncts.
    made: Vec<Option<usize>>,
    /// What a candidate's word pointing back stands for, when the sentence
    /// before said it alone.
    topics: Vec<Option<String>>,
    /// Whether a candidate's topic is the thing the item just before it
    /// handles, not one named alone.
    borrowed: Vec<bool>,
}

impl Building<'_> {
    fn toks(&self, i: usize) -> &[Tok] {
        &self.meeting.sentences[self.candidates[i].sentence].toks
    }

    fn accepted(&self, i: usize) -> bool {
        self.probabilities[i] >= self.threshold
    }

    /// Whether candidate `i` names no object: "do it", "come back to you".
    fn vague(&self, i: usize) -> bool {
        self.candidates[i].features.object_words == 0.0 && self.topics[i].is_none()
    }

    /// Whether all candidate `i` names before its deadline points back at
    /// something no sentence just before named alone.
    fn only_points_back(&self, i: usize) -> bool {
        only_points_back(self.toks(i), &self.candidates[i]) && self.topics[i].is_none()
    }

    /// "…you won't outgrow it yes I'll send it over on Monday": a yes in
    /// the middle of an unpunctuated run takes the request before up as
    /// surely as one that opens a sentence, which is all the classifier
    /// reads.
    fn yes_in_run(&self, i: usize) -> bool {
        let c = &self.candidates[i];
        c.clause.form == Form::Future
            && matches!(c.clause.subject, Subject::I | Subject::We)
            && c.clause.start > 0
            && self.toks(i)[c.clause.start - 1].is_any(&["yes", "sure"])
    }

    /// The request a yes in the run takes up, for a candidate the
    /// classifier doubted.
    fn request_said_yes_to(&self, i: usize) -> Option<usize> {
        (!self.accepted(i) && self.yes_in_run(i)).then(|| self.request_before(i, !self.vague(i))).flatten()
    }

    /// The draft the clause before candidate `i` in its sentence became,
    /// passing over a reason said between them that became none ("I'll ask
    /// Raj to join, because he'll be managing them, and confirm by Friday").
    fn made_before(&self, i: usize) -> Option<usize> {
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
    fn request_before(&self, i: usize, at_once: bool) -> Option<usize> {
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
    fn answers(&self, reply: usize, s: usize) -> bool {
        reply == s
            || (reply + 1 == s
                && (self.after_bare_yes(s)
                    || (!self.meeting.labelled && features::takes_up(&self.meeting.sentences[s].toks))))
    }

    /// Whether sentence `s` follows, in the same turn, one that only says
    /// yes: "Yes." "Sure, no problem."
    fn after_bare_yes(&self, s: usize) -> bool {
        let sentences = &self.meeting.sentences;
        s > 0
            && sentences[s].turn == sentences[s - 1].turn
            && sentences[s - 1].toks.len() <= BARE_YES_WORDS
            && features::takes_up(&sentences[s - 1].toks)
    }

    /// Candidate `j` as an item of its own: who does it, its action in the
    /// imperative, its deadline; `None` when the action is under two words.
    fn commitment(&self, j: usize, score: f32) -> Option<Draft> {
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
    fn joins(&mut self, i: usize, d: usize) -> Step {
        self.made[i] = Some(d);
        Step::Settled
    }

    /// Draft `new` is made of candidate `i` (and of `also`, when another
    /// candidate made it with it).
    fn adds(&mut self, i: usize, also: Option<usize>, new: Draft) -> Step {
        let d = self.drafts.len();
        self.drafts.push(new);
        if let Some(j) = also {
            self.made[j] = Some(d);
        }
        self.joins(i, d)
    }
}

/// "The nomination form. I'll fill it in this weekend": the "it" of the
/// first clause after a sentence that only names a thing is that thing.
fn named_just_before(b: &mut Building, i: usize) -> Step {
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
/// on a thing and opens the commitment's sentence, the sentence before made the last item, and the two agree in
/// number ("it" a thing, "them" things). Only where the speaker ended the
/// sentence before with a mark: a cut in an unmarked run may fall anywhere.
fn handled_just_before(b: &mut Building, i: usize) -> Step {
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

/// "I'll check with HMRC whether …, and let you know by Wednesday": a
/// deadline said in a later clause of the sentence is the commitment's
/// too, whatever becomes of that clause.
fn later_deadline(b: &mut Building, i: usize) -> Step {
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
fn conjunct(b: &mut Building, i: usize) -> Step {
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
fn doubted_or_courtesy(b: &mut Building, i: usize) -> Step {
    let doubted = !b.accepted(i) && b.request_said_yes_to(i).is_none();
    if doubted || courtesy(b.toks(i), &b.candidates[i]) { Step::Settled } else { Step::Pass }
}

/// "I'll send you the brochure anyway? Please don't", "I'll send you the
/// warranty terms. Don't bother, we have them": no item.
fn declined_offer(b: &mut Building, i: usize) -> Step {
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
fn taken_back(b: &mut Building, i: usize) -> Step {
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
fn taken_up(b: &mut Building, i: usize) -> Step {
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
fn follow_up_deadline(b: &mut Building, i: usize) -> Step {
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
fn report_back(b: &mut Building, i: usize) -> Step {
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
fn nothing_named(b: &mut Building, i: usize) -> Step {
    let c = &b.candidates[i];
    if (b.vague(i) && c.due.is_none()) || b.only_points_back(i) { Step::Settled } else { Step::Pass }
}

/// Anything else the classifier takes is an item of its own.
fn own(b: &mut Building, i: usize) -> Step {
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

#[cfg(test)]
mod tests;

//! From scored candidates to items, by rules tried in order on each
//! candidate: each rule a named value with the speech it is for, and a test
//! that holds it to its examples. A rule may note something (a deadline
//! for the item before) and let the next rules go on, or settle the
//! candidate: fold it into an item, make it one, or drop it.

mod building;
mod rules;

use building::Building;
use rules::{
    conjunct, declined_offer, doubted_or_courtesy, follow_up_deadline, handled_just_before, later_deadline,
    named_just_before, nothing_named, own, report_back, taken_back, taken_up,
};

use super::Candidate;
use super::drafts::Draft;
use crate::summarise::meeting::{Meeting, MeetingContext};

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
    let mut building = Building::new(meeting, context, candidates, probabilities, threshold);
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

#[cfg(test)]
mod tests;

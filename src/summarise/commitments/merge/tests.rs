use time::{Date, Month};

use super::*;
use crate::summarise::commitments::{candidates, items};

#[test]
fn each_merge_rule_gives_its_examples_items_and_acts_in_each() {
    let context = MeetingContext::on(Date::from_calendar_date(2026, Month::March, 11).unwrap());
    for rule in RULES {
        for example in rule.examples {
            let meeting = Meeting::new(example.run);
            let found = candidates(&meeting, &context);
            let verb = |c: &Candidate| meeting.sentences[c.sentence].toks.get(c.clause.verb).map(|t| t.low.clone());
            let p: Vec<f32> =
                found.iter().map(|c| f32::from(verb(c).is_some_and(|v| example.sure.contains(&v.as_str())))).collect();
            let lines: Vec<String> = items(&meeting, &context, &found, &p, 0.5).iter().map(|i| i.line()).collect();
            assert_eq!(lines, example.items, "{}: {:?}", rule.name, example.run);
            let (_, applied) = build(&meeting, &context, &found, &p, 0.5);
            assert!(
                applied.iter().flatten().any(|name| *name == rule.name),
                "{}: the rule does nothing with {:?} ({applied:?})",
                rule.name,
                example.run
            );
        }
    }
}

#[test]
fn a_plain_promise_answered_with_a_no_or_a_fine_is_still_an_item() {
    for run in [
        "Anna: I'll send you the revised quote by Friday.\nRaj: That's fine, no rush.",
        "Anna: I'll send you the revised quote by Friday.\nRaj: No, that works, thanks.",
    ] {
        assert_eq!(every_clause_sure(run), ["Anna will send the revised quote by Friday."], "{run:?}");
    }
}

#[test]
fn a_sentence_that_says_more_than_a_thing_gives_the_next_one_s_pointer_nothing_to_stand_for() {
    for run in [
        "The quote is nearly ready. I'll send it over on Friday.",
        "the nomination form i'll send it over on friday",
        "Thanks for that. I'll send it over on Friday.",
    ] {
        let lines = every_clause_sure(run);
        assert!(
            lines.iter().all(|l| !l.contains("quote") && !l.contains("nomination") && !l.contains("thanks")),
            "{run:?}: {lines:?}"
        );
    }
}

/// The items of `run` when the classifier takes every clause, on
/// Wednesday 11 March 2026.
fn every_clause_sure(run: &str) -> Vec<String> {
    let context = MeetingContext::on(Date::from_calendar_date(2026, Month::March, 11).unwrap());
    let meeting = Meeting::new(run);
    let found = candidates(&meeting, &context);
    items(&meeting, &context, &found, &vec![1.0; found.len()], 0.5).iter().map(|i| i.line()).collect()
}

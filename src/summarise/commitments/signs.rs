//! What a candidate clause says of itself that decides how it joins the
//! items: a promise to report back on the commitment before it, a courtesy
//! of the meeting, an object that points back, a thing the listener is
//! told they will receive.

use super::Candidate;
use crate::summarise::clauses::{Form, Subject};
use crate::summarise::due::Due;
use crate::summarise::features;
use crate::summarise::lexicon::{
    AGENDA_MOVES, GUIDE, IN_THE_ROOM, LEAD_INS, NO_NEW_THING, POINTERS, POSSESSIVES, RECEIVE, RECEIVERS, REPORT_BACK,
    TENTATIVE, THING_ENDS, WAYS, is_function_word,
};
use crate::summarise::subject::DETERMINERS;
use crate::summarise::tokens::{self, Tok};

/// Whether the clause only promises to report back: every word of it, but
/// for its deadline and the function words, is one of [`REPORT_BACK`]; or
/// it tells the listener they will receive what the clause before makes
/// ("let me work out the costs, and you'll have the figures on Monday").
pub(super) fn reports_back(toks: &[Tok], c: &Candidate) -> bool {
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
    words.peek().is_some() && words.all(|t| t.is_in(&REPORT_BACK))
}

/// Whether `c` is a courtesy of the meeting rather than work after it:
/// guiding the listener ("walk you to the lift", "let you get back to
/// your day"), keeping it short ("I'll keep this quick", "I'll make it
/// short"), steering the talk ("I'll go through each option", "let's start
/// with the budget") or working in the room ("I'll draw it here"); but for
/// taking leave, one with a deadline ("take you through the plan next
/// week") is work.
pub(super) fn courtesy(toks: &[Tok], c: &Candidate) -> bool {
    let word = |k: usize| toks.get(c.clause.verb + k).map_or("", |t| t.low.as_str());
    let guides = GUIDE.has(word(0)) && word(1) == "you" && WAYS.has(word(2));
    let brief = matches!(word(0), "keep" | "make")
        && matches!(word(1), "this" | "it")
        && matches!(word(2), "quick" | "short" | "brief");
    let steers = AGENDA_MOVES.phrases().any(|phrase| phrase.iter().enumerate().all(|(k, w)| word(k) == *w));
    let in_room = toks[c.clause.verb..c.clause.end].iter().any(|t| t.is_in(&IN_THE_ROOM));
    // "I'll let you get back to the shop before the rush" takes leave,
    // whatever time it names.
    let leave = guides && word(0) == "let";
    // A deadline the clause says itself: one carried over a cut in the run
    // belongs to whatever came next as often.
    let dated = c.due.as_ref().is_some_and(Due::said_in_clause);
    leave || (!dated && (guides || brief || steers || in_room))
}

/// Whether `c` is an offer the reply turns down: the reply declines, and
/// the clause was put as an offer ("shall I…?"), asked ("I'll send you a
/// sample report?") or made tentative ("I'll send the brochure anyway",
/// "…just in case"). A plain promise answered "that's fine" or "no rush"
/// stands: only the offer's shape says the reply is a refusal. In Vosk's
/// unpunctuated run the reply may follow in the same sentence, right after
/// what made the offer tentative ("…anyway no need we have our own"), and
/// what made it so may open the piece after a cut the splitter made
/// (`run_goes_on`).
pub(super) fn turned_down(toks: &[Tok], run_goes_on: Option<&[Tok]>, c: &Candidate) -> bool {
    let f = &c.features;
    let tentative_at = |toks: &[Tok], at: usize| tokens::phrase_at(toks, at, &TENTATIVE);
    let ends: Vec<usize> =
        (c.clause.verb..toks.len()).filter_map(|at| tentative_at(toks, at).map(|n| at + n)).collect();
    let unmarked = |end: usize| toks[..end].iter().all(|t| t.mark.is_none());
    let declined_in_run =
        ends.last().is_some_and(|&end| end < toks.len() && unmarked(end) && features::turns_down(&toks[end..]));
    let tentative = !ends.is_empty() || run_goes_on.is_some_and(|next| tentative_at(next, 0).is_some());
    (f.declined > 0.0 && (f.question > 0.0 || f.form_offer > 0.0 || tentative)) || declined_in_run
}

/// Whether the object of `c` is the thing the clause before made: "…and
/// send it to Fiona", "…and pass them on".
pub(super) fn points_back(toks: &[Tok], c: &Candidate) -> bool {
    toks.get(c.clause.verb + 1).is_some_and(|t| t.is_in(&POINTERS))
}

/// Where what `c`'s verb takes ends: at its deadline, else with the clause.
fn object_end(toks: &[Tok], c: &Candidate) -> usize {
    c.due.as_ref().map_or(c.clause.end, |d| d.start.max(c.clause.verb + 1)).min(c.clause.end).min(toks.len())
}

/// Whether `c` only carries the clause before it through: what it handles
/// belongs to someone or something that clause named ("ask Raj to join
/// and confirm his availability", "pick four super-users and send you
/// their names"), or it tells someone how that clause came out ("check
/// whether we can go to £100,000 and let Zoe know", "survey the side rooms
/// and tell us whether we need another access point"). A "her" before a
/// function word is the person given something ("send her the plan"),
/// not whose the thing is.
pub(super) fn carries_through(toks: &[Tok], c: &Candidate) -> bool {
    let end = object_end(toks, c);
    let object = (c.clause.verb + 1)..end;
    let owned = object
        .clone()
        .any(|k| toks[k].is_in(&POSSESSIVES) && toks.get(k + 1).is_some_and(|t| !is_function_word(&t.low)));
    let verb = &toks[c.clause.verb];
    // "let you know" alone is a promise to report back, a rule of its own.
    let lets_know =
        verb.is("let") && object.clone().skip(1).take(2).any(|k| toks[k].is("know")) && !reports_back(toks, c);
    let tells_outcome = verb.is("tell") && object.skip(1).take(2).any(|k| toks[k].is_any(&["whether", "if"]));
    owned || lets_know || tells_outcome
}

/// The thing `c` hands over or works on, when its verb takes one that
/// opens with a determiner: "send you the draft tax return by Friday"
/// gives "the draft tax return". It ends at the deadline, at a mark, or
/// where a new clause starts; who receives it ("you", "us") is passed
/// over.
pub(super) fn handled_thing(toks: &[Tok], c: &Candidate) -> Option<String> {
    let end = object_end(toks, c);
    let after = c.clause.verb + 1;
    let start = after + tokens::phrase_at(toks, after, &RECEIVERS).unwrap_or(0);
    if start >= end || !toks[start].is_any(DETERMINERS) || toks[start].mark.is_some() {
        return None;
    }
    let mut stop = start + 1;
    while stop < end && !toks[stop].is_in(&THING_ENDS) && toks[stop - 1].mark.is_none() {
        stop += 1;
    }
    (stop > start + 1).then(|| tokens::text(toks, start, stop))
}

/// Whether all `c` names before the deadline it says is a word pointing
/// back: "do it tonight", "I'll send it over on Monday, our finance
/// director has it". What follows the deadline is as often the next
/// thought, in a run without marks above all ("I'll do it tonight ken
/// knows where the fuse box is").
pub(super) fn only_points_back(toks: &[Tok], c: &Candidate) -> bool {
    c.due.as_ref().is_some_and(|d| {
        let object = &toks[c.clause.verb + 1..d.start.max(c.clause.verb + 1)];
        (c.clause.verb + 1..c.clause.end).contains(&d.start)
            && object.iter().any(|t| t.is_in(&POINTERS))
            && object.iter().all(|t| !features::is_content(&t.low))
    })
}

/// What a sentence names when it is nothing but a thing, said to open a
/// topic ("The nomination form." "And your floor plans?"): the thing the
/// next sentence's "it" or "those" stands for. Only of a sentence its
/// speaker ended with a mark: in a run without marks no sentence is known
/// to be nothing but a thing.
pub(super) fn topic(toks: &[Tok]) -> Option<String> {
    let words = &toks[toks.iter().position(|t| !t.is_in(&LEAD_INS))?..];
    let (determiner, thing) = words.split_first()?;
    let names_a_thing = determiner.is_any(DETERMINERS)
        && !determiner.is_any(&["this", "that"])
        && (1..=TOPIC_WORDS).contains(&thing.len())
        && thing.iter().all(|t| features::is_content(&t.low));
    (names_a_thing && toks.last()?.mark.is_some()).then(|| {
        let rest = thing.iter().map(|t| t.orig.as_str()).collect::<Vec<_>>().join(" ");
        format!("{} {rest}", determiner.low)
    })
}

/// The most words a thing said alone as a topic has after its determiner.
const TOPIC_WORDS: usize = 4;

/// Whether `c` tells the listener they will receive something.
fn receives(toks: &[Tok], c: &Candidate) -> bool {
    c.clause.subject == Subject::You
        && c.clause.form == Form::Future
        && toks.get(c.clause.verb).is_some_and(|t| t.is_in(&RECEIVE))
        && !toks.get(c.clause.verb + 1).is_some_and(|t| t.is("to"))
}

/// What `c` says the listener will receive, when it names it rather than
/// pointing back ("a proper cost comparison", not "it" or "them"): the
/// commitment it is folded into then ends by sending it, so the item keeps
/// the thing the client waits for.
pub(super) fn received_thing(toks: &[Tok], c: &Candidate) -> Option<String> {
    if !receives(toks, c) || toks[c.clause.verb].is("hear") {
        return None;
    }
    let end = object_end(toks, c);
    let named = (c.clause.verb + 1..end)
        .map(|k| &toks[k])
        .any(|t| !is_function_word(&t.low) && !t.is_in(&REPORT_BACK) && !t.is_in(&POINTERS) && !t.is_in(&NO_NEW_THING));
    named.then(|| tokens::text(toks, c.clause.verb + 1, end))
}

#[cfg(test)]
mod tests {
    use time::{Date, Month};

    use super::*;
    use crate::summarise::clauses::clauses;
    use crate::summarise::due;
    use crate::summarise::features::Features;
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

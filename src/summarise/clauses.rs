//! Candidate clauses of a sentence: every place where someone may take on
//! work ("I'll send…", "could you check…", "let's book…", "the next step is
//! to…"), each from its verb to where the clause ends. Coordinated verbs
//! ("…and come back to you by Monday") are clauses of their own that share
//! the subject and form of the first, so each keeps its own deadline. Which
//! candidates are commitments is for the classifier to say.

use super::lexicon::{
    ADVERBS, AFTER_NOUN, CLAUSE_STOPS, LEAD_INS, LEAD_TO_LET, NEW_SUBJECTS, PHRASE_SKIPS, QUESTION_WORDS, STATES,
    STEP_LINKS, is_action_verb, is_function_word, is_general_verb, is_verb_like,
};
use super::subject::{DETERMINERS, subject_at, subject_with_determiner};
use super::tokens::Tok;

/// How the clause puts the action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// "will", "shall", "going to".
    Future,
    /// "want to", "plan to", "would like to", "happy to".
    Intent,
    /// "can".
    Ability,
    /// "need to", "have to", "should", "must".
    Duty,
    /// "could", "might", "may", "would".
    Hedge,
    /// "let's", "let us".
    Lets,
    /// "let me".
    LetMe,
    /// "could you…", "please…", "if you could…", "I need you to…".
    Request,
    /// "shall I…", "do you want me to…", "why don't we…".
    Offer,
    /// "the next step is to…", "action item for Tom:".
    Stated,
    /// A sentence that opens with an action verb: "Send me the figures".
    Imperative,
    /// "I'm sending it tonight".
    Progressive,
}

/// Who the clause says acts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    I,
    We,
    You,
    /// He, she, they: someone said before.
    Other,
    /// A name or a group as said: "Sarah", "the finance team".
    Named(String),
    /// Something that is not a person: "the price will go up".
    Thing,
    /// Not said (a stated action item with no owner).
    Unsaid,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Clause {
    pub form: Form,
    pub subject: Subject,
    /// Where the words that make the clause a candidate begin (its subject,
    /// "let's", "could you"): what came before is its context.
    pub start: usize,
    /// The verb of the clause that opened a run of coordinated ones: the
    /// words `start..head` are the subject and modal they share.
    pub head: usize,
    /// The first word of the action.
    pub verb: usize,
    /// One past its last word.
    pub end: usize,
    /// "will not", "never".
    pub negated: bool,
    /// Coordinated with the clause before: "…and send it on Friday".
    pub conjunct: bool,
}

impl Clause {
    /// A clause that heads its own run, from `start`, its verb at `verb`,
    /// its end not yet set.
    fn new(form: Form, subject: Subject, start: usize, verb: usize, negated: bool) -> Self {
        Clause { form, subject, start, head: verb, verb, end: verb + 1, negated, conjunct: false }
    }
}

/// Any date: a progressive is a plan when it names a time, whatever day.
const PLANNED: time::Date = time::macros::date!(2026 - 01 - 05);
/// Longest clause, in words: longer speech is cut there.
const MAX_WORDS: usize = 32;

/// The candidate clauses of a sentence, in order.
pub fn clauses(toks: &[Tok]) -> Vec<Clause> {
    let mut found: Vec<Clause> = Vec::new();
    let mut k = 0;
    while k < toks.len() {
        let Some(mut clause) = anchor(toks, k) else {
            k += 1;
            continue;
        };
        clause.end = clause_end(toks, clause.verb);
        let next = clause.end.max(k + 1);
        let (form, subject, start, head) = (clause.form, clause.subject.clone(), clause.start, clause.verb);
        // Coordinated verbs: "ask finance…, and come back to you by Monday".
        let mut last = clause;
        loop {
            let Some(verb) = conjunct_at(toks, last.end) else {
                found.push(last);
                break;
            };
            let end = clause_end(toks, verb);
            let conjunct = Clause {
                form,
                subject: subject.clone(),
                start,
                head,
                verb,
                end,
                negated: last.negated,
                conjunct: true,
            };
            found.push(last);
            last = conjunct;
        }
        k = found.last().map_or(next, |c| c.end.max(next));
    }
    found
}

/// The candidate that the words at `k` open, if any (its end not yet set).
fn anchor(toks: &[Tok], k: usize) -> Option<Clause> {
    let low = |i: usize| toks.get(i).map_or("", |t| t.low.as_str());
    let at_start = k == 0 || toks[k - 1].mark.is_some() || toks[..k].iter().all(|t| t.is_in(&LEAD_INS));
    let clause = |form: Form, subject: Subject, verb: usize, negated: bool| {
        let verb = skip_adverbs(toks, verb);
        is_verb_like(low(verb)).then_some(Clause::new(form, subject, k, verb, negated))
    };
    match (low(k), low(k + 1), low(k + 2), low(k + 3)) {
        ("let's", ..) => return clause(Form::Lets, Subject::We, k + 1, false),
        ("let", "us", ..) => return clause(Form::Lets, Subject::We, k + 2, false),
        ("let", "me", ..) => return clause(Form::LetMe, Subject::I, k + 2, false),
        ("can" | "could" | "would" | "will", "you", ..)
            if at_start || toks[k - 1].is("so") || request_in_run(toks, k) =>
        {
            return clause(Form::Request, Subject::You, k + 2, false);
        }
        ("if", "you", "could" | "can" | "would", _) => return clause(Form::Request, Subject::You, k + 3, false),
        ("please", ..) if at_start => return clause(Form::Request, Subject::You, k + 1, false),
        ("i", "need" | "want", "you", "to") | ("i", "would", "like", "you") => {
            let verb = if low(k + 1) == "would" { k + 5 } else { k + 4 };
            return clause(Form::Request, Subject::You, verb, false);
        }
        ("shall" | "should", "i", ..) => return clause(Form::Offer, Subject::I, k + 2, false),
        ("shall", "we", ..) => return clause(Form::Offer, Subject::We, k + 2, false),
        ("do" | "would", "you", "want" | "like", "me") if low(k + 4) == "to" => {
            return clause(Form::Offer, Subject::I, k + 5, false);
        }
        ("want", "me", "to", _) => return clause(Form::Offer, Subject::I, k + 3, false),
        ("why", "don't" | "do", ..) => {
            let (who, verb) = match (low(k + 2), low(k + 3)) {
                ("not", "i") => (Subject::I, k + 4),
                ("not", "we") => (Subject::We, k + 4),
                _ => return None,
            };
            return clause(Form::Offer, who, verb, false);
        }
        ("how", "about", "i" | "we", _) => {
            let who = if low(k + 2) == "i" { Subject::I } else { Subject::We };
            return clause(Form::Offer, who, k + 3, false);
        }
        _ => {}
    }
    if let Some(clause) = stated(toks, k) {
        return Some(clause);
    }
    if at_start && is_action_verb(low(k)) && toks[k].mark.is_none() && imperative_follows(toks, k) {
        return Some(Clause::new(Form::Imperative, Subject::You, k, k, false));
    }
    // "that's what the board will ask": a relative clause tells what
    // someone will do only as "what I'll do is…".
    let phrase = if k > 0 && toks[k - 1].is_any(DETERMINERS) { k - 1 } else { k };
    let relative = phrase > 0 && toks[phrase - 1].is_any(&["what", "which"]);
    let (subject, len) = subject_at(toks, k)?;
    let (form, modal_len, negated) = modal(toks, k + len)?;
    if relative && !toks.get(skip_adverbs(toks, k + len + modal_len)).is_some_and(|t| t.is("do")) {
        return None;
    }
    let verb = skip_adverbs(toks, k + len + modal_len);
    if form == Form::Progressive {
        // "I'm sending it tonight" is a plan; "I'm calling about…" is now.
        let end = clause_end(toks, verb);
        super::due::find(toks, verb, end, PLANNED).as_ref()?;
        return Some(Clause::new(form, subject, k, verb, negated));
    }
    // "I'll be sending": the verb after "be".
    let verb = if low(verb) == "be" && low(verb + 1).ends_with("ing") { verb + 1 } else { verb };
    if !is_verb_like(low(verb)) || toks[k + len..verb].iter().any(|t| t.mark.is_some()) {
        return None;
    }
    Some(Clause::new(form, subject, k, verb, negated))
}

/// An imperative's verb is followed by its object, not by a subject's
/// verb: "Check the numbers" but not "Check is fine".
fn imperative_follows(toks: &[Tok], k: usize) -> bool {
    toks.get(k + 1).is_some_and(|t| !t.is_in(&AFTER_NOUN))
}

/// "The next step is to draft…", "action item for Tom: update…", "next
/// steps: Maria books the room".
fn stated(toks: &[Tok], k: usize) -> Option<Clause> {
    let low = |i: usize| toks.get(i).map_or("", |t| t.low.as_str());
    let len = match (low(k), low(k + 1)) {
        ("next", "step" | "steps") | ("action", "item" | "items" | "point" | "points") => 2,
        ("to-do" | "todo" | "takeaway", _) => 1,
        _ => return None,
    };
    let mut verb = k + len;
    let mut subject = Subject::Unsaid;
    loop {
        match low(verb) {
            word if STEP_LINKS.has(word) => verb += 1,
            "for" if !low(verb + 1).is_empty() => {
                let (who, len) = subject_at(toks, verb + 1).unwrap_or((Subject::Named(toks[verb + 1].orig.clone()), 1));
                subject = who;
                verb += 1 + len;
                if low(verb) == "to" {
                    verb += 1;
                }
            }
            _ => break,
        }
    }
    let verb = skip_adverbs(toks, verb);
    (toks.len() >= verb + 2 && is_verb_like(low(verb))).then_some(Clause::new(Form::Stated, subject, k, verb, false))
}

/// The modal at `at`: its form, its length, and whether it is negated.
pub(super) fn modal(toks: &[Tok], at: usize) -> Option<(Form, usize, bool)> {
    let low = |i: usize| toks.get(at + i).map_or("", |t| t.low.as_str());
    // "will not", "would never", "am not going to"
    let negation = |i: usize| usize::from(matches!(low(i), "not" | "never"));
    let (form, len) = match (low(0), low(1), low(2), low(3)) {
        ("will" | "shall", ..) => {
            let n = negation(1);
            // "will be able to"
            if low(1 + n) == "be" && low(2 + n) == "able" && low(3 + n) == "to" {
                return Some((Form::Future, 4 + n, n > 0));
            }
            return Some((Form::Future, 1 + n, n > 0));
        }
        ("am" | "is" | "are", "going", "to", _) => (Form::Future, 3),
        ("am" | "is" | "are", "not", "going", "to") => return Some((Form::Future, 4, true)),
        ("am" | "is" | "are", "happy" | "glad" | "planning" | "hoping" | "aiming", "to", _) => (Form::Intent, 3),
        ("am" | "is" | "are", "about", "to", _) => (Form::Future, 3),
        ("am" | "is" | "are", verb, ..) if verb.ends_with("ing") && verb.len() > 5 && is_verb_like(verb) => {
            return Some((Form::Progressive, 1, false));
        }
        ("would", "like" | "love", "to", _) => (Form::Intent, 3),
        ("would", "be", "happy" | "glad", "to") => (Form::Intent, 4),
        ("want" | "wants" | "plan" | "plans" | "intend" | "intends" | "aim" | "aims" | "hope" | "hopes", "to", ..) => {
            (Form::Intent, 2)
        }
        ("promise" | "promised" | "undertake" | "commit", "to", ..) => (Form::Intent, 2),
        ("can", ..) => {
            let n = negation(1);
            return Some((Form::Ability, 1 + n, n > 0));
        }
        ("need" | "needs" | "have" | "has" | "got" | "ought", "to", ..) => (Form::Duty, 2),
        ("should" | "must", ..) => {
            let n = negation(1);
            return Some((Form::Duty, 1 + n, n > 0));
        }
        ("could" | "might" | "may" | "would", ..) => {
            let n = negation(1);
            return Some((Form::Hedge, 1 + n, n > 0));
        }
        ("do" | "does", "not", ..) if low(2) == "need" || low(2) == "have" => return None,
        _ => return None,
    };
    Some((form, len, false))
}

fn skip_adverbs(toks: &[Tok], mut at: usize) -> usize {
    loop {
        if let Some(phrase) = PHRASE_SKIPS
            .phrases()
            .find(|p| p.iter().enumerate().all(|(i, w)| toks.get(at + i).is_some_and(|t| t.low == *w)))
        {
            at += phrase.len();
        } else if toks.get(at).is_some_and(|t| ADVERBS.has(&t.low)) {
            at += 1;
        } else {
            return at;
        }
    }
}

/// Where the clause whose verb is at `verb` ends: at a sentence mark, a
/// word that starts another thought ("but", "so we…", ", if…"), a new
/// subject with its own verb, a coordinated verb, or the length cap.
fn clause_end(toks: &[Tok], verb: usize) -> usize {
    let cap = toks.len().min(verb + MAX_WORDS);
    for i in verb..cap {
        let t = &toks[i];
        if i > verb {
            // "thank you" is a reply, "to thank the team" an action.
            if stops_clause(toks, i) || (t.is("thank") && !toks[i - 1].is("to")) {
                return i;
            }
            // ", if you…", "so we can…"
            if (t.is("if") && toks[i - 1].mark == Some(',')) || (t.is("so") && new_subject_at(toks, i + 1)) {
                return i;
            }
            if (t.is("and") || t.is("then") || t.is("or"))
                && (new_subject_at(toks, i + 1) || conjunct_at(toks, i).is_some())
            {
                return i;
            }
            if toks[i - 1].mark == Some(',') && new_subject_at(toks, i) {
                return i;
            }
            if new_subject_at(toks, i) && toks[i - 1].is_any(&["and", "then", "but", "so"]) {
                return i - 1;
            }
            // "…you won't outgrow it in two | yes I'll send it over": a
            // reply with a subject of its own, in a run without marks.
            if request_in_run(toks, i) || (t.is_any(&["yes", "sure", "no"]) && new_subject_at(toks, i + 1)) {
                return i;
            }
            // "…recruiters in april good question let me put…": "let me"
            // and "let's" open a clause of their own unless a verb or a
            // request leads to them ("you'll let me know", "to let us in").
            if t.is_any(&["let", "let's"]) && new_subject_at(toks, i) && !toks[i - 1].is_in(&LEAD_TO_LET) {
                return i;
            }
        }
        if matches!(t.mark, Some('.' | ';' | '?' | '!')) {
            return i + 1;
        }
    }
    cap
}

/// Whether the word at `at` starts another thought. "Cause" does as
/// speech's "because" when a clause follows ("'cause we're away", "cause
/// the van's booked"), not as a noun ("the root cause report", "the cause
/// of the delay").
fn stops_clause(toks: &[Tok], at: usize) -> bool {
    let t = &toks[at];
    if t.is("cause") {
        return toks.get(at + 1).is_some_and(|next| is_function_word(&next.low) && !next.is("of"));
    }
    t.is_in(&CLAUSE_STOPS)
}

/// Whether a subject with a verb of its own starts at `at`: "we will",
/// "Maria is going to", "our finance director has it", "I", "let me".
fn new_subject_at(toks: &[Tok], at: usize) -> bool {
    let Some(t) = toks.get(at) else { return false };
    if t.is_in(&NEW_SUBJECTS) || (t.is("let") && toks.get(at + 1).is_some_and(|n| n.is_any(&["me", "us"]))) {
        return true;
    }
    subject_with_determiner(toks, at).is_some_and(|(subject, len)| {
        subject != Subject::Thing
            && (modal(toks, at + len).is_some() || toks.get(at + len).is_some_and(|t| t.is_in(&STATES)))
    })
}

/// Whether "can you" or "could you" at `k` asks for something in a run of
/// unpunctuated speech, where no mark shows a sentence start: after a
/// noun, not after a question word or a verb ("the landlord will ask about
/// you as a tenant | can you send me your headcount plan", not "what can
/// you do").
fn request_in_run(toks: &[Tok], k: usize) -> bool {
    let Some(before) = k.checked_sub(1).map(|b| &toks[b]) else { return false };
    toks.get(k).is_some_and(|t| t.is_any(&["can", "could"]))
        && toks.get(k + 1).is_some_and(|t| t.is("you"))
        && super::tokens::unmarked(toks)
        && !is_function_word(&before.low)
        && !before.is_in(&QUESTION_WORDS)
        && !is_action_verb(&before.low)
        && !is_general_verb(&before.low)
}

/// The verb of a coordinated clause that starts at `at` ("and come back",
/// "and then send", ", then call"), if one does.
fn conjunct_at(toks: &[Tok], at: usize) -> Option<usize> {
    let low = |i: usize| toks.get(i).map_or("", |t| t.low.as_str());
    let after_comma = at > 0 && toks[at - 1].mark == Some(',');
    let mut i = at;
    if matches!(low(i), "and" | "or") {
        i += 1;
    } else if !(after_comma && low(i) == "then") {
        return None;
    }
    if matches!(low(i), "then" | "also") {
        i += 1;
    }
    let verb = skip_adverbs(toks, i);
    (is_action_verb(low(verb)) || is_general_verb(low(verb))).then_some(verb)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::summarise::tokens::{text, tokenize};

    fn found(sentence: &str) -> Vec<(Form, Subject, String)> {
        let toks = tokenize(sentence);
        clauses(&toks).into_iter().map(|c| (c.form, c.subject, text(&toks, c.verb, c.end))).collect()
    }

    #[test]
    fn coordinated_clauses_split_and_each_keeps_its_deadline() {
        assert_eq!(
            found("I'll ask finance whether the discount can apply from January, and come back to you by Monday."),
            [
                (Form::Future, Subject::I, "ask finance whether the discount can apply from January".into()),
                (Form::Future, Subject::I, "come back to you by Monday".into()),
            ]
        );
        assert_eq!(
            found("i'll send the slides by monday and then set up the call for next week"),
            [
                (Form::Future, Subject::I, "send the slides by monday".into()),
                (Form::Future, Subject::I, "set up the call for next week".into()),
            ]
        );
        assert_eq!(
            found("We'll review the contract and Maria will send the invoice by Friday."),
            [
                (Form::Future, Subject::We, "review the contract".into()),
                (Form::Future, Subject::Named("Maria".into()), "send the invoice by Friday".into()),
            ]
        );
        assert_eq!(
            found("Our structural engineer, Dev Malik, will look at the back wall."),
            [(Form::Future, Subject::Named("Dev Malik".into()), "look at the back wall".into())]
        );
        assert_eq!(
            found("Tomasz, our IT lead, will set up the connector."),
            [(Form::Future, Subject::Named("Tomasz".into()), "set up the connector".into())]
        );
        assert_eq!(found("Good, because that's what the board will ask first."), []);
        assert_eq!(
            found("I'll send you the full root cause report by Wednesday."),
            [(Form::Future, Subject::I, "send you the full root cause report by Wednesday".into())]
        );
        assert_eq!(
            found("I'll send it Monday cause we're away till then."),
            [(Form::Future, Subject::I, "send it Monday".into())]
        );
        assert_eq!(
            found("I'll send the contract and the invoice by Friday."),
            [(Form::Future, Subject::I, "send the contract and the invoice by Friday".into())]
        );
        assert_eq!(
            found("Yes, I'll send it over on Monday, our finance director has it."),
            [(Form::Future, Subject::I, "send it over on Monday".into())]
        );
    }

    #[test]
    fn in_a_run_without_marks_let_me_a_request_and_a_reply_open_clauses_of_their_own() {
        let verbs = |run: &str| found(run).into_iter().map(|(form, _, text)| (form, text)).collect::<Vec<_>>();
        assert!(
            verbs("we're hiring ten more recruiters in april good question let me put the numbers together")
                .contains(&(Form::LetMe, "put the numbers together".into()))
        );
        assert!(
            verbs("the landlord will ask about you as a tenant can you send me your headcount plan")
                .contains(&(Form::Request, "send me your headcount plan".into()))
        );
        assert!(
            verbs("they'll want to know you won't outgrow it in two yes i'll send it over on monday")
                .contains(&(Form::Future, "send it over on monday".into()))
        );
        assert_eq!(verbs("you'll let me know by friday"), [(Form::Future, "let me know by friday".into())]);
        assert!(
            verbs("i'll ask what else can you do for the launch").iter().all(|(form, _)| *form != Form::Request),
            "a question word keeps can you inside the clause"
        );
        assert!(
            verbs("I'll ask about the tenant. Can you send me the plan?")
                .iter()
                .any(|(form, _)| *form == Form::Request)
        );
    }

    #[test]
    fn each_form_of_taking_on_work_is_a_candidate() {
        let forms = |s: &str| found(s).into_iter().map(|(f, ..)| f).collect::<Vec<_>>();
        assert_eq!(forms("Let me put the numbers together for you."), [Form::LetMe]);
        assert_eq!(forms("Could you send us the logo files?"), [Form::Request]);
        assert_eq!(forms("Send me the figures by Friday."), [Form::Imperative]);
        assert_eq!(forms("Shall I book the room?"), [Form::Offer]);
        assert_eq!(forms("The next step is to draft the contract."), [Form::Stated]);
        assert_eq!(forms("I'm sending the contract over tonight."), [Form::Progressive]);
        assert_eq!(forms("We need to confirm the delivery date."), [Form::Duty]);
        assert_eq!(forms("the finance team is gonna review the numbers"), [Form::Future]);
        assert_eq!(forms("If we went with the bigger room we would book it for the week."), [Form::Hedge]);
        assert_eq!(forms("We went hiking and the weather was lovely."), []);
    }
}

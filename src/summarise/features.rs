//! What the classifier knows of a candidate clause besides its embedding:
//! its form and subject, whether it names a deadline and a concrete
//! object, and the marks of the hard negatives (a hypothetical, a past or
//! habitual action, a question, an offer declined, a pleasantry).

use super::clauses::{Clause, Form, Subject};
use super::lexicon::{
    ACCEPT, CONDITIONALS, DECLINE, HABITUAL, HEDGES, LIKELY_ACCEPT, OPTIONS, PARTICLES, PAST_MARKS, PRONOUNS,
    PhraseClass, RECAP_CUES, REFUSE, is_action_verb, is_function_word, is_general_verb, is_stative_verb, is_stopword,
};
use super::meeting::Meeting;
use super::text::ritual_share;
use super::tokens::{self, Tok};

/// [`Features`] and [`NAMES`] from one list, so the fields and the names
/// cannot drift apart: the weights file names them too, so weights trained
/// for another list are refused.
macro_rules! features {
    ($($name:ident),* $(,)?) => {
        /// A candidate clause's features, read by name so that a misspelt
        /// one does not compile.
        #[derive(Debug, Clone, Copy, Default, PartialEq)]
        pub struct Features {
            $(pub $name: f32,)*
        }

        /// The features' names, in the order the classifier reads them.
        pub const NAMES: &[&str] = &[$(stringify!($name)),*];

        impl Features {
            /// The features in the order of [`NAMES`], as the classifier reads them.
            pub fn values(&self) -> [f32; COUNT] {
                [$(self.$name),*]
            }
        }
    };
}

features!(
    form_future,
    form_intent,
    form_ability,
    form_duty,
    form_hedge,
    form_lets,
    form_let_me,
    form_request,
    form_offer,
    form_stated,
    form_imperative,
    form_progressive,
    subject_i,
    subject_we,
    subject_you,
    subject_other,
    subject_named,
    subject_thing,
    verb_action,
    verb_general,
    verb_stative,
    deadline,
    deadline_dated,
    object_words,
    object_pronoun_only,
    clause_length,
    question,
    conditional,
    hypothetical,
    past,
    habitual,
    negated,
    pleasantry,
    hedged,
    accepted,
    declined,
    conjunct,
    recap,
    options,
    first_person_commits,
    request_accepted,
    offer_declined,
    you_will,
    question_not_request,
    duty_we,
    particle,
);

pub const COUNT: usize = NAMES.len();

/// How far back a recap cue still counts, in sentences.
const RECAP_REACH: usize = 6;

/// The features of `clause`, found in sentence `s` of `meeting`; `due` and
/// `dated`: whether it names a deadline, and one that resolves to a date.
pub fn of(meeting: &Meeting, s: usize, clause: &Clause, due: bool, dated: bool) -> Features {
    let toks = &meeting.sentences[s].toks;
    let form = |form: Form| flag(clause.form == form);
    let subject = |subject: Subject| flag(clause.subject == subject);
    let verb = toks.get(clause.verb).map_or("", |t| t.low.as_str());
    let verb = verb.strip_suffix("ing").filter(|_| clause.form == Form::Progressive).unwrap_or(verb);
    let action = is_action_verb(verb) || is_action_verb(&format!("{verb}e"));
    let object: Vec<&Tok> = toks[(clause.verb + 1).min(clause.end)..clause.end].iter().collect();
    let content = object.iter().filter(|t| is_content(&t.low)).count();
    let question = is_question(toks);
    let before = &toks[..clause.verb];
    let conditional =
        before.iter().any(|t| t.is_in(&CONDITIONALS)) || toks[clause.verb..clause.end].iter().any(|t| t.is("if"));
    let would = toks[clause.start..clause.verb].iter().any(|t| t.is_any(&["would", "could", "might"]));
    let past = toks.iter().any(|t| t.is_in(&PAST_MARKS))
        || before.windows(2).any(|w| w[0].is_any(&["have", "has", "had"]) && w[1].low.ends_with("ed"));
    let reply = meeting.reply(s).map(|r| &meeting.sentences[r].toks[..]);
    let sure = reply.is_some_and(takes_up);
    let declined = reply.is_some_and(turns_down);
    let accepted = sure || (!declined && reply.is_some_and(|r| opens_with(r, &LIKELY_ACCEPT)));
    let recap = (s.saturating_sub(RECAP_REACH)..=s).any(|i| {
        let t = &meeting.sentences[i].toks;
        t.iter().any(|w| w.is_in(&RECAP_CUES))
            || t.windows(2).any(|w| w[0].is("next") && w[1].is_any(&["steps", "step"]))
    });
    let committing = matches!(clause.form, Form::Future | Form::Intent | Form::LetMe | Form::Lets | Form::Progressive);
    let asked = matches!(clause.form, Form::Request | Form::Imperative | Form::Offer);
    Features {
        form_future: form(Form::Future),
        form_intent: form(Form::Intent),
        form_ability: form(Form::Ability),
        form_duty: form(Form::Duty),
        form_hedge: form(Form::Hedge),
        form_lets: form(Form::Lets),
        form_let_me: form(Form::LetMe),
        form_request: form(Form::Request),
        form_offer: form(Form::Offer),
        form_stated: form(Form::Stated),
        form_imperative: form(Form::Imperative),
        form_progressive: form(Form::Progressive),
        subject_i: subject(Subject::I),
        subject_we: subject(Subject::We),
        subject_you: subject(Subject::You),
        subject_other: subject(Subject::Other),
        subject_named: flag(matches!(clause.subject, Subject::Named(_))),
        subject_thing: flag(matches!(clause.subject, Subject::Thing | Subject::Unsaid)),
        verb_action: flag(action),
        verb_general: flag(!action && is_general_verb(verb)),
        verb_stative: flag(!action && is_stative_verb(verb)),
        deadline: flag(due),
        deadline_dated: flag(dated),
        object_words: content.min(4) as f32 / 4.0,
        object_pronoun_only: flag(content == 0 && object.iter().any(|t| t.is_in(&PRONOUNS))),
        clause_length: (clause.end - clause.verb).min(20) as f32 / 20.0,
        question: flag(question),
        conditional: flag(conditional),
        hypothetical: flag(conditional && (would || clause.form == Form::Hedge)),
        past: flag(past),
        habitual: flag(toks.iter().any(|t| t.is_in(&HABITUAL))),
        negated: flag(clause.negated || before.iter().rev().take(4).any(|t| t.is_any(&["not", "never", "no"]))),
        pleasantry: ritual_share(&meeting.sentences[s].text),
        hedged: flag(before.iter().any(|t| t.is_in(&HEDGES))),
        accepted: flag(accepted),
        declined: flag(declined),
        conjunct: flag(clause.conjunct),
        recap: flag(recap),
        options: flag(toks.iter().any(|t| t.is_in(&OPTIONS))),
        first_person_commits: flag(committing && matches!(clause.subject, Subject::I | Subject::We)),
        request_accepted: flag(asked && accepted),
        offer_declined: flag(clause.form == Form::Offer && declined),
        you_will: flag(clause.subject == Subject::You && clause.form == Form::Future),
        question_not_request: flag(question && !asked),
        duty_we: flag(clause.form == Form::Duty && clause.subject == Subject::We),
        particle: flag(object.iter().take(3).any(|t| t.is_in(&PARTICLES))),
    }
}

fn flag(on: bool) -> f32 {
    if on { 1.0 } else { 0.0 }
}

/// A word that names something: not a function word, a pronoun or filler.
pub fn is_content(word: &str) -> bool {
    word.chars().count() > 2
        && !is_function_word(word)
        && !PRONOUNS.has(word)
        && !is_stopword(word)
        && !super::text::is_filler(word)
}

/// A question: a question mark, or speech that opens like one ("do you…",
/// "what if…") when the transcriber wrote no marks.
fn is_question(toks: &[Tok]) -> bool {
    if toks.last().is_some_and(|t| t.mark == Some('?')) {
        return true;
    }
    if !super::tokens::unmarked(toks) {
        return false;
    }
    let open =
        |a: &[&str], b: &[&str]| toks.first().is_some_and(|t| t.is_any(a)) && toks.get(1).is_some_and(|t| t.is_any(b));
    open(
        &["do", "did", "does", "is", "are", "was", "were", "have", "has"],
        &["you", "we", "they", "it", "i", "he", "she", "that", "there"],
    ) || open(
        &["what", "how", "why", "when", "where", "who", "which"],
        &["do", "did", "does", "is", "are", "about", "if", "would", "should"],
    )
}

/// Whether `toks` opens (after a filler or two) with one of `phrases`.
fn opens_with(toks: &[Tok], phrases: &PhraseClass) -> bool {
    opening(toks, phrases) > 0
}

/// How many words of the longest of `phrases` that `toks` open with (after
/// a filler or two); 0 when none.
fn opening(toks: &[Tok], phrases: &PhraseClass) -> usize {
    tokens::phrase_at(toks, after_fillers(toks), phrases).unwrap_or(0)
}

/// Where `toks` starts after a filler or two ("oh, well, …").
fn after_fillers(toks: &[Tok]) -> usize {
    toks.iter()
        .take(3)
        .position(|t| !t.is_any(&["oh", "um", "uh", "well", "erm", "ah", "and", "so", "honestly"]))
        .unwrap_or(0)
}

/// How many words of a reply may come before what it says of the request.
const REPLY_OPENING: usize = 6;

/// Where the first of `phrases` said within the first words of `toks`
/// ends; a one-word phrase only as the very first word.
fn said_early(toks: &[Tok], phrases: &PhraseClass) -> Option<usize> {
    let opening = &toks[..toks.len().min(REPLY_OPENING)];
    (0..opening.len()).find_map(|at| {
        phrases
            .phrases()
            .find(|p| {
                (p.len() > 1 || at == 0)
                    && p.iter().enumerate().all(|(i, w)| opening.get(at + i).is_some_and(|t| t.is(w)))
            })
            .map(|p| at + p.len())
    })
}

/// Whether a reply says early on that it declines: one of [`DECLINE`] or
/// [`REFUSE`], or a bare "no" or "don't" as its first words ("no need"
/// anywhere, and "I don't mind" no refusal).
fn declines_early(toks: &[Tok]) -> bool {
    let at = after_fillers(toks);
    said_early(toks, &DECLINE).is_some()
        || said_early(toks, &REFUSE).is_some()
        || toks.get(at).is_some_and(|t| t.is("no"))
        || (toks.get(at).is_some_and(|t| t.is("do")) && toks.get(at + 1).is_some_and(|t| t.is("not")))
}

/// Whether a reply turns down what was asked or offered, early on and
/// without first surely taking it up: "No need", "Please don't".
pub fn turns_down(toks: &[Tok]) -> bool {
    !takes_up(toks) && declines_early(toks)
}

/// Whether a reply refuses even a plain promise, early on: "No need, I've
/// read it twice", "Don't bother". "No need to rush" takes it up.
pub fn refuses(toks: &[Tok]) -> bool {
    !takes_up(toks) && said_early(toks, &REFUSE).is_some_and(|end| !toks.get(end).is_some_and(|t| t.is("to")))
}

/// Whether a sentence opens by surely taking up what was asked: "Sure,
/// …", "Yes, I'll…", "Of course", "No problem"; not when a longer refusal
/// opens it ("please don't" is more than "please").
pub fn takes_up(toks: &[Tok]) -> bool {
    opening(toks, &ACCEPT) > opening(toks, &DECLINE).max(opening(toks, &REFUSE))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::summarise::tokens::tokenize;

    #[test]
    fn a_reply_opening_with_a_bare_dont_turns_an_offer_down_and_i_dont_mind_does_not() {
        for reply in
            ["Don't, honestly, we've had three already.", "Honestly, don't, it'll go in the bin.", "Please don't."]
        {
            assert!(turns_down(&tokenize(reply)), "{reply}");
        }
        for reply in ["I don't mind, send it over.", "Sure, thanks.", "That would be great."] {
            assert!(!turns_down(&tokenize(reply)), "{reply}");
        }
    }

    #[test]
    fn no_need_refuses_even_a_plain_promise_and_no_need_to_rush_takes_it_up() {
        for reply in ["No need, I've read it twice.", "Oh, don't bother, we have one.", "We already have one, thanks."]
        {
            assert!(refuses(&tokenize(reply)), "{reply}");
        }
        for reply in ["No need to rush.", "That's fine.", "No, Monday is better.", "Sure, no need to print it."] {
            assert!(!refuses(&tokenize(reply)), "{reply}");
        }
    }
}

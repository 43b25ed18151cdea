//! Who a commitment belongs to, as far as the words settle it: the speaker
//! of "I'll…" when speakers are labelled, the one asked by "could you…",
//! a name said, the consultant and the client by their names.

use super::clauses::{Clause, Subject};
use super::meeting::{Meeting, MeetingContext};
use crate::domain::action_item::Who;

/// Who will do what `clause` of sentence `s` says. `replier`: the
/// sentence that took it up, when one did.
pub fn of(meeting: &Meeting, s: usize, clause: &Clause, replier: Option<usize>, context: &MeetingContext) -> Who {
    let speaker = meeting.speaker(s);
    match &clause.subject {
        Subject::I => match speaker {
            Some(name) => named(name, context),
            None => addressed_before(meeting, s).map_or(Who::Unattributed, |name| named(&name, context)),
        },
        Subject::We => match speaker.map(|name| named(name, context)) {
            // The client's "we" is the client's side.
            Some(Who::Client) => Who::Client,
            _ => Who::We,
        },
        Subject::You => addressee(meeting, s, replier, context),
        Subject::Named(name) => named(name, context),
        Subject::Thing => {
            // In lower-case speech a one-word subject that commits is most
            // likely a name: "sarah will send…". Where speech is cased, a
            // name has its capital.
            let toks = &meeting.sentences[s].toks;
            let word = &toks[clause.start];
            let uncased = toks.iter().all(|t| t.orig == t.low || t.low == "i");
            if clause.start + 1 < toks.len() && word.low.chars().all(char::is_alphabetic) && uncased {
                named(&super::text::capitalise(&word.low), context)
            } else {
                Who::Unattributed
            }
        }
        Subject::Other | Subject::Unsaid => Who::Unattributed,
    }
}

/// Who "you" is: the one named in the sentence ("Mike, could you…"), the
/// one who answered, or the other side of a labelled two-sided talk.
fn addressee(meeting: &Meeting, s: usize, replier: Option<usize>, context: &MeetingContext) -> Who {
    if let Some(name) = vocative(meeting, s) {
        return named(&name, context);
    }
    let speaker = meeting.speaker(s);
    if let Some(reply) = replier
        && let Some(who) = meeting.speaker(reply).filter(|w| Some(*w) != speaker)
    {
        return named(who, context);
    }
    match speaker.map(|name| named(name, context)) {
        Some(Who::Me) => Who::Client,
        Some(Who::Client) => Who::Me,
        Some(_) => {
            let mut others: Vec<&str> =
                meeting.turns.iter().filter_map(|t| t.speaker.as_deref()).filter(|w| Some(*w) != speaker).collect();
            others.sort_unstable();
            others.dedup();
            match others.as_slice() {
                [only] => named(only, context),
                _ => Who::Unattributed,
            }
        }
        // Without labels "you" names nobody the words settle.
        None => Who::Unattributed,
    }
}

/// Words that open or close a sentence with a comma the way a name does
/// ("Secondly, could you…", "Honestly, you'll…"), but name nobody; number
/// words ("First, …") are told by `numbers`.
const DISCOURSE: &[&str] = &[
    "okay",
    "so",
    "right",
    "great",
    "thanks",
    "yes",
    "sure",
    "please",
    "firstly",
    "secondly",
    "thirdly",
    "finally",
    "lastly",
    "next",
    "then",
    "also",
    "honestly",
    "actually",
    "anyway",
    "well",
    "basically",
    "obviously",
    "frankly",
    "personally",
    "otherwise",
    "meanwhile",
    "however",
    "instead",
    "besides",
    "again",
    "alright",
    "perfect",
    "fine",
    "good",
    "lovely",
    "brilliant",
    "sorry",
    "look",
    "listen",
    "hello",
    "hi",
    "now",
    "today",
    "tomorrow",
];

/// A name the sentence calls out: "Mike, could you…", "…by Friday, Anna?".
fn vocative(meeting: &Meeting, s: usize) -> Option<String> {
    let toks = &meeting.sentences[s].toks;
    let is_name = |i: usize| {
        toks.get(i).is_some_and(|t| {
            t.orig.starts_with(|c: char| c.is_uppercase())
                && t.low != "i"
                && !super::lexicon::is_function_word(&t.low)
                && !DISCOURSE.contains(&t.low.as_str())
                && !super::numbers::is_numeric(&t.low)
        })
    };
    let first = toks.iter().position(|t| !t.is_any(&["so", "and", "okay", "ok", "right", "now", "oh"])).unwrap_or(0);
    if is_name(first) && toks[first].mark == Some(',') {
        return Some(toks[first].orig.clone());
    }
    let last = toks.len().checked_sub(1)?;
    if last > 0 && is_name(last) && toks[last - 1].mark == Some(',') {
        return Some(toks[last].orig.clone());
    }
    None
}

/// The name a request just before sentence `s` addressed, when `s` takes
/// it up: "Anna, could you send the plans?" "Sure, I'll send them."
fn addressed_before(meeting: &Meeting, s: usize) -> Option<String> {
    // Only a sentence that speaks to someone ("you") asks them anything:
    // "Ha, it does." names nobody who then says "I'll…".
    let speaks_to = |i: usize| meeting.sentences[i].toks.iter().any(|t| t.is("you"));
    (s.saturating_sub(2)..s).rev().filter(|&i| speaks_to(i)).find_map(|i| vocative(meeting, i))
}

/// `name` as the consultant, the client, or a person of its own.
pub fn named(name: &str, context: &MeetingContext) -> Who {
    let matches = |full: &Option<String>| full.as_deref().is_some_and(|full| same_person(name, full));
    match (matches(&context.me), matches(&context.client)) {
        (true, false) => Who::Me,
        (false, true) => Who::Client,
        (true, true) if context.me.as_deref().is_some_and(|m| m.eq_ignore_ascii_case(name)) => Who::Me,
        (true, true) if context.client.as_deref().is_some_and(|c| c.eq_ignore_ascii_case(name)) => Who::Client,
        _ => Who::Person(name.to_string()),
    }
}

/// Whether `said` ("Anna", "Anna L.", "Lopez") names `full` ("Anna Lopez"):
/// a word of two letters or more in common.
fn same_person(said: &str, full: &str) -> bool {
    let words = |text: &str| -> Vec<String> {
        text.split(|c: char| !c.is_alphanumeric() && c != '\'' && c != '-')
            .filter(|w| w.chars().count() >= 2)
            .map(str::to_lowercase)
            .collect()
    };
    let full = words(full);
    words(said).iter().any(|w| full.contains(w))
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;
    use crate::summarise::clauses::clauses;

    fn context() -> MeetingContext {
        MeetingContext { date: date!(2026 - 03 - 11), me: Some("Anna Lopez".into()), client: Some("Mike Stone".into()) }
    }

    /// Who each candidate of the transcript belongs to, in order.
    fn owners(transcript: &str) -> Vec<Who> {
        let meeting = Meeting::new(transcript);
        let mut owners = Vec::new();
        for (s, sentence) in meeting.sentences.iter().enumerate() {
            for clause in clauses(&sentence.toks) {
                owners.push(of(&meeting, s, &clause, meeting.reply(s), &context()));
            }
        }
        owners
    }

    #[test]
    fn a_speaker_label_makes_i_the_speakers_and_you_the_other_sides() {
        let got = owners(
            "Anna: I'll send the floor plan by Tuesday.\nMike: Great. Could you add the two meeting rooms?\nAnna: Sure.\nMike: We'll sign next week.\nTom: I'll book the van.",
        );
        assert_eq!(got, [Who::Me, Who::Me, Who::Client, Who::Person("Tom".into())]);
    }

    #[test]
    fn without_labels_i_is_unattributed_unless_a_name_settles_it() {
        let got = owners("I'll send the floor plan by Tuesday. Sarah will book the room.");
        assert_eq!(got, [Who::Unattributed, Who::Person("Sarah".into())]);
        let got = owners("Mike, could you send us the logo files? Sure, I'll send them tonight.");
        assert_eq!(got, [Who::Client, Who::Client]);
        let got = owners("we will test the backup on monday. sarah will send the forecast");
        assert_eq!(got, [Who::We, Who::Person("Sarah".into())]);
        let got = owners("Ha, it does. Well, I'll keep this quick. The lead will book it.");
        assert_eq!(got, [Who::Unattributed, Who::Unattributed]);
    }

    #[test]
    fn a_trade_or_a_profession_that_will_act_owns_what_it_will_do() {
        let got =
            owners("The surveyor will send the report by Friday. Our plumber is going to fix the boiler on Monday.");
        assert_eq!(got, [Who::Person("surveyor".into()), Who::Person("plumber".into())]);
    }

    #[test]
    fn a_list_word_or_an_aside_before_a_comma_is_no_name() {
        let got = owners("First, could you send Anna some dates by Wednesday? Honestly, you should check the reports.");
        assert!(got.iter().all(|who| !matches!(who, Who::Person(_))), "{got:?}");
    }

    #[test]
    fn names_match_the_consultant_and_the_client_by_any_of_their_names() {
        assert_eq!(named("Anna", &context()), Who::Me);
        assert_eq!(named("Mr. Stone", &context()), Who::Client);
        assert_eq!(named("Maria", &context()), Who::Person("Maria".into()));
    }
}

//! A deadline cut off from its clause. Vosk writes one unpunctuated run,
//! which the splitter cuts near a sentence's length; a long commitment may
//! be cut before its deadline ("I'll get you a firm quote on the twelve
//! vans from Ford | and Renault by Tuesday"). The deadline is then the
//! first one the next piece says before a new thought starts, or after an
//! aside once "and" takes the clause's verb up again ("I'll ask Raj to join
//! | because he'll be managing the team and confirm by Friday").

use time::Date;

use super::due::{self, Due};
use super::lexicon::{is_action_verb, is_general_verb};
use super::meeting::Meeting;
use super::tokens::Tok;

/// How far into the next piece the deadline may come.
const REACH: usize = 15;
/// How far into the next piece an aside may run before "and" resumes.
const ASIDE: usize = 12;
/// Words that start a new thought: a subject of its own, a link.
const NEW_THOUGHT: &[&str] =
    &["i", "we", "they", "he", "she", "it", "you", "well", "anyway", "actually", "but", "because"];
/// Words that answer: the other side has started to speak.
const REPLIES: &[&str] = &[
    "okay",
    "ok",
    "great",
    "thanks",
    "thank",
    "good",
    "yes",
    "no",
    "right",
    "perfect",
    "brilliant",
    "lovely",
    "sure",
    "fine",
    "excellent",
    "sorry",
];
/// Words that turn to another topic.
const TURNS: &[&str] = &["so", "anyway", "well", "now", "also", "actually", "meanwhile"];

/// Whether sentence `s`, up to its word `upto`, goes on with the sentence
/// before: the splitter cut a run there, and nothing before `upto` replies
/// or turns to another topic ("…with the docks | and without, and you'll
/// have it by Thursday", not "…no problem | so to sum up, you'll get…").
pub fn goes_on(meeting: &Meeting, s: usize, upto: usize) -> bool {
    meeting.cut_before(s) && !meeting.sentences[s].toks[..upto].iter().any(|t| t.is_any(REPLIES) || t.is_any(TURNS))
}

/// Words after which a pronoun is an object, not a new subject ("back to
/// you before Christmas").
const TAKES_OBJECT: &[&str] = &["to", "with", "for", "at", "from", "of", "about", "by", "on", "in", "give", "send"];

/// The deadline the piece after sentence `s` carries for a clause that
/// runs to the end of `s`, when `s` ends without a sentence mark inside a
/// turn (a cut, not the end of what was said). Its words stand at the end
/// of the clause: none of the clause's own words is the deadline's.
pub fn deadline(meeting: &Meeting, s: usize, clause_end: usize, date: Date) -> Option<Due> {
    if clause_end < meeting.sentences[s].toks.len() || s + 1 >= meeting.sentences.len() || !meeting.cut_before(s + 1) {
        return None;
    }
    let next = &meeting.sentences[s + 1].toks;
    let stop = new_thought(next, 0);
    let found = due::find(next, 0, stop, date).or_else(|| {
        let resumed = (stop..next.len().min(ASIDE))
            .take_while(|&i| !next[i].is_any(REPLIES) && next[i].mark.is_none())
            .find(|&i| {
                next[i].is("and") && next.get(i + 1).is_some_and(|t| is_action_verb(&t.low) || is_general_verb(&t.low))
            })?;
        due::find(next, resumed, new_thought(next, resumed + 2), date)
    })?;
    Some(Due { start: clause_end, end: clause_end, ..found })
}

/// Where the first new thought at or after `from` starts in `toks`, within
/// reach of `from`.
fn new_thought(toks: &[Tok], from: usize) -> usize {
    let reach = toks.len().min(from + REACH);
    (from..reach)
        .find(|&i| {
            toks[i].is_any(REPLIES) || (toks[i].is_any(NEW_THOUGHT) && !(i > 0 && toks[i - 1].is_any(TAKES_OBJECT)))
        })
        .unwrap_or(reach)
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    /// The deadline carried to the end of the piece that says `said`.
    fn carried(transcript: &str, said: &str) -> Option<String> {
        let meeting = Meeting::new(transcript);
        let s = meeting.sentences.iter().position(|s| s.text.contains(said)).unwrap();
        deadline(&meeting, s, meeting.sentences[s].toks.len(), date!(2026 - 06 - 10)).map(|d| d.text)
    }

    #[test]
    fn a_deadline_cut_off_by_the_splitter_is_carried_back_to_its_clause() {
        let run = "fair enough electric only then i'll send you a spec sheet for the hybrids anyway don't bother \
                   honestly i'll get you a firm quote on the twelve vans from ford and renault by tuesday with \
                   delivery dates we delivered forty vans to the council in march so the manufacturers know us";
        let meeting = Meeting::new(run);
        assert!(meeting.sentences.len() > 1 && !meeting.sentences.iter().any(|s| s.text.contains("ford and renault")));
        assert_eq!(carried(run, "firm quote").as_deref(), Some("by tuesday"));
    }

    #[test]
    fn a_deadline_after_an_aside_is_carried_when_and_takes_the_verb_up_again() {
        let run = "understood is the role fully remote two of them asked hybrid two days in the office fine that's \
                   what i told them and for the second round i'll ask raj to join the second interviews because \
                   he'll be managing whoever we hire and confirm his availability by friday can you get references";
        let meeting = Meeting::new(run);
        assert!(meeting.sentences.iter().any(|s| s.text.starts_with("because")), "a cut before because");
        assert_eq!(carried(run, "ask raj").as_deref(), Some("by friday"));
        let answered = run.replace("whoever we hire and confirm", "whoever we hire sure and confirm");
        assert_eq!(carried(&answered, "ask raj"), None, "a reply ends the aside: the other side took it up");
    }

    #[test]
    fn a_cut_goes_on_with_the_sentence_before_until_a_reply_or_a_new_topic() {
        let run = "it works out about fifteen percent more expensive overall then it's not for us we've got the cash \
                   this year and the board prefers to own equipment let's just buy them agreed buying fine then let \
                   me put together a quote for both models with the docks and without and you'll have it by thursday \
                   i already checked stock this morning";
        let meeting = Meeting::new(run);
        let next = meeting.sentences.iter().position(|s| s.text.starts_with("and without")).expect("a cut");
        assert!(meeting.cut_before(next), "{:?}", meeting.texts());
        assert!(goes_on(&meeting, next, 3));
        let answered = Meeting::new(&run.replace("without and you'll", "without okay and you'll"));
        let next = answered.sentences.iter().position(|s| s.text.contains("you'll have it")).unwrap();
        let you = answered.sentences[next].toks.iter().position(|t| t.is("you")).unwrap();
        assert!(answered.cut_before(next) && !goes_on(&answered, next, you), "{:?}", answered.texts());
        let marked = Meeting::new("I'll put together a quote for both models.\nYou'll have it by Thursday.");
        assert!(!marked.cut_before(1), "a new line is a new turn");
        assert!(!Meeting::new("I'll put together a quote. You'll have it by Thursday.").cut_before(1));
    }

    #[test]
    fn no_deadline_is_carried_over_a_sentence_mark_or_a_new_thought() {
        assert_eq!(carried("I'll get you a firm quote on the vans.\nBy Tuesday we'll know more.", "firm quote"), None);
        let run = "fair enough electric only then i'll send you a spec sheet for the hybrids anyway don't bother \
                   honestly i'll get you a firm quote on the twelve vans from ford okay we'll see renault by tuesday \
                   with delivery dates we delivered forty vans to the council in march so the manufacturers know us";
        let meeting = Meeting::new(run);
        assert!(meeting.sentences.iter().any(|s| s.text.ends_with("from ford")), "a cut after ford");
        assert_eq!(carried(run, "firm quote"), None);
    }
}

//! Commitments and actions in a sentence of speech ("I'll send…", "Sarah is
//! going to…", "let's schedule…", "the next step is…"), found by the words
//! around an action verb, and cleaned into one short next-step line that
//! keeps who, what and when.

use super::text::{capitalise, is_filler, is_stopword};

/// A commitment found in a sentence: how sure the pattern is (0–1) and the
/// next-step line made from it.
#[derive(Debug, Clone, PartialEq)]
pub struct Cue {
    pub score: f32,
    pub line: String,
}

/// Verbs that name work someone does after the meeting (base forms).
const ACTION_VERBS: &[&str] = &[
    "analyse",
    "analyze",
    "approve",
    "arrange",
    "assess",
    "audit",
    "benchmark",
    "book",
    "build",
    "calculate",
    "call",
    "cancel",
    "check",
    "circle",
    "circulate",
    "clarify",
    "collect",
    "compare",
    "compile",
    "complete",
    "confirm",
    "connect",
    "contact",
    "coordinate",
    "create",
    "deliver",
    "deploy",
    "design",
    "document",
    "draft",
    "email",
    "escalate",
    "estimate",
    "evaluate",
    "finalise",
    "finalize",
    "finish",
    "fix",
    "follow",
    "forward",
    "gather",
    "hire",
    "install",
    "introduce",
    "investigate",
    "invite",
    "invoice",
    "launch",
    "loop",
    "mail",
    "meet",
    "migrate",
    "monitor",
    "negotiate",
    "notify",
    "order",
    "organise",
    "organize",
    "pay",
    "phone",
    "plan",
    "post",
    "prepare",
    "present",
    "propose",
    "provide",
    "publish",
    "quote",
    "reach",
    "recommend",
    "release",
    "remind",
    "reschedule",
    "research",
    "reserve",
    "review",
    "revise",
    "ring",
    "schedule",
    "send",
    "set",
    "share",
    "ship",
    "sign",
    "submit",
    "summarise",
    "summarize",
    "test",
    "track",
    "train",
    "transfer",
    "update",
    "upload",
    "validate",
    "verify",
    "write",
];
/// Verbs that are work after the meeting only with a time ("talk to them on
/// Monday") or a particle ("get back to you", "look into it"); otherwise they
/// are the meeting's own agenda ("let's look at the numbers").
const GENERAL_VERBS: &[&str] = &[
    "ask", "bring", "come", "figure", "find", "get", "give", "keep", "let", "look", "make", "move", "put", "run",
    "speak", "start", "talk", "work",
];
const PARTICLES: &[&str] = &["back", "into", "together", "out", "know", "posted", "updated", "touch"];

const PERSONS: &[&str] = &["i", "we", "you", "he", "she", "they"];
/// Nouns that name people acting together ("the finance team will…").
const GROUPS: &[&str] = &[
    "team",
    "department",
    "office",
    "group",
    "board",
    "committee",
    "side",
    "lawyers",
    "lawyer",
    "accountant",
    "accountants",
    "manager",
    "managers",
    "engineers",
    "staff",
    "partner",
    "partners",
    "assistant",
    "folks",
    "people",
];
const DETERMINERS: &[&str] = &["the", "our", "your", "their", "my", "his", "her"];
/// Words between a modal and its verb that change nothing ("will also send").
const ADVERBS: &[&str] = &[
    "also",
    "then",
    "just",
    "definitely",
    "probably",
    "quickly",
    "personally",
    "actually",
    "first",
    "certainly",
    "really",
    "please",
    "both",
    "all",
    "still",
    "immediately",
    "again",
];
const PHRASE_SKIPS: &[&[&str]] = &[&["try", "to"], &["be", "able", "to"], &["go", "ahead", "and"]];
/// Words that end the clause of a commitment.
const STOPPERS: &[&str] = &[
    "but", "because", "cause", "although", "though", "whereas", "unless", "so", "okay", "ok", "alright", "yeah",
    "anyway", "which", "anything", "great", "thanks", "right",
];
/// Words that go on saying when after a time word ("Monday morning", "Friday
/// at noon"); any other word after a time word starts something else, which
/// matters in unpunctuated speech.
const TIME_GOES_ON: &[&str] = &["morning", "afternoon", "evening", "night", "at", "noon", "latest"];
/// Words that say when ("may" is more often the modal than the month).
const TIME_WORDS: &[&str] = &[
    "today",
    "tonight",
    "tomorrow",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "weekend",
    "week",
    "month",
    "quarter",
    "eod",
    "eow",
    "asap",
    "morning",
    "afternoon",
    "noon",
    "deadline",
    "january",
    "february",
    "march",
    "april",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "q1",
    "q2",
    "q3",
    "q4",
];
/// Openers of a stated action item: the rest of the sentence is the action.
const CUE_PHRASES: &[&[&str]] = &[
    &["action", "item"],
    &["action", "items"],
    &["next", "step"],
    &["next", "steps"],
    &["todo"],
    &["to-do"],
    &["follow-up", "item"],
];
/// Longest next-step line, in words.
const MAX_LINE_WORDS: usize = 20;

/// A word of the sentence: as written (marks removed), lower case, and the
/// punctuation mark that followed it.
#[derive(Debug)]
struct Tok {
    orig: String,
    low: String,
    mark: Option<char>,
}

/// What a pattern found: its score, who acts (when said and not the
/// speakers themselves), and where the action's words begin.
struct Found {
    score: f32,
    who: Option<String>,
    start: usize,
}

/// The strongest commitment in `sentence`, if any.
pub fn detect(sentence: &str) -> Option<Cue> {
    let toks = tokenize(sentence);
    let question = sentence.trim_end().ends_with('?');
    let found = (0..toks.len())
        .filter_map(|k| {
            statement(&toks, k, question)
                .or_else(|| lets(&toks, k))
                .or_else(|| request(&toks, k))
                .or_else(|| stated(&toks, k))
        })
        .max_by(|a, b| a.score.total_cmp(&b.score))?;
    let end = clause_end(&toks, found.start);
    let words: Vec<String> = toks[found.start..end]
        .iter()
        .enumerate()
        .filter(|(_, t)| !is_filler(&t.low))
        .map(|(i, t)| match (t.low.as_str(), t.mark) {
            ("i", _) => "I".to_string(),
            (_, Some(',')) if found.start + i + 1 < end => format!("{},", t.orig),
            _ => t.orig.clone(),
        })
        .collect();
    if words.is_empty() {
        return None;
    }
    let when = toks[found.start..end].iter().any(|t| TIME_WORDS.contains(&t.low.as_str()));
    let what = words.join(" ");
    let line = match &found.who {
        Some(who) => format!("{}: {what}", capitalise(who)),
        None => capitalise(&what),
    };
    Some(Cue { score: (found.score + if when { 0.15 } else { 0.0 }).min(1.0), line })
}

/// Whether `sentence` has anything of an action at all (an action verb or a
/// modal of future or duty): what the embedding summariser asks
/// of a sentence it would take as a next step by similarity alone.
pub fn has_action_signal(sentence: &str) -> bool {
    let toks = tokenize(sentence);
    toks.iter().any(|t| {
        ACTION_VERBS.contains(&t.low.as_str())
            || ["will", "should", "must", "need", "needs", "going"].contains(&t.low.as_str())
    })
}

/// "Sarah will send…", "we need to book…": a subject, a modal, an action.
fn statement(toks: &[Tok], k: usize, question: bool) -> Option<Found> {
    if k == 0 || question {
        return None;
    }
    let (len, score) = modal(toks, k)?;
    let start = skip_adverbs(toks, k + len);
    if !is_action(toks, start) {
        return None;
    }
    let who = subject(toks, k - 1)?;
    let who = (!["i", "we"].contains(&who.to_lowercase().as_str())).then_some(who);
    Some(Found { score, who, start })
}

/// The modal at `k` and how sure it makes a commitment: future (will,
/// going to) above duty (need to, should).
fn modal(toks: &[Tok], k: usize) -> Option<(usize, f32)> {
    let at = |i: usize| toks.get(k + i).map_or("", |t| t.low.as_str());
    match (at(0), at(1), at(2)) {
        ("will" | "shall", _, _) => Some((1, 0.9)),
        ("am" | "is" | "are", "going", "to") => Some((3, 0.9)),
        ("plan" | "plans" | "intend" | "intends" | "promise" | "promised", "to", _) => Some((2, 0.8)),
        ("need" | "needs" | "have" | "has" | "got" | "ought", "to", _) => Some((2, 0.55)),
        ("should" | "must", _, _) => Some((1, 0.55)),
        _ => None,
    }
}

/// "let's schedule…" / "let us send…".
fn lets(toks: &[Tok], k: usize) -> Option<Found> {
    let len = match (toks[k].low.as_str(), toks.get(k + 1).map(|t| t.low.as_str())) {
        ("let's", _) => 1,
        ("let", Some("us")) => 2,
        _ => return None,
    };
    let start = skip_adverbs(toks, k + len);
    is_action(toks, start).then_some(Found { score: 0.8, who: None, start })
}

/// "could you send…", "please check…": asked of the other side.
fn request(toks: &[Tok], k: usize) -> Option<Found> {
    let (len, who) = match (toks[k].low.as_str(), toks.get(k + 1).map(|t| t.low.as_str())) {
        ("can" | "could" | "would" | "will", Some("you")) => (2, Some("you".to_string())),
        ("please", _) if k == 0 || toks[k - 1].mark.is_some() => (1, None),
        _ => return None,
    };
    let start = skip_adverbs(toks, k + len);
    is_action(toks, start).then_some(Found { score: 0.6, who, start })
}

/// "The next step is to draft…", "action item for Tom: update…".
fn stated(toks: &[Tok], k: usize) -> Option<Found> {
    let phrase =
        CUE_PHRASES.iter().find(|p| toks[k..].iter().zip(p.iter()).filter(|(t, w)| t.low == **w).count() == p.len())?;
    let mut start = k + phrase.len();
    let mut who = None;
    while let Some(t) = toks.get(start) {
        match t.low.as_str() {
            "is" | "are" | "was" | "will" | "be" | "here" | "that" | "then" | "would" | "to" => start += 1,
            "for" if toks.get(start + 1).is_some_and(|n| !is_stopword(&n.low)) => {
                who = Some(toks[start + 1].orig.clone());
                start += 2;
            }
            _ => break,
        }
    }
    (toks.len() >= start + 2).then_some(Found { score: 0.8, who, start })
}

/// Whether the words at `start` name work to do after the meeting.
fn is_action(toks: &[Tok], start: usize) -> bool {
    let Some(verb) = toks.get(start) else { return false };
    if ACTION_VERBS.contains(&verb.low.as_str()) {
        return true;
    }
    let clause = &toks[start + 1..clause_end(toks, start)];
    GENERAL_VERBS.contains(&verb.low.as_str())
        && (clause.iter().take(3).any(|t| PARTICLES.contains(&t.low.as_str()))
            || clause.iter().any(|t| TIME_WORDS.contains(&t.low.as_str())))
}

fn skip_adverbs(toks: &[Tok], mut at: usize) -> usize {
    loop {
        if let Some(phrase) = PHRASE_SKIPS
            .iter()
            .find(|p| p.iter().enumerate().all(|(i, w)| toks.get(at + i).is_some_and(|t| t.low == *w)))
        {
            at += phrase.len();
        } else if toks.get(at).is_some_and(|t| ADVERBS.contains(&t.low.as_str())) {
            at += 1;
        } else {
            return at;
        }
    }
}

/// Who acts, ending at `at`: a person ("I", "Sarah") or a group with its
/// words ("the finance team"); never "it", "that" or "there".
fn subject(toks: &[Tok], at: usize) -> Option<String> {
    let word = &toks[at];
    if PERSONS.contains(&word.low.as_str()) {
        return Some(word.orig.clone());
    }
    if is_stopword(&word.low) || !word.low.chars().all(char::is_alphabetic) {
        return None;
    }
    let mut first = at;
    if GROUPS.contains(&word.low.as_str()) {
        while first > 0 && at - first < 2 && toks[first - 1].mark.is_none() && !is_stopword(&toks[first - 1].low) {
            first -= 1;
        }
        if first > 0 && toks[first - 1].mark.is_none() && DETERMINERS.contains(&toks[first - 1].low.as_str()) {
            first -= 1;
        }
    }
    Some(toks[first..=at].iter().map(|t| t.orig.as_str()).collect::<Vec<_>>().join(" "))
}

/// Where the action's clause ends: at a sentence mark, after the time it
/// names, before a word that starts another thought ("but", "so", "and
/// we…"), or at the length cap.
fn clause_end(toks: &[Tok], start: usize) -> usize {
    let next_is_new_subject =
        |i: usize| toks.get(i + 1).is_some_and(|n| PERSONS.contains(&n.low.as_str()) || n.low == "let's");
    for i in start..toks.len().min(start + MAX_LINE_WORDS) {
        let t = &toks[i];
        if i > start
            && (STOPPERS.contains(&t.low.as_str())
                || (["and", "then"].contains(&t.low.as_str()) && next_is_new_subject(i)))
        {
            return i;
        }
        if matches!(t.mark, Some('.' | ';' | '?' | '!' | ':')) || (t.mark == Some(',') && next_is_new_subject(i)) {
            return i + 1;
        }
        if TIME_WORDS.contains(&t.low.as_str())
            && toks.get(i + 1).is_some_and(|n| !TIME_GOES_ON.contains(&n.low.as_str()))
        {
            return i + 1;
        }
    }
    toks.len().min(start + MAX_LINE_WORDS)
}

fn tokenize(sentence: &str) -> Vec<Tok> {
    let raws: Vec<&str> = sentence.split_whitespace().collect();
    let mut toks: Vec<Tok> = Vec::new();
    for (i, raw) in raws.iter().enumerate() {
        let mark = raw.chars().last().filter(|c| ".,;:?!".contains(*c));
        let word =
            raw.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’' && c != '-').replace('’', "'");
        let word = word.trim_matches(['\'', '-']);
        if word.is_empty() {
            if let (Some(last), Some(_)) = (toks.last_mut(), mark) {
                last.mark = mark;
            }
            continue;
        }
        let low = word.to_lowercase();
        let next_low = raws.get(i + 1).map(|r| r.to_lowercase()).unwrap_or_default();
        let mut push = |orig: &str, low: &str, mark: Option<char>| {
            toks.push(Tok { orig: orig.to_string(), low: low.to_string(), mark })
        };
        let cut = |suffix: &str| &word[..word.len() - suffix.len()];
        // Contractions and spoken forms, spelt out so one pattern fits all.
        let (first, second) = match low.as_str() {
            "won't" => (("will", "will"), Some("not")),
            "gonna" => (("going", "going"), Some("to")),
            "wanna" => (("want", "want"), Some("to")),
            "gotta" => (("got", "got"), Some("to")),
            "lets" => (("let's", "let's"), None),
            "i'm" => ((cut("'m"), "i"), Some("am")),
            _ if low.ends_with("'ll") => ((cut("'ll"), &low[..low.len() - 3]), Some("will")),
            _ if low.ends_with("'re") => ((cut("'re"), &low[..low.len() - 3]), Some("are")),
            // "Sarah's going to": "is", not a possessive.
            _ if low.ends_with("'s")
                && low != "let's"
                && (next_low.starts_with("going") || next_low.starts_with("gonna")) =>
            {
                ((cut("'s"), &low[..low.len() - 2]), Some("is"))
            }
            _ => ((word, low.as_str()), None),
        };
        match second {
            Some(second) => {
                push(first.0, first.1, None);
                push(second, second, mark);
            }
            None => push(first.0, first.1, mark),
        }
    }
    toks
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(sentence: &str) -> Option<String> {
        detect(sentence).map(|c| c.line)
    }

    #[test]
    fn commitments_become_lines_with_who_what_and_when() {
        assert_eq!(
            line("Sarah will send the revised proposal by Friday.").as_deref(),
            Some("Sarah: send the revised proposal by Friday")
        );
        assert_eq!(
            line("Okay, so I'll schedule a follow-up call with the finance team next week, and we can go from there.")
                .as_deref(),
            Some("Schedule a follow-up call with the finance team next week")
        );
        assert_eq!(
            line("the finance team is gonna review the numbers but not before march").as_deref(),
            Some("The finance team: review the numbers")
        );
        assert_eq!(
            line("Let's book a workshop for the second of May.").as_deref(),
            Some("Book a workshop for the second of May")
        );
        assert_eq!(line("The next step is to draft the contract.").as_deref(), Some("Draft the contract"));
        assert_eq!(
            line("action item for Tom update the budget sheet").as_deref(),
            Some("Tom: update the budget sheet")
        );
        assert_eq!(
            line("Could you please send us last year's figures?").as_deref(),
            Some("You: send us last year's figures")
        );
        assert_eq!(line("i'll get back to you on the pricing").as_deref(), Some("Get back to you on the pricing"));
        assert_eq!(line("let's talk to the vendor on monday").as_deref(), Some("Talk to the vendor on monday"));
        assert_eq!(
            line("i will schedule a call with finance next week anything else no that's it").as_deref(),
            Some("Schedule a call with finance next week")
        );
        assert_eq!(
            line("we will test the backup on monday morning and then go home").as_deref(),
            Some("Test the backup on monday morning")
        );
    }

    #[test]
    fn small_talk_questions_and_negations_are_not_commitments() {
        for sentence in [
            "How was your weekend?",
            "It will rain tomorrow, apparently.",
            "We went hiking and the weather was lovely.",
            "I won't send anything until they sign.",
            "Will Sarah send it by Friday?",
            "I think we'll love the new office.",
            "Okay, let's get started with the proposal.",
            "Let's look at the numbers first.",
        ] {
            assert_eq!(detect(sentence), None, "{sentence}");
        }
    }

    #[test]
    fn a_time_makes_a_commitment_surer() {
        let plain = detect("We need to update the budget.").unwrap().score;
        let timed = detect("We need to update the budget by Monday.").unwrap().score;
        assert!(timed > plain, "{timed} vs {plain}");
    }
}

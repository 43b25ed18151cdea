//! A transcript cut into sentences. Whisper punctuates; Vosk writes one long
//! lower-case run, so a stretch without sentence marks is cut where speakers
//! usually begin a new thought ("so", "okay", "and then", "I", "we"), near a
//! natural sentence length.

use super::lexicon::{is_action_verb, is_general_verb};
use super::numbers;

/// Longer than this, a "sentence" is really a run of unpunctuated speech.
const MAX_WORDS: usize = 40;
/// Pieces cut from a run are at least this long…
const MIN_PIECE: usize = 8;
/// …aim for this length…
const TARGET_PIECE: usize = 18;
/// …and are never longer than this.
const MAX_PIECE: usize = 30;

/// Abbreviations whose full stop does not end a sentence.
const ABBREVIATIONS: &[&str] = &[
    "mr", "mrs", "ms", "dr", "prof", "st", "vs", "etc", "e.g", "i.e", "a.m", "p.m", "approx", "inc", "ltd", "co",
    "corp", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "mon", "tue", "wed",
    "thu", "fri",
];

/// Words that most often open a new thought in speech, with how strongly.
fn opener_strength(word: &str) -> u8 {
    match bare(word).as_str() {
        "so" | "okay" | "ok" | "alright" | "anyway" | "now" | "well" | "um" | "uh" | "yeah" | "right" | "let's"
        | "lets" | "also" | "actually" | "great" | "thanks" | "thank" | "perfect" | "lovely" | "brilliant"
        | "excellent" | "meanwhile" | "sorry" => 3,
        "then" | "but" | "because" | "and" | "i" | "we" | "you" | "i'll" | "we'll" | "you'll" | "they'll" | "i'm"
        | "we're" | "next" | "another" | "anything" | "what" | "how" | "do" | "did" | "good" => 2,
        _ => 0,
    }
}

/// Words that a sentence never ends on: a cut after them splits a phrase
/// ("will send | the proposal").
const CONTINUES: &[&str] = &[
    "a", "an", "the", "to", "of", "for", "with", "by", "in", "on", "at", "from", "about", "will", "would", "shall",
    "should", "can", "could", "must", "is", "are", "was", "were", "be", "been", "and", "or", "but", "i", "we", "you",
    "they", "he", "she", "my", "our", "your", "their", "his", "her", "its", "this", "that", "these", "those", "very",
    "going", "need", "needs", "have", "has", "send", "get", "make", "take", "whether", "if", "than", "into", "onto",
    "via", "every", "each", "before", "after", "until", "till", "next", "last", "i'll", "we'll", "you'll", "they'll",
    "he'll", "she'll", "i'm", "we're", "you're", "they're", "as",
];

/// Words that a sentence never starts with: a cut before them leaves a
/// phrase ("| by Friday", "| in the plan") without its verb.
const NEVER_OPENS: &[&str] = &["by", "before", "until", "till", "in", "on", "at", "for", "to", "with", "of", "than"];

/// Openers that, straight after a verb of action, are its object rather
/// than a new thought: "review | anything else", "book | another room".
const OBJECT_OPENERS: &[&str] = &["anything", "another", "what", "how"];

/// Words that open the object of a verb before them ("let | you know").
const DETERMINERS: &[&str] = &[
    "the", "a", "an", "your", "our", "my", "their", "his", "her", "its", "this", "these", "those", "some", "any",
    "all", "them", "it", "us", "him", "you", "me",
];

/// Words after a subject that start a commitment ("Sarah will…"); not "is"
/// or "should", which follow the last noun of a phrase as often ("the churn
/// rate should").
const CLAUSE_VERBS: &[&str] = &["will", "shall"];

fn is_number(word: &str) -> bool {
    numbers::at(&[bare(word).as_str()], 0).is_some_and(|n| !n.ordinal)
}

fn bare(word: &str) -> String {
    word.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'').to_lowercase()
}

/// The sentences of `transcript`, in order; never empty for a transcript
/// with at least one word.
pub fn split(transcript: &str) -> Vec<String> {
    let mut sentences = Vec::new();
    for line in transcript.lines() {
        let mut current: Vec<&str> = Vec::new();
        for word in line.split_whitespace() {
            current.push(word);
            if ends_sentence(word) {
                push_cut(&mut sentences, &current);
                current.clear();
            }
        }
        push_cut(&mut sentences, &current);
    }
    sentences
}

fn ends_sentence(word: &str) -> bool {
    let bare = word.trim_end_matches(['"', '\'', ')', '”', '’']);
    if !bare.ends_with(['.', '!', '?', '…']) {
        return false;
    }
    let stem = bare.trim_end_matches(['.', '!', '?', '…']).trim_start_matches(['"', '(', '“']).to_lowercase();
    // "J." is an initial, "Dr." a title: neither ends a sentence.
    !(bare.ends_with('.') && (ABBREVIATIONS.contains(&stem.as_str()) || stem.chars().count() == 1))
}

fn push_cut(sentences: &mut Vec<String>, words: &[&str]) {
    if words.is_empty() {
        return;
    }
    if words.len() <= MAX_WORDS {
        sentences.push(words.join(" "));
        return;
    }
    let mut start = 0;
    while words.len() - start > MAX_PIECE {
        let end = best_cut(words, start);
        sentences.push(words[start..end].join(" "));
        start = end;
    }
    // A short remainder joins the piece before rather than standing alone.
    let rest = words[start..].join(" ");
    match sentences.last_mut() {
        Some(last) if words.len() - start < MIN_PIECE => {
            last.push(' ');
            last.push_str(&rest);
        }
        _ => sentences.push(rest),
    }
}

/// Where the piece starting at `start` should end: before the strongest
/// opener near the target length, never right after a word that needs the
/// next ("the", "will"); at the longest allowed length if every word does.
fn best_cut(words: &[&str], start: usize) -> usize {
    let lo = start + MIN_PIECE;
    let hi = (start + MAX_PIECE).min(words.len() - MIN_PIECE);
    let mut best = (start + MAX_PIECE).min(words.len());
    let mut best_score = i32::MIN;
    for at in lo..=hi {
        if CONTINUES.contains(&bare(words[at - 1]).as_str()) || NEVER_OPENS.contains(&bare(words[at]).as_str()) {
            continue;
        }
        // A comma or dash before the word is a pause the transcriber heard.
        let pause = i32::from(words[at - 1].ends_with([',', ';', ':', '-', '–']));
        let after = |i: usize| words.get(at + i).map(|w| bare(w)).unwrap_or_default();
        let subject = i32::from(
            CLAUSE_VERBS.contains(&after(1).as_str())
                || (["is", "are"].contains(&after(1).as_str()) && after(2) == "going"),
        );
        // "four | and a half", "two hundred | and fifty": one number.
        if bare(words[at]) == "and" && is_number(words[at - 1]) && (after(1) == "a" || is_number(&after(1))) {
            continue;
        }
        // "all six | sites": a count before what it counts.
        if is_number(words[at - 1]) && opener_strength(words[at]) == 0 {
            continue;
        }
        // "and put | the answer in the plan": a verb before its object.
        let verb = |w: &str| is_action_verb(w) || is_general_verb(w);
        if verb(&bare(words[at - 1])) && DETERMINERS.contains(&bare(words[at]).as_str()) {
            continue;
        }
        // "I'll talk to the vendor | and get back to you": a second verb
        // of the same subject, which a cut would leave without one.
        if bare(words[at]) == "and" && after(1) != "do" && verb(&after(1)) {
            continue;
        }
        let object =
            i32::from(is_action_verb(&bare(words[at - 1])) && OBJECT_OPENERS.contains(&bare(words[at]).as_str()));
        let strength = i32::from(opener_strength(words[at])) + 2 * pause + 3 * subject - 2 * object;
        let distance = (at as i32 - (start + TARGET_PIECE) as i32).abs();
        let score = strength * 8 - distance;
        if score > best_score {
            best = at;
            best_score = score;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn punctuated_text_splits_at_sentence_marks_but_not_abbreviations() {
        let got = split("Dr. Smith joined at 9 a.m. today. Is that right? Yes!\nNew line here");
        assert_eq!(got, ["Dr. Smith joined at 9 a.m. today.", "Is that right?", "Yes!", "New line here"]);
    }

    #[test]
    fn an_unpunctuated_run_is_cut_into_sentence_sized_pieces_at_openers() {
        let run = "we looked at the numbers for the third quarter and they were fine overall ".repeat(6)
            + "so the next thing is the hiring plan for the new office in berlin which we will discuss with the board";
        let pieces = split(&run);
        assert!(pieces.len() >= 4, "{pieces:?}");
        for piece in &pieces {
            let n = piece.split_whitespace().count();
            assert!((MIN_PIECE..=MAX_PIECE + MIN_PIECE).contains(&n), "{n} words: {piece}");
        }
        assert!(pieces.iter().any(|p| p.starts_with("so the next thing")), "{pieces:?}");
        assert_eq!(pieces.join(" ").split_whitespace().count(), run.split_whitespace().count());
    }

    /// Whether some cut of `run` falls right before word `at` of it.
    fn cut_before(run: &str, at: usize) -> bool {
        let mut seen = 0;
        split(run).iter().any(|piece| {
            seen += piece.split_whitespace().count();
            seen == at
        })
    }

    #[test]
    fn a_run_is_not_cut_inside_a_number_after_whether_or_between_a_verb_and_its_object() {
        // Each word to keep whole stands near the length a piece aims for,
        // where an opener ("and", "we", "anything") would otherwise win.
        let lead = "the back of the house gets the sun most of the day in the summer months ";
        let tail =
            " the roof light over the kitchen table the sliding doors the garden the patio the planting the fence";
        for (middle, word) in [
            ("whether a four and a half metre extension needs full planning", "and"),
            ("the board must check whether we can move the date", "we"),
            ("the lawyers should review anything to do with fiona", "anything"),
        ] {
            let run = format!("{lead}{middle}{tail}");
            let words: Vec<&str> = run.split_whitespace().collect();
            assert!(words.len() > MAX_WORDS, "a run long enough to be cut");
            let at = words.iter().position(|w| *w == word).unwrap();
            assert!(!cut_before(&run, at), "cut before {word:?}: {:?}", split(&run));
        }
    }

    #[test]
    fn a_run_is_not_cut_where_a_phrase_still_needs_its_next_word() {
        // The lead puts the middle's first word at 16: the word to keep is
        // at 18, the length a piece aims for, or is an opener near it.
        let lead = "the back of the house gets the sun most of the day in the summer months ";
        let tail = " the roof light over the kitchen table the sliding doors the garden the patio the planting \
                    the fence the shed the path the lawn";
        for (middle, word) in [
            ("the vendor about the terms and get back to the board", "and"),
            ("the vendor should let you know", "you"),
            ("the vendor by friday", "by"),
            ("all six sites", "sites"),
            ("it before the briefing", "the"),
        ] {
            let run = format!("{lead}{middle}{tail}");
            let words: Vec<&str> = run.split_whitespace().collect();
            let at = 16 + middle.split_whitespace().position(|w| w == word).unwrap();
            assert!(!cut_before(&run, at), "cut before {word:?}: {:?}", split(&run));
            assert_eq!(words[at], word);
        }
    }

    #[test]
    fn a_reply_opens_a_piece_of_its_own() {
        let run = "the council has been strict lately so i'll check with the council whether the extension needs \
                   full planning and let you know by wednesday thank you it's the principle of it for the draft \
                   accounts i'm missing a few receipts from the spring and the summer";
        let pieces = split(run);
        assert!(pieces.iter().any(|p| p.starts_with("thank you")), "{pieces:?}");
    }
}

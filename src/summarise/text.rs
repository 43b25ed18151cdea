//! Words of a transcript: matching forms for the lexical statistics and the
//! cues, and tidying a sentence of spoken text for an email.

use super::lexicon::is_stopword;

/// Terms (stemmed) of the rituals around a meeting (greetings, thanks, the
/// weekend, the weather): a sentence made of them is no summary material.
const RITUAL: &[&str] = &[
    "thank",
    "weekend",
    "weather",
    "lovely",
    "coffee",
    "traffic",
    "morning",
    "afternoon",
    "evening",
    "hello",
    "hi",
    "hey",
    "bye",
    "goodbye",
    "everyone",
    "kid",
    "holiday",
    "trip",
    "match",
    "game",
    "started",
    "anything",
    "else",
    "welcome",
    "nice",
    "lunch",
    "dinner",
    "cheer",
];

/// Sounds and phrases of speech that an email should not repeat.
const FILLERS: &[&str] = &["um", "uh", "erm", "er", "hmm", "mm", "uhm", "ah"];

/// The lower-case words of `text`, apostrophes kept inside a word
/// ("we'll"), every other mark dropped.
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
        .map(|w| w.trim_matches(|c| c == '\'' || c == '’').replace('’', "'").to_lowercase())
        .filter(|w| !w.is_empty())
}

/// The terms of `text` for TF-IDF: content words, with a light stemming so
/// "proposal" and "proposals" count as one.
pub fn terms(text: &str) -> impl Iterator<Item = String> + '_ {
    words(text).filter(|w| w.chars().count() > 1 && !is_stopword(w)).map(|w| stem(&w))
}

fn stem(word: &str) -> String {
    let word = word.strip_suffix("'s").unwrap_or(word);
    for (suffix, keep) in [("ies", "y"), ("sses", "ss"), ("s", "")] {
        if let Some(base) = word.strip_suffix(suffix)
            && base.len() >= 3
            && !base.ends_with('s')
            && !base.ends_with('u')
        {
            return format!("{base}{keep}");
        }
    }
    word.to_string()
}

/// The share (0–1) of `sentence`'s terms that belong to meeting rituals.
pub fn ritual_share(sentence: &str) -> f32 {
    let (mut ritual, mut all) = (0, 0);
    for term in terms(sentence) {
        all += 1;
        ritual += usize::from(RITUAL.contains(&term.as_str()));
    }
    if all == 0 { 0.0 } else { ritual as f32 / all as f32 }
}

pub fn is_filler(word: &str) -> bool {
    let bare = word.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
    FILLERS.contains(&bare.as_str())
}

/// A sentence as an email shows it: fillers dropped, "i" made "I" (Vosk
/// writes lower case), a capital first letter and a closing full stop.
pub fn tidy(sentence: &str) -> String {
    let words: Vec<String> = sentence
        .split_whitespace()
        .filter(|w| !is_filler(w))
        .map(|w| match w {
            "i" => "I".to_string(),
            _ if w.starts_with("i'") || w.starts_with("i’") => format!("I{}", &w[1..]),
            _ => w.to_string(),
        })
        .collect();
    let mut out = capitalise(words.join(" ").trim_matches(|c: char| c == ',' || c == ';' || c.is_whitespace()));
    if !out.is_empty() && !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

/// Phrases of speech that carry nothing in writing.
const SPOKEN_FILLERS: &[&[&str]] = &[&["you", "know"], &["i", "mean"], &["sort", "of"], &["kind", "of"]];
/// Words after which "you know" and "I mean" say what they say.
const SPEECH_GOVERNORS: &[&str] =
    &["let", "lets", "do", "does", "did", "don't", "doesn't", "didn't", "if", "whether", "what", "as", "will", "would"];
/// Words a written sentence does not open with.
const OPENERS: &[&str] = &[
    "so", "okay", "ok", "and", "but", "yeah", "yes", "well", "right", "alright", "now", "oh", "uh", "um", "anyway",
    "like", "mm", "hmm",
];

/// A sentence of speech as a summary shows it: fillers ("um", "you know")
/// and stutters ("the the") dropped, no "so, okay," before it, tidied.
pub fn tidy_speech(sentence: &str) -> String {
    let raw: Vec<&str> = sentence.split_whitespace().collect();
    let bare = |w: &str| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'').to_lowercase();
    let mut kept: Vec<&str> = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        // "kind of" after a determiner is meaning: "the kind of tool".
        let before = if i > 0 { bare(raw[i - 1]) } else { String::new() };
        let determined = matches!(before.as_str(), "a" | "the" | "this" | "that" | "what");
        // "let you know", "what I mean", "if you know": a verb's subject
        // and object, not a filler.
        let governed = SPEECH_GOVERNORS.contains(&before.as_str());
        let filler = SPOKEN_FILLERS.iter().find(|p| {
            p.iter().enumerate().all(|(k, w)| raw.get(i + k).is_some_and(|r| bare(r) == *w))
                && !(matches!(p[0], "kind" | "sort") && determined)
                && !(matches!(p[0], "you" | "i") && governed)
        });
        if let Some(p) = filler {
            i += p.len();
            continue;
        }
        let word = raw[i];
        let repeated = kept.last().is_some_and(|last| bare(last) == bare(word) && !last.ends_with([',', '.']));
        if !is_filler(word) && !repeated {
            kept.push(word);
        }
        i += 1;
    }
    let start = kept.iter().position(|w| !OPENERS.contains(&bare(w).as_str())).unwrap_or(kept.len());
    let text = kept[start..].join(" ");
    tidy(text.trim_start_matches([',', ' ']))
}

pub fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_keep_inner_apostrophes_and_drop_marks() {
        let got: Vec<String> = words("So, we'll SEND it—by Friday’s end.").collect();
        assert_eq!(got, ["so", "we'll", "send", "it", "by", "friday's", "end"]);
    }

    #[test]
    fn terms_drop_stopwords_and_fold_plurals() {
        let got: Vec<String> = terms("We will send the proposals and the proposal's budgets").collect();
        assert_eq!(got, ["send", "proposal", "proposal", "budget"]);
    }

    #[test]
    fn speech_loses_its_fillers_stutters_and_openers() {
        assert_eq!(
            tidy_speech("so um we you know we decided to to go with the the kind of tool Verdant sells"),
            "We decided to go with the kind of tool Verdant sells."
        );
        assert_eq!(tidy_speech("Okay, yeah, it's sort of fine"), "It's fine.");
        assert_eq!(
            tidy_speech("i'll check and let you know by wednesday if you know what i mean"),
            "I'll check and let you know by wednesday if you know what I mean."
        );
    }

    #[test]
    fn tidy_makes_spoken_text_readable() {
        assert_eq!(tidy("um so i think i'll send it uh tomorrow"), "So I think I'll send it tomorrow.");
        assert_eq!(tidy("Is that right?"), "Is that right?");
    }
}

//! A sentence of speech as words: each as written, in lower case, and the
//! mark that followed it, with contractions and spoken forms spelt out
//! ("I'll" → "I will", "gonna" → "going to") so one pattern fits all.

use super::lexicon::{PhraseClass, WordClass};

#[derive(Debug, Clone)]
pub struct Tok {
    /// As written, marks around it dropped (a currency sign kept).
    pub orig: String,
    /// Lower case, marks dropped: what patterns compare.
    pub low: String,
    /// The sentence mark that followed the word, if any.
    pub mark: Option<char>,
    /// Which whitespace-separated word of the sentence it came from ("I'll"
    /// gives two words from one).
    pub word: usize,
}

impl Tok {
    pub fn is(&self, word: &str) -> bool {
        self.low == word
    }

    pub fn is_any(&self, words: &[&str]) -> bool {
        words.contains(&self.low.as_str())
    }

    pub fn is_in(&self, class: &WordClass) -> bool {
        class.has(&self.low)
    }
}

/// The words of `sentence`.
pub fn tokenize(sentence: &str) -> Vec<Tok> {
    let raws: Vec<&str> = sentence.split_whitespace().collect();
    let mut toks: Vec<Tok> = Vec::new();
    for (i, raw) in raws.iter().enumerate() {
        let raw = raw.replace('’', "'");
        let mark = raw.chars().last().filter(|c| ".,;:?!".contains(*c));
        let word = raw.trim_matches(|c: char| !c.is_alphanumeric() && !"'-$£€%".contains(c));
        let word = word.trim_matches(['\'', '-']);
        // "15,000." keeps its inner comma; "Friday," loses the last one.
        let word = word.trim_end_matches(['.', ',']);
        if word.is_empty() {
            if let (Some(last), Some(_)) = (toks.last_mut(), mark) {
                last.mark = mark;
            }
            continue;
        }
        let low = word.to_lowercase();
        let next_low = raws.get(i + 1).map(|r| r.to_lowercase()).unwrap_or_default();
        let cut = |suffix: &str| &word[..word.len() - suffix.len()];
        let lcut = |suffix: &str| &low[..low.len() - suffix.len()];
        let (first, second): ((&str, &str), Option<&str>) = match low.as_str() {
            "won't" => (("will", "will"), Some("not")),
            "can't" | "cannot" => (("can", "can"), Some("not")),
            "shan't" => (("shall", "shall"), Some("not")),
            "gonna" => (("going", "going"), Some("to")),
            "wanna" => (("want", "want"), Some("to")),
            "gotta" => (("got", "got"), Some("to")),
            "lets" => (("let's", "let's"), None),
            "i'm" | "im" => ((&word[..1], "i"), Some("am")),
            _ if low.ends_with("'ll") => ((cut("'ll"), lcut("'ll")), Some("will")),
            _ if low.ends_with("'re") => ((cut("'re"), lcut("'re")), Some("are")),
            _ if low.ends_with("'ve") => ((cut("'ve"), lcut("'ve")), Some("have")),
            _ if low.ends_with("'d") => ((cut("'d"), lcut("'d")), Some("would")),
            _ if low.ends_with("n't") => ((cut("n't"), lcut("n't")), Some("not")),
            // "Sarah's going to": "is", not a possessive.
            _ if low.ends_with("'s") && low != "let's" && next_low.starts_with("going") => {
                ((cut("'s"), lcut("'s")), Some("is"))
            }
            _ => ((word, low.as_str()), None),
        };
        let mut push = |orig: &str, low: &str, mark: Option<char>| {
            toks.push(Tok { orig: orig.to_string(), low: low.to_string(), mark, word: i })
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

/// How many words the longest of `phrases` said at word `at` of `toks`
/// has; `None` when none is said there.
pub fn phrase_at(toks: &[Tok], at: usize, phrases: &PhraseClass) -> Option<usize> {
    phrases
        .phrases()
        .filter(|p| p.iter().enumerate().all(|(k, w)| toks.get(at + k).is_some_and(|t| t.is(w))))
        .map(<[&str]>::len)
        .max()
}

/// Whether `toks` carry no mark at all: a stretch of Vosk's unpunctuated
/// run, where no mark shows where a sentence or a clause starts.
pub fn unmarked(toks: &[Tok]) -> bool {
    toks.iter().all(|t| t.mark.is_none())
}

/// The words from `from` to `to` as text, marks inside kept ("Riverside,
/// Hillfield and Ashby"), the last one dropped.
pub fn text(toks: &[Tok], from: usize, to: usize) -> String {
    let to = to.min(toks.len());
    let mut out = String::new();
    for (i, t) in toks.iter().enumerate().take(to).skip(from) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(if t.low == "i" { "I" } else { &t.orig });
        if let Some(mark @ (',' | ';' | ':')) = t.mark
            && i + 1 < to
        {
            out.push(mark);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lows(sentence: &str) -> Vec<String> {
        tokenize(sentence).into_iter().map(|t| t.low).collect()
    }

    #[test]
    fn contractions_and_spoken_forms_are_spelt_out() {
        assert_eq!(
            lows("I'll send it, we're gonna sign"),
            ["i", "will", "send", "it", "we", "are", "going", "to", "sign"]
        );
        assert_eq!(
            lows("Sarah's going to, I won't, I'd, we've, don't"),
            ["sarah", "is", "going", "to", "i", "will", "not", "i", "would", "we", "have", "do", "not"]
        );
        assert_eq!(lows("im gonna call lets see"), ["i", "am", "going", "to", "call", "let's", "see"]);
    }

    #[test]
    fn marks_are_kept_apart_and_amounts_keep_their_signs() {
        let toks = tokenize("It's $15,000, by Friday.");
        let words: Vec<(&str, Option<char>)> = toks.iter().map(|t| (t.orig.as_str(), t.mark)).collect();
        assert_eq!(words, [("It's", None), ("$15,000", Some(',')), ("by", None), ("Friday", Some('.'))]);
        assert_eq!(text(&toks, 0, 4), "It's $15,000, by Friday");
    }
}

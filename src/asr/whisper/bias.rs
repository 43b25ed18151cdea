//! Leaning the decoder towards the names a hint spells. Read as text before
//! the window, a hint already makes a name likelier; but a small model that
//! hears "Lindqvist" as "Lingkvist" has, once it wrote " Lind", no reason
//! left to prefer the card's spelling. So while decoding, each name of the
//! hint is a token path: once the window's text ends in the first tokens of
//! a name, its next token gains [`FOLLOW`]; a name's first token gains the
//! smaller [`START`], only for names of more than one token (a word the
//! model knows whole is a common word, spelled right without help). Each
//! word of a name is a path too: a surname is often said alone.

use crate::asr::names::names;

/// Added to the logit of a name's next token once its first ones are written.
const FOLLOW: f32 = 4.0;
/// Added to the logit of a name's first token.
const START: f32 = 2.0;

#[derive(Debug, Clone, Default)]
pub struct Bias {
    /// Each name's tokens, as the model writes it after a space.
    names: Vec<Vec<u32>>,
}

impl Bias {
    /// `tokenize` turns text into the model's tokens; `hint` is the line
    /// [`super::Whisper`] reads before each window.
    pub fn new(hint: &str, tokenize: impl Fn(&str) -> Vec<u32>) -> Self {
        let whole = names(hint);
        let words = whole.iter().filter(|name| name.contains(' ')).flat_map(|name| name.split_whitespace());
        let mut names: Vec<Vec<u32>> = whole
            .iter()
            .map(String::as_str)
            .chain(words)
            .map(|name| tokenize(&format!(" {name}")))
            .filter(|tokens| tokens.len() > 1)
            .collect();
        names.sort();
        names.dedup();
        Self { names }
    }

    /// The tokens to favour after `sampled` (the window's tokens so far) and
    /// by how much: at most one bonus per token, the larger one.
    pub fn boosts(&self, sampled: &[u32]) -> Vec<(u32, f32)> {
        let mut boosts: Vec<(u32, f32)> = Vec::new();
        let mut add = |token: u32, bonus: f32| match boosts.iter_mut().find(|(t, _)| *t == token) {
            Some(entry) => entry.1 = entry.1.max(bonus),
            None => boosts.push((token, bonus)),
        };
        for name in &self.names {
            add(name[0], START);
            for written in 1..name.len() {
                if sampled.ends_with(&name[..written]) {
                    add(name[written], FOLLOW);
                }
            }
        }
        boosts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Characters as tokens: enough to see the paths.
    fn chars(text: &str) -> Vec<u32> {
        text.chars().map(u32::from).collect()
    }

    #[test]
    fn a_name_started_is_led_on_to_its_next_token() {
        let bias = Bias::new("Meeting with Ola.", chars);
        let boost = |sampled: &str, next: char| {
            bias.boosts(&chars(sampled)).iter().find(|(t, _)| *t == u32::from(next)).map(|(_, b)| *b)
        };
        assert_eq!(boost("hello", ' '), Some(START), "any name may start");
        assert_eq!(boost("hello O", 'l'), Some(FOLLOW));
        assert_eq!(boost("hello Ol", 'a'), Some(FOLLOW));
        assert_eq!(boost("hello Ol", 'x'), None);
        assert_eq!(boost("hello", 'l'), None, "not without its first tokens");
    }

    #[test]
    fn a_name_the_model_writes_as_one_token_is_left_alone() {
        let whole_words = |text: &str| text.split_whitespace().map(|w| w.len() as u32).collect();
        assert!(Bias::new("Meeting with Ola Nordmann.", whole_words).names.iter().all(|n| n.len() > 1));
        assert!(Bias::new("Meeting with Ola.", whole_words).boosts(&[]).is_empty());
    }
}

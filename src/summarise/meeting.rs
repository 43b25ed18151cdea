//! A meeting as the summarisers read it: its turns, its sentences (each
//! with its words and its turn), and what the caller knows about it (the
//! date, the consultant's and the client's names).

use time::Date;

use super::sentences;
use super::tokens::{Tok, tokenize};
use super::transcript::{Turn, turns};

/// What the caller knows about a meeting, beside its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MeetingContext {
    /// The day it took place, in the consultant's time zone: deadlines
    /// ("by Friday") resolve against it.
    pub date: Date,
    /// The consultant's name, as the speaker labels or the talk may say it.
    pub me: Option<String>,
    /// The client's name.
    pub client: Option<String>,
}

impl MeetingContext {
    /// A meeting on `date` whose people are not named.
    pub fn on(date: Date) -> Self {
        Self { date, me: None, client: None }
    }
}

#[derive(Debug, Clone)]
pub struct Sentence {
    pub text: String,
    pub turn: usize,
    pub toks: Vec<Tok>,
}

pub struct Meeting {
    pub turns: Vec<Turn>,
    pub sentences: Vec<Sentence>,
    /// Whether speaker labels say who spoke.
    pub labelled: bool,
}

impl Meeting {
    pub fn new(transcript: &str) -> Self {
        let turns = turns(transcript);
        let sentences = turns
            .iter()
            .enumerate()
            .flat_map(|(turn, t)| {
                sentences::split(&t.text).into_iter().map(move |text| Sentence { toks: tokenize(&text), text, turn })
            })
            .collect();
        let labelled = turns.iter().any(|t| t.speaker.is_some());
        Self { turns, sentences, labelled }
    }

    /// Who said sentence `s`, when the transcript says.
    pub fn speaker(&self, s: usize) -> Option<&str> {
        self.turns[self.sentences[s].turn].speaker.as_deref()
    }

    /// The sentence that answers sentence `s`: the first of the next
    /// speaker's turn when speakers are labelled, else the next sentence.
    pub fn reply(&self, s: usize) -> Option<usize> {
        if self.labelled {
            let turn = self.sentences[s].turn;
            let next = (s + 1..self.sentences.len()).find(|&i| self.sentences[i].turn != turn)?;
            // Only the turn right after, and by someone else.
            (self.sentences[next].turn == turn + 1 && self.speaker(next) != self.speaker(s)).then_some(next)
        } else {
            (s + 1 < self.sentences.len()).then_some(s + 1)
        }
    }

    /// Whether sentence `s` goes on with the one before: the splitter cut
    /// an unpunctuated run there, inside one turn, not the speaker.
    pub fn cut_before(&self, s: usize) -> bool {
        s > 0
            && self.sentences[s].turn == self.sentences[s - 1].turn
            && self.sentences[s - 1].toks.last().is_some_and(|t| t.mark.is_none())
    }

    pub fn texts(&self) -> Vec<String> {
        self.sentences.iter().map(|s| s.text.clone()).collect()
    }
}

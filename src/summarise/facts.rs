//! The facts a sentence carries, for a summary to cover: numbers and
//! amounts (said in digits or in words, one fact either way), dates and
//! days, names, and decisions.

use std::collections::HashSet;

use super::lexicon::{
    DATE_WORDS, DECISIONS, MEETING_TALK, MONEY_UNITS, MONTHS, NOT_NAMES, NOT_NAMES_WRITTEN, WEEKDAYS, is_unit,
};
use super::numbers;
use super::tokens::Tok;

/// What a fact is, for how much a summary gains by it: a price or a rate
/// most, the figure a client's email is most often about (key facts of
/// the development set 0.78 -> 0.80 at 1.5, QMSum validation ROUGE-1
/// 26.3 -> 26.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Number,
    Money,
    Date,
    Name,
    Decision,
}

impl Kind {
    pub fn weight(self) -> f32 {
        match self {
            Kind::Number => 1.0,
            Kind::Money => 1.5,
            Kind::Date => 1.0,
            Kind::Name => 0.7,
            Kind::Decision => 1.2,
        }
    }
}

/// A fact, by a key under which the same fact said twice is one, whatever
/// kind each saying made it ("$15,000", "fifteen thousand a year").
#[derive(Debug, Clone)]
pub struct Fact {
    pub kind: Kind,
    pub key: String,
}

impl PartialEq for Fact {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for Fact {}

impl std::hash::Hash for Fact {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key.hash(state);
    }
}

/// The facts of a sentence. `names`: names known from elsewhere (the
/// speakers, the people of the meeting), so lower-case speech finds them.
pub fn of(toks: &[Tok], names: &HashSet<String>, sentence_index: usize) -> Vec<Fact> {
    let mut facts = Vec::new();
    let lows: Vec<&str> = toks.iter().map(|t| t.low.as_str()).collect();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        if let Some(n) = numbers::at(&lows, i).filter(|n| n.value >= 2.0 || n.ordinal || has_digit(&t.orig)) {
            let unit = lows.get(i + n.len).copied().unwrap_or("");
            let with_unit = is_unit(unit) || t.orig.contains(['$', '£', '€', '%']) || has_digit(&t.orig);
            // "one" or "two" alone is speech, not a figure.
            if with_unit || n.value >= 10.0 || n.ordinal {
                let money = t.orig.contains(['$', '£', '€', '%']) || MONEY_UNITS.has(unit);
                facts.push(Fact { kind: if money { Kind::Money } else { Kind::Number }, key: format!("{}", n.value) });
            }
            i += n.len;
            continue;
        }
        if is_date_word(&t.low) || (t.low == "may" && i > 0 && numbers::at(&lows, i + 1).is_some()) {
            facts.push(Fact { kind: Kind::Date, key: t.low.clone() });
        }
        let capitalised = t.orig.starts_with(|c: char| c.is_uppercase()) && i > 0 && toks[i - 1].mark.is_none();
        if (capitalised
            && !NOT_NAMES.contains(&t.low.as_str())
            && !NOT_NAMES_WRITTEN.has(&t.low)
            && !is_date_word(&t.low))
            || names.contains(&t.low)
        {
            facts.push(Fact { kind: Kind::Name, key: t.low.trim_end_matches("'s").to_string() });
        }
        i += 1;
    }
    if DECISIONS
        .phrases()
        .any(|p| (0..toks.len()).any(|at| p.iter().enumerate().all(|(k, w)| lows.get(at + k) == Some(w))))
        || lets_decide(&lows)
    {
        // Each decision is its own fact.
        facts.push(Fact { kind: Kind::Decision, key: format!("decision {sentence_index}") });
    }
    facts
}

/// Whether the words say what was settled with "let's": "let's just buy
/// them", "let's hire properly", "let's keep it campaign only"; not "let's
/// get into it".
fn lets_decide(lows: &[&str]) -> bool {
    (0..lows.len()).filter(|&at| lows[at] == "let's").any(|at| {
        let verb = at + 1 + usize::from(lows.get(at + 1) == Some(&"just"));
        lows.get(verb).is_some_and(|verb| !MEETING_TALK.has(verb))
    })
}

/// A day, a month or another word of a date; "may" only before a day (in
/// [`of`]): else it is the modal.
fn is_date_word(word: &str) -> bool {
    WEEKDAYS.iter().any(|(day, _)| *day == word)
        || MONTHS.iter().any(|(month, _)| *month == word && word != "may")
        || DATE_WORDS.has(word)
}

fn has_digit(word: &str) -> bool {
    word.chars().any(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::summarise::tokens::tokenize;

    fn keys(sentence: &str) -> Vec<(Kind, String)> {
        of(&tokenize(sentence), &HashSet::from(["verdant".to_string()]), 0)
            .into_iter()
            .map(|f| (f.kind, f.key))
            .collect()
    }

    #[test]
    fn amounts_in_digits_and_in_words_are_the_same_fact() {
        assert_eq!(keys("It comes to $15,000 a year."), [(Kind::Money, "15000".into())]);
        assert_eq!(keys("it comes to fifteen thousand pounds a year"), [(Kind::Money, "15000".into())]);
        assert_eq!(keys("it comes to fifteen thousand a year"), [(Kind::Number, "15000".into())]);
        let of = |sentence| of(&tokenize(sentence), &HashSet::new(), 0);
        assert_eq!(of("It comes to $15,000 a year."), of("it comes to fifteen thousand a year"));
        assert_eq!(keys("we have two options"), []);
    }

    #[test]
    fn names_dates_and_decisions_are_facts() {
        assert_eq!(
            keys("So we agreed to go with Storewise from March."),
            [(Kind::Name, "storewise".into()), (Kind::Date, "march".into()), (Kind::Decision, "decision 0".into())]
        );
        assert_eq!(keys("No, let's hire properly."), [(Kind::Decision, "decision 0".into())]);
        assert_eq!(keys("Let's just buy them."), [(Kind::Decision, "decision 0".into())]);
        assert_eq!(keys("Okay, let's get into it."), []);
        assert_eq!(keys("Fine, let's buy."), [(Kind::Decision, "decision 0".into())], "at the sentence's end too");
        assert_eq!(
            keys("we picked verdant on friday"),
            [(Kind::Name, "verdant".into()), (Kind::Date, "friday".into())]
        );
    }
}

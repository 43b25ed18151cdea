//! The commitment classifier's training data, as `examples/
//! train_commitments.rs` reads it: short dialogues in which every
//! commitment is marked between asterisks ("Anna: I'll *send the plan by
//! Tuesday*."). Each dialogue is read three ways, as transcripts come: as
//! written (speaker labels, punctuation), as a punctuated transcript with
//! no labels (Whisper), and as one lower-case run with numbers in words and
//! no marks (Vosk). Every candidate clause of each is an example, positive
//! when its verb is marked: so the classifier learns on exactly what the
//! clause finder gives it, hard negatives included.

use time::Date;

use super::commitments::{self, Candidate};
use super::meeting::{Meeting, MeetingContext};
use super::tokens::text;

pub use super::classifier::{Model, Training, Weights, train};
pub use super::embedding::{DIMENSIONS, Encoder};
pub use super::features::NAMES as FEATURE_NAMES;

/// One candidate clause, labelled.
#[derive(Debug, Clone)]
pub struct Example {
    /// What the embedding model reads for it.
    pub text: String,
    /// The clause itself, for reports.
    pub clause: String,
    pub features: Vec<f32>,
    pub positive: bool,
}

/// The ways a transcript comes: labelled, punctuated, spoken.
pub const FORMS: [&str; 3] = ["labelled", "punctuated", "spoken"];

/// The dialogues of a training file: each opens with a line "## title".
pub fn dialogues(file: &str) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = Vec::new();
    for line in file.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            found.push((title.trim().to_string(), String::new()));
        } else if let Some((_, body)) = found.last_mut()
            && !line.trim().is_empty()
            && !line.starts_with('#')
        {
            body.push_str(line.trim());
            body.push('\n');
        }
    }
    found
}

/// `dialogue` as a transcript of `form` (one of [`FORMS`]), its marks kept.
pub fn as_form(dialogue: &str, form: &str) -> String {
    let turns: Vec<&str> = dialogue.lines().map(|line| line.split_once(": ").map_or(line, |(_, text)| text)).collect();
    match form {
        "labelled" => dialogue.to_string(),
        "punctuated" => turns.join(" "),
        _ => turns
            .iter()
            .flat_map(|t| t.split_whitespace())
            .map(spoken)
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// The labelled examples of one transcript with marks, its meeting on `date`.
pub fn examples(transcript: &str, date: Date) -> Vec<Example> {
    let meeting = Meeting::new(transcript);
    let candidates: Vec<Candidate> = commitments::candidates(&meeting, &MeetingContext::on(date));
    candidates
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let sentence = &meeting.sentences[c.sentence];
            let marked = marked_words(&sentence.text);
            let word = sentence.toks[c.clause.verb].word;
            let embedded =
                commitments::embedding_text(&meeting, &candidates, i).unwrap_or_else(|| sentence.text.clone());
            Example {
                text: embedded.replace('*', ""),
                clause: text(&sentence.toks, c.clause.start, c.clause.end),
                features: c.features.values().to_vec(),
                positive: marked.get(word).copied().unwrap_or(false),
            }
        })
        .collect()
}

/// For each word of `sentence`, whether it lies between asterisks.
fn marked_words(sentence: &str) -> Vec<bool> {
    let mut inside = false;
    sentence
        .split_whitespace()
        .map(|word| {
            let bare = word.trim_matches(|c: char| !c.is_alphanumeric() && c != '*');
            if bare.starts_with('*') {
                inside = true;
            }
            let marked = inside;
            if bare.ends_with('*') {
                inside = false;
            }
            marked
        })
        .collect()
}

/// A written word as a speech recogniser without punctuation writes it:
/// lower case, no marks, numbers in words ("$15,000" → "fifteen thousand
/// dollars", "3rd" → "third"); the asterisks stay.
fn spoken(word: &str) -> String {
    let star_before = word.trim_start_matches(['"', '(']).starts_with('*');
    let star_after = word.trim_end_matches(['.', ',', '?', '!', ';', ':', '"', ')']).ends_with('*');
    let core = word.trim_matches(|c: char| !c.is_alphanumeric() && !"$£€%'".contains(c));
    let mut out = String::new();
    let currency = match core.chars().next() {
        Some('$') => Some("dollars"),
        Some('£') => Some("pounds"),
        Some('€') => Some("euros"),
        _ => None,
    };
    let core = core.trim_start_matches(['$', '£', '€']);
    let (core, percent) = match core.strip_suffix('%') {
        Some(core) => (core, true),
        None => (core, false),
    };
    if core.starts_with(|c: char| c.is_ascii_digit()) {
        out.push_str(&spell_number(core));
        if let Some(currency) = currency {
            out.push(' ');
            out.push_str(currency);
        }
        if percent {
            out.push_str(" percent");
        }
    } else {
        out.push_str(&core.to_lowercase());
    }
    match (star_before, star_after) {
        (true, true) => format!("*{out}*"),
        (true, false) => format!("*{out}"),
        (false, true) => format!("{out}*"),
        _ => out,
    }
}

const ONES: [&str; 20] = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];
const TENS: [&str; 10] = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

/// "15,000" → "fifteen thousand", "3rd" → "third", "2.5" → "two point
/// five", "10:30" → "ten thirty", "2026" → "twenty twenty six".
fn spell_number(text: &str) -> String {
    if let Some((hours, minutes)) = text.split_once(':') {
        return format!("{} {}", spell_number(hours), spell_number(minutes));
    }
    let lower = text.to_lowercase();
    for suffix in ["st", "nd", "rd", "th"] {
        if let Some(n) = lower.strip_suffix(suffix).and_then(|d| d.parse::<u64>().ok()) {
            return ordinal(&cardinal(n));
        }
    }
    if let Some((whole, fraction)) = text.split_once('.') {
        let digits: Vec<String> =
            fraction.chars().filter_map(|c| c.to_digit(10)).map(|d| ONES[d as usize].to_string()).collect();
        return format!("{} point {}", spell_number(whole), digits.join(" "));
    }
    match text.replace(',', "").parse::<u64>() {
        Ok(year) if (1990..2100).contains(&year) && !text.contains(',') => {
            format!(
                "{} {}",
                cardinal(year / 100),
                if year % 100 == 0 { "hundred".to_string() } else { cardinal(year % 100) }
            )
        }
        Ok(n) => cardinal(n),
        Err(_) => text.to_lowercase(),
    }
}

fn cardinal(n: u64) -> String {
    match n {
        0..20 => ONES[n as usize].to_string(),
        20..100 => match n % 10 {
            0 => TENS[(n / 10) as usize].to_string(),
            unit => format!("{} {}", TENS[(n / 10) as usize], ONES[unit as usize]),
        },
        100..1000 => match n % 100 {
            0 => format!("{} hundred", ONES[(n / 100) as usize]),
            rest => format!("{} hundred and {}", ONES[(n / 100) as usize], cardinal(rest)),
        },
        _ => {
            let (scale, name) = if n >= 1_000_000 { (1_000_000, "million") } else { (1_000, "thousand") };
            match n % scale {
                0 => format!("{} {name}", cardinal(n / scale)),
                rest => format!("{} {name} {}", cardinal(n / scale), cardinal(rest)),
            }
        }
    }
}

fn ordinal(cardinal: &str) -> String {
    let (head, last) = cardinal.rsplit_once(' ').map_or(("", cardinal), |(h, l)| (h, l));
    let last = match last {
        "one" => "first".to_string(),
        "two" => "second".to_string(),
        "three" => "third".to_string(),
        "five" => "fifth".to_string(),
        "eight" => "eighth".to_string(),
        "nine" => "ninth".to_string(),
        "twelve" => "twelfth".to_string(),
        l if l.ends_with('y') => format!("{}ieth", &l[..l.len() - 1]),
        l => format!("{l}th"),
    };
    if head.is_empty() { last } else { format!("{head} {last}") }
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    #[test]
    fn a_dialogue_reads_in_each_form_with_its_marks() {
        let dialogue = "Anna: I'll *send the quote for $15,000 by the 3rd*. How was the trip?\nMike: Great, thanks.\n";
        assert_eq!(
            as_form(dialogue, "punctuated"),
            "I'll *send the quote for $15,000 by the 3rd*. How was the trip? Great, thanks."
        );
        assert_eq!(
            as_form(dialogue, "spoken"),
            "i'll *send the quote for fifteen thousand dollars by the third* how was the trip great thanks"
        );
        for form in FORMS {
            let examples = examples(&as_form(dialogue, form), date!(2026 - 03 - 11));
            assert_eq!(examples.iter().filter(|e| e.positive).count(), 1, "{form}: {examples:?}");
            assert!(examples.iter().all(|e| !e.text.contains('*')), "{form}");
        }
    }

    #[test]
    fn numbers_are_spelt_as_speech_recognisers_write_them() {
        for (written, said) in [
            ("15,000", "fifteen thousand"),
            ("21st", "twenty first"),
            ("2.5", "two point five"),
            ("10:30", "ten thirty"),
            ("2026", "twenty twenty six"),
            ("120", "one hundred and twenty"),
            ("12th", "twelfth"),
        ] {
            assert_eq!(spell_number(written), said);
        }
    }
}

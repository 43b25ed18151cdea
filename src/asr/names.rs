//! The names a hint spells ("Meeting with Ana Silva, Head of Procurement at
//! Banco Azul, and Tom Reid of Northwind Advisory."), and a transcript's
//! near misses of them put right. A recogniser that heard "Fjordline
//! Analytics" as "Ordline Analytics" came close in letters; the card says
//! how it is spelled. The rules are strict because a wrong repair puts a
//! name in someone's mouth: only capitalised words (how recognisers write a
//! name they do not know) are repaired, only towards names of at least
//! [`MIN_LETTERS`] letters, only when at most [`MAX_DISTANCE`] of the
//! letters differ, and never over the name spelled right.

/// Shorter names are too near ordinary words ("Tom Reid", "to read").
const MIN_LETTERS: usize = 8;
/// The share of a name's letters that may differ (edits over the longer).
const MAX_DISTANCE: f64 = 0.3;
/// How much longer or shorter than the name, in letters, a near miss may be.
const MAX_LENGTH_GAP: f64 = 0.25;
/// A name may be heard as one more word than it has ("Hanoi Pre Cision").
const EXTRA_WORDS: usize = 1;

/// The names in a hint: runs of capitalised words, each whole ("Ana
/// Silva", "Banco Azul", "Head"). A comma or a full stop ends a run; a
/// single capitalised word opening a sentence ("Meeting with …") is not a
/// name.
pub fn names(hint: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut run: Vec<&str> = Vec::new();
    // Whether the run began a sentence; whether the next word begins one.
    let (mut run_opens, mut sentence_start) = (false, true);
    let mut close = |run: &mut Vec<&str>, run_opens: bool| {
        if run.len() > 1 || (run.len() == 1 && !run_opens) {
            names.push(run.join(" "));
        }
        run.clear();
    };
    for raw in hint.split_whitespace() {
        let word = raw.trim_matches(|c: char| !c.is_alphanumeric());
        if word.chars().next().is_some_and(char::is_uppercase) {
            if run.is_empty() {
                run_opens = sentence_start;
            }
            run.push(word);
        } else {
            close(&mut run, run_opens);
        }
        sentence_start = raw.ends_with(['.', '!', '?']);
        if raw.ends_with([',', ';', ':', '.', '!', '?']) {
            close(&mut run, run_opens);
        }
    }
    close(&mut run, run_opens);
    names
}

/// `text` with the near misses of `names` spelled as there (see the module
/// docs for which count); everything else as it was, spaces normalised.
pub fn respell(text: &str, names: &[String]) -> String {
    let names: Vec<Target> = names.iter().filter_map(|name| Target::new(name)).collect();
    let words: Vec<&str> = text.split_whitespace().collect();
    if names.is_empty() {
        return words.join(" ");
    }
    let right = spelled_right(&words, &names);
    // The closest repairs first, so "The Ordline Analytics" loses its
    // miss to "Ordline Analytics", which misses by less.
    let mut repairs: Vec<Repair> = (0..words.len()).filter_map(|at| best_repair(&words, &right, at, &names)).collect();
    repairs.sort_by(|a, b| b.closeness.total_cmp(&a.closeness).then(b.span.cmp(&a.span)));
    let mut taken = vec![false; words.len()];
    let mut chosen: Vec<Option<&Repair>> = vec![None; words.len()];
    for repair in &repairs {
        let covers = repair.at..repair.at + repair.span;
        if !taken[covers.clone()].iter().any(|&t| t) {
            taken[covers].fill(true);
            chosen[repair.at] = Some(repair);
        }
    }
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let mut at = 0;
    while at < words.len() {
        match chosen[at] {
            Some(repair) => {
                let last = words[at + repair.span - 1];
                let tail = &last[last.trim_end_matches(|c: char| !c.is_alphanumeric()).len()..];
                out.push(format!("{}{tail}", repair.name));
                at += repair.span;
            }
            None => {
                out.push(words[at].to_string());
                at += 1;
            }
        }
    }
    out.join(" ")
}

/// `span` words from `at` are a miss of `name`, this close (1 is exact).
struct Repair<'a> {
    at: usize,
    span: usize,
    closeness: f64,
    name: &'a str,
}

struct Target<'a> {
    name: &'a str,
    /// The name's letters, lower case, as near misses are compared.
    letters: String,
    /// How many letters (not bytes) that is.
    length: usize,
    words: usize,
}

impl<'a> Target<'a> {
    fn new(name: &'a str) -> Option<Self> {
        let letters = letters(name);
        let length = letters.chars().count();
        (length >= MIN_LETTERS).then(|| Self { name, letters, length, words: name.split_whitespace().count() })
    }
}

fn letters(text: &str) -> String {
    text.chars().filter(|c| c.is_alphabetic()).flat_map(char::to_lowercase).collect()
}

/// Which words are part of a name spelled right: those stay as they are.
fn spelled_right(words: &[&str], names: &[Target]) -> Vec<bool> {
    let bare: Vec<&str> = words.iter().map(|w| w.trim_matches(|c: char| !c.is_alphanumeric())).collect();
    let mut right = vec![false; words.len()];
    for target in names {
        let parts: Vec<&str> = target.name.split_whitespace().collect();
        for start in 0..bare.len().saturating_sub(parts.len() - 1) {
            if bare[start..start + parts.len()] == parts[..] {
                right[start..start + parts.len()].fill(true);
            }
        }
    }
    right
}

/// The closest name the words from `at` miss narrowly; the closer wins,
/// then the one of more words.
fn best_repair<'a>(words: &[&str], right: &[bool], at: usize, names: &[Target<'a>]) -> Option<Repair<'a>> {
    if !words[at].chars().next().is_some_and(char::is_uppercase) {
        return None;
    }
    let mut best: Option<Repair> = None;
    for target in names {
        for span in 1..=(target.words + EXTRA_WORDS).min(words.len() - at) {
            if right[at..at + span].iter().any(|&r| r) {
                break;
            }
            let heard = letters(&words[at..at + span].concat());
            let gap = heard.chars().count().abs_diff(target.length) as f64;
            if heard.is_empty() || gap > MAX_LENGTH_GAP * target.length as f64 {
                continue;
            }
            let closeness = strsim::normalized_levenshtein(&heard, &target.letters);
            if closeness >= 1.0 - MAX_DISTANCE
                && best.as_ref().is_none_or(|b| (closeness, span) > (b.closeness, b.span))
            {
                best = Some(Repair { at, span, closeness, name: target.name });
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    const HINT: &str =
        "Meeting with Hannah Lindqvist, Head of Procurement at Zakłady Mazur, and Tom Reid of Fjordline Analytics.";

    #[test]
    fn a_hint_names_its_capitalised_runs_but_not_its_first_word() {
        assert_eq!(
            names(HINT),
            ["Hannah Lindqvist", "Head", "Procurement", "Zakłady Mazur", "Tom Reid", "Fjordline Analytics"]
        );
        assert_eq!(names("Meeting with Siobhan Ní Bhriain."), ["Siobhan Ní Bhriain"]);
        assert!(names("").is_empty());
    }

    #[test]
    fn near_misses_of_a_name_are_spelled_as_the_card_spells_it() {
        let names = names(HINT);
        assert_eq!(
            respell("The Ordline Analytics will install it, and Hanalingkvist will share the dashboard.", &names),
            "The Fjordline Analytics will install it, and Hannah Lindqvist will share the dashboard."
        );
    }

    #[test]
    fn ordinary_words_short_names_and_names_spelled_right_are_left_alone() {
        let names = names(HINT);
        for text in [
            "We need to read the analytics before Friday.",
            "To read it, Tom needs the file.",
            "And Fjordline Analytics will call.",
            "Finland Analysis is a different firm.",
            "Procurement starts in May.",
        ] {
            assert_eq!(respell(text, &names), text);
        }
    }

    #[test]
    fn nothing_to_repair_towards_leaves_the_text_as_it_was() {
        assert_eq!(respell("Ordline  Analytics said  so.", &[]), "Ordline Analytics said so.");
    }
}

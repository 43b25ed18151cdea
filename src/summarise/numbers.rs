//! Numbers as speech recognisers write them: digits ("14th", "15,000") or
//! spelt out ("twenty first", "fifteen thousand", "two and a half").

const UNITS: &[&str] = &[
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
const ORDINAL_UNITS: &[&str] = &[
    "zeroth",
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
];
const TENS: &[&str] = &["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
const ORDINAL_TENS: &[&str] =
    &["", "", "twentieth", "thirtieth", "fortieth", "fiftieth", "sixtieth", "seventieth", "eightieth", "ninetieth"];
const SCALES: &[(&str, f64)] =
    &[("hundred", 1e2), ("thousand", 1e3), ("k", 1e3), ("million", 1e6), ("billion", 1e9), ("grand", 1e3)];

/// A number found in words: its value, how many words it took, and whether
/// it was said as an ordinal ("third", "3rd").
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Number {
    pub value: f64,
    pub len: usize,
    pub ordinal: bool,
}

/// The number that starts at `words[at]` (lower-case words), if one does.
pub fn at(words: &[&str], at: usize) -> Option<Number> {
    let first = *words.get(at)?;
    if let Some(number) = digits(first) {
        return Some(number);
    }
    #[derive(PartialEq)]
    enum Last {
        Nothing,
        A,
        Unit,
        Tens,
        Scale,
        And,
    }
    let (mut total, mut current, mut len, mut last) = (0.0, 0.0, 0, Last::Nothing);
    // Units follow nothing, a tens word ("twenty one") or a scale ("hundred
    // five"); tens follow nothing or a scale; an ordinal ends the number.
    let opens = |last: &Last| matches!(last, Last::Nothing | Last::Scale | Last::And);
    while let Some(&word) = words.get(at + len) {
        let word = word.trim_end_matches([',', '.']);
        let unit = UNITS.iter().position(|u| *u == word);
        let ordinal_unit = ORDINAL_UNITS.iter().position(|u| *u == word);
        let tens = TENS.iter().position(|t| !t.is_empty() && *t == word);
        let ordinal_tens = ORDINAL_TENS.iter().position(|t| !t.is_empty() && *t == word);
        if let Some(v) = unit.filter(|_| opens(&last) || last == Last::Tens) {
            current += v as f64;
            last = Last::Unit;
        } else if let Some(v) = ordinal_unit.filter(|_| opens(&last) || last == Last::Tens) {
            return Some(Number { value: total + current + v as f64, len: len + 1, ordinal: true });
        } else if let Some(v) = tens.filter(|_| opens(&last)) {
            current += 10.0 * v as f64;
            last = Last::Tens;
        } else if let Some(v) = ordinal_tens.filter(|_| opens(&last)) {
            return Some(Number { value: total + current + 10.0 * v as f64, len: len + 1, ordinal: true });
        } else if let Some(&(_, scale)) =
            SCALES.iter().find(|(s, _)| *s == word).filter(|_| matches!(last, Last::A | Last::Unit | Last::Tens))
        {
            if scale >= 1e3 {
                total += current.max(1.0) * scale;
                current = 0.0;
            } else {
                current = current.max(1.0) * scale;
            }
            last = Last::Scale;
        } else if word == "and" && last == Last::Scale && words.get(at + len + 1).is_some_and(|w| is_number_word(w)) {
            last = Last::And;
        } else if word == "a"
            && last == Last::Nothing
            && words.get(at + 1).is_some_and(|w| SCALES.iter().any(|(s, _)| s == w))
        {
            current = 1.0;
            last = Last::A;
        } else {
            break;
        }
        len += 1;
    }
    (len > 0 && last != Last::A).then_some(Number { value: total + current, len, ordinal: false })
}

fn is_number_word(word: &str) -> bool {
    UNITS.contains(&word) || TENS.contains(&word) || ORDINAL_UNITS.contains(&word) || ORDINAL_TENS.contains(&word)
}

/// Whether `word` is, or is part of, a number said or written.
pub fn is_numeric(word: &str) -> bool {
    digits(word).is_some() || is_number_word(word) || SCALES.iter().any(|(s, _)| *s == word && *s != "k")
}

/// "14", "14th", "15,000", "$15,000", "2.5", "30%", "10k".
fn digits(word: &str) -> Option<Number> {
    let word = word.trim_start_matches(['$', '£', '€']).trim_end_matches(['%', '.', ',']);
    let (body, ordinal) = match ["st", "nd", "rd", "th"].iter().find_map(|s| word.strip_suffix(s)) {
        Some(body) => (body, true),
        None => (word, false),
    };
    let (body, scale) = match body.strip_suffix(['k', 'K']) {
        Some(body) => (body, 1e3),
        None => (body, 1.0),
    };
    if body.is_empty() || !body.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let value: f64 = body.replace(',', "").parse().ok()?;
    Some(Number { value: value * scale, len: 1, ordinal })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Option<(f64, usize, bool)> {
        let words: Vec<&str> = text.split_whitespace().collect();
        at(&words, 0).map(|n| (n.value, n.len, n.ordinal))
    }

    #[test]
    fn spelt_out_numbers_read_as_values() {
        assert_eq!(read("twenty first of march"), Some((21.0, 2, true)));
        assert_eq!(read("the"), None);
        assert_eq!(read("fifteen thousand pounds"), Some((15_000.0, 2, false)));
        assert_eq!(read("a hundred and twenty licences"), Some((120.0, 4, false)));
        assert_eq!(read("two weeks"), Some((2.0, 1, false)));
        assert_eq!(read("third"), Some((3.0, 1, true)));
        assert_eq!(read("thirtieth"), Some((30.0, 1, true)));
        assert_eq!(read("two hundred fifty thousand"), Some((250_000.0, 4, false)));
        assert_eq!(read("a meeting"), None);
        assert_eq!(read("one two"), Some((1.0, 1, false)));
    }

    #[test]
    fn digits_read_with_their_marks() {
        assert_eq!(read("14th"), Some((14.0, 1, true)));
        assert_eq!(read("$15,000"), Some((15_000.0, 1, false)));
        assert_eq!(read("2.5"), Some((2.5, 1, false)));
        assert_eq!(read("10k"), Some((10_000.0, 1, false)));
        assert_eq!(read("30%"), Some((30.0, 1, false)));
        assert_eq!(read("Q3"), None);
    }
}

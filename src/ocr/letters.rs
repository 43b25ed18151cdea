//! Letters Tesseract misreads in a way the card itself can put right: an
//! accent read as a second letter ("Loïic", "Råâdgivning"), the ring of a
//! Nordic å read as a circumflex ("Âsa"), a German umlaut read as a macron
//! ("Brūckner"), and the Polish legal form read with digits ("Sp. Z 0.0.").
//! What the card's other words and its e-mail domain say of its language
//! decides; nothing is changed on a card that does not say.

use super::fold::squash;

/// What a card's words tell of the letters its language uses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Language {
    /// Danish, Norwegian or Swedish: å is common, â never used.
    pub nordic: bool,
    /// German: ä, ö and ü, never ā, ō or ū.
    pub german: bool,
}

impl Language {
    /// From the card's lines and its e-mail address (or web host).
    pub fn of(lines: &[String], host: Option<&str>) -> Self {
        let text: String = lines.join(" ");
        let tld = host.and_then(|h| h.rsplit('.').next()).unwrap_or_default().to_lowercase();
        Self {
            nordic: matches!(tld.as_str(), "dk" | "se" | "no" | "is") || text.contains(['æ', 'ø', 'Æ', 'Ø']),
            german: matches!(tld.as_str(), "de" | "at") || text.contains(['ß', 'ä', 'Ä']),
        }
    }

    /// `text` with the misreads above put right.
    pub fn correct(&self, text: &str) -> String {
        let mut out = split_accents(text);
        if self.nordic {
            out = out.replace('â', "å").replace('Â', "Å");
        }
        if self.german {
            out = out
                .replace('ā', "ä")
                .replace('ō', "ö")
                .replace('ū', "ü")
                .replace('Ū', "Ü")
                .replace('Ō', "Ö")
                .replace('Ā', "Ä");
        }
        polish_legal_form(&out)
    }
}

/// A letter beside the same letter with another accent (or none) is one
/// letter read twice, where the reading with the accent second is a speck
/// taken for an accent: "Loïic" is "Loïc", "Nwoọosu" is "Nwosu". Two of the
/// same accent ("Jääskeläinen") are two letters.
fn split_accents(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let accented = |x: char| !x.is_ascii() && squash(&x.to_string(), false).len() == 1;
    let same_letter = |a: char, b: char| a != b && squash(&a.to_string(), false) == squash(&b.to_string(), false);
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        let after_accented = i > 0 && accented(chars[i - 1]) && same_letter(chars[i - 1], c);
        let speck = i > 0 && !accented(chars[i - 1]) && accented(c) && same_letter(chars[i - 1], c);
        if c.is_alphabetic() && (after_accented || speck) {
            continue;
        }
        out.push(c);
    }
    out
}

/// "Sp. z o.o." as printed, where the o's came back as zeros or the z as a
/// capital: the legal form of most Polish companies.
fn polish_legal_form(text: &str) -> String {
    let Some(at) = text.find("Sp. ") else { return text.to_owned() };
    let rest = &text[at + 4..];
    let mut words = rest.splitn(3, ' ');
    let (Some(z), Some(oo)) = (words.next(), words.next()) else { return text.to_owned() };
    let form = oo.trim_end_matches(',').chars().filter(|c| !c.is_whitespace()).collect::<String>();
    let zeroes = form.replace('0', "o").to_lowercase();
    if (z == "z" || z == "Z") && zeroes == "o.o." {
        let tail = words.next().map(|t| format!(" {t}")).unwrap_or_default();
        return format!("{}Sp. z o.o.{tail}", &text[..at]);
    }
    text.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const NORDIC: Language = Language { nordic: true, german: false };
    const GERMAN: Language = Language { nordic: false, german: true };
    const NEITHER: Language = Language { nordic: false, german: false };

    #[test]
    fn an_accent_read_as_a_second_letter_is_one_letter() {
        assert_eq!(NEITHER.correct("Loïic Morel"), "Loïc Morel");
        assert_eq!(NEITHER.correct("Amara Nwoọosu"), "Amara Nwosu", "an accent no one printed");
        assert_eq!(NORDIC.correct("Nørgaard Råâdgivning ApS"), "Nørgaard Rådgivning ApS");
        assert_eq!(NEITHER.correct("Jääskeläinen Oy"), "Jääskeläinen Oy", "two of one accent are two letters");
        assert_eq!(NEITHER.correct("Aaron Moore"), "Aaron Moore");
    }

    #[test]
    fn a_circumflex_on_a_nordic_card_is_the_ring_of_an_a() {
        assert_eq!(NORDIC.correct("Âsa Åkesson"), "Åsa Åkesson");
        assert_eq!(NEITHER.correct("Château Rivière"), "Château Rivière", "French keeps its circumflex");
    }

    #[test]
    fn a_macron_on_a_german_card_is_an_umlaut() {
        assert_eq!(GERMAN.correct("Brūckner Logistik GmbH"), "Brückner Logistik GmbH");
        assert_eq!(NEITHER.correct("Ōsaka Trading"), "Ōsaka Trading");
    }

    #[test]
    fn the_polish_legal_form_is_printed_as_it_is_spelled() {
        assert_eq!(NEITHER.correct("Mazowia Logistyka Sp. Z 0.0."), "Mazowia Logistyka Sp. z o.o.");
        assert_eq!(NEITHER.correct("Wisła Software Sp. z o.o."), "Wisła Software Sp. z o.o.");
        assert_eq!(NEITHER.correct("Sp. Zoo Gardens"), "Sp. Zoo Gardens");
    }

    #[test]
    fn the_language_is_told_by_the_domain_or_the_cards_own_letters() {
        assert!(Language::of(&["Åsa Åkesson".into()], Some("example.se")).nordic);
        assert!(Language::of(&["Søren Holm".into()], Some("example.com")).nordic);
        assert!(Language::of(&["Jörg Weiß".into()], None).german);
        assert_eq!(Language::of(&["Jane Doe".into()], Some("example.com")), NEITHER);
    }
}

//! E-mail addresses, phone numbers and links in lines OCR read: where they
//! are, what they say and how sure the reading is of them.

use super::fold::squash;
use super::reading::{Bounds, Line};
use crate::domain::text::is_email;

/// A value found on one line, with the confidence of the words it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub value: String,
    pub confidence: f32,
    /// The line's place among those searched, and its box on the image.
    pub line: usize,
    pub bounds: Bounds,
}

/// Characters OCR reads an '@' as.
const AT_LOOKALIKES: &[char] = &['©', '®', '＠'];
/// Characters OCR reads a thin 'l' as, where no address has them.
const L_LOOKALIKES: &[char] = &[']', '[', '|', '!'];
/// An address put together from two words is less sure than one read whole.
const CUT_IN_TWO: f32 = 0.8;
const WEBMAIL: &[&str] = &[
    "gmail",
    "googlemail",
    "outlook",
    "hotmail",
    "yahoo",
    "icloud",
    "me",
    "proton",
    "protonmail",
    "aol",
    "gmx",
    "live",
    "web",
    "orange",
    "free",
    "wanadoo",
    "libero",
    "laposte",
    "t-online",
    "mail",
    "yandex",
    "seznam",
    "wp",
    "o2",
];

/// The first e-mail address on the card. An '@' read as a look-alike, or
/// letters that seem lost before the address (it starts with a dot), make
/// the reading doubtful: its confidence is cut. A line with an '@' inside a
/// word but no address that can be made out gives an empty value of no
/// confidence: the field is flagged, and that line read again.
pub fn find_email(lines: &[Line]) -> Option<Found> {
    let found = |i: usize, line: &Line, (value, confidence)| Found { value, confidence, line: i, bounds: line.bounds };
    lines.iter().enumerate().find_map(|(i, line)| email_in(line).map(|e| found(i, line, e))).or_else(|| {
        lines
            .iter()
            .enumerate()
            .find(|(_, line)| line.words.iter().any(|w| w.text.trim_start_matches('@').contains('@')))
            .map(|(i, line)| found(i, line, (String::new(), 0.0)))
    })
}

fn email_in(line: &Line) -> Option<(String, f32)> {
    let text = line.text();
    let squeezed = text.replace(" @ ", "@").replace(" @", "@").replace("@ ", "@").replace(" . ", ".");
    let tokens: Vec<&str> = squeezed.split([' ', ',', ';', '|']).collect();
    for (k, token) in tokens.iter().enumerate() {
        let Some((email, doubt)) = address_in(token) else { continue };
        if is_email(&email) {
            return Some((email.clone(), doubt * words_confidence(line, |w| email.contains(w))));
        }
        // A domain cut in two by a space, an 'l' in it read as a bracket or
        // a bar: "alhambraconsu] tores.es".
        let Some(next) = tokens.get(k + 1) else { continue };
        let joined = format!("{token}{next}").replace(L_LOOKALIKES, "l");
        if let Some((email, doubt)) = address_in(&joined).filter(|(e, _)| is_email(e)) {
            let confidence = words_confidence(line, |w| email.contains(&w.replace(L_LOOKALIKES, "l")));
            return Some((email, CUT_IN_TWO * doubt * confidence));
        }
    }
    None
}

/// The address a word holds, trimmed and in lower case, with how far its
/// reading is to be doubted; `None` when it holds no '@'.
fn address_in(token: &str) -> Option<(String, f32)> {
    let mut doubt: f32 = 1.0;
    let mut token = token.to_owned();
    if !token.contains('@') {
        let swapped = token.replace(AT_LOOKALIKES, "@");
        if swapped.matches('@').count() != 1 {
            return None;
        }
        token = swapped;
        doubt = 0.4;
    }
    // A label glued on: "E-mail:jane@…", "mailto:jane@…".
    let at = token.find('@').unwrap_or(0);
    if let Some(colon) = token[..at].rfind(':') {
        token = token[colon + 1..].to_owned();
    }
    let end = token.trim_end_matches(|c: char| !c.is_alphanumeric());
    let start = end.trim_start_matches(|c: char| !c.is_alphanumeric());
    // ".doe@…": the letters before the dot were not read.
    if end[..end.len() - start.len()].contains(['.', '-', '_']) {
        doubt = doubt.min(0.3);
    }
    Some((start.to_lowercase(), doubt))
}

/// The domain an address or web link names, as a company would spell it
/// (`maison-dupre.fr` gives `maisondupre`); nothing for webmail.
pub fn organisation_domain(host: &str) -> Option<String> {
    let host = host.trim_start_matches("www.");
    let labels: Vec<&str> = host.split('.').collect();
    // The label before the country's own second level: `ashworthfinch` in
    // ashworthfinch.co.uk.
    let name = match labels.as_slice() {
        [.., name, second, _] if matches!(*second, "co" | "com" | "org" | "net" | "ac" | "gov") => name,
        [.., name, _] => name,
        _ => return None,
    };
    (!WEBMAIL.contains(name)).then(|| squash(name, false)).filter(|n| n.len() >= 2)
}

/// The host of the first web link on the card.
pub fn web_host(lines: &[Line]) -> Option<String> {
    lines.iter().flat_map(|l| l.words.iter()).find_map(|w| {
        let token = w.text.to_lowercase();
        let token = token.trim_start_matches("https://").trim_start_matches("http://");
        (is_link(token) && !token.contains("linkedin") && !token.starts_with('@'))
            .then(|| token.split('/').next().unwrap_or_default().trim_end_matches('.').to_owned())
    })
}

/// A web address, a profile link or a social handle: never part of a name,
/// a company or a title.
pub fn is_link(token: &str) -> bool {
    let lower = token.to_lowercase();
    let lower = lower.trim_matches(|c: char| matches!(c, ',' | ';' | '(' | ')' | '|'));
    if let Some(handle) = lower.strip_prefix('@') {
        return handle.len() > 1 && !handle.contains('@');
    }
    if lower.contains('@') {
        return false;
    }
    if lower.starts_with("www.") || lower.starts_with("http://") || lower.starts_with("https://") {
        return true;
    }
    if ["linkedin", "xing.com", "twitter.com", "instagram", "facebook", "github.com", "/in/"]
        .iter()
        .any(|s| lower.contains(s))
    {
        return true;
    }
    // host.tld[/path], printed in lower case: "figmentlabs.com".
    let host = lower.split('/').next().unwrap_or_default().trim_end_matches('.');
    let labels: Vec<&str> = host.split('.').collect();
    token.chars().next().is_some_and(|c| !c.is_uppercase())
        && labels.len() >= 2
        && labels[0].chars().count() >= 2
        && labels.iter().all(|l| !l.is_empty() && l.chars().all(|c| c.is_alphanumeric() || c == '-'))
        && labels.last().is_some_and(|tld| tld.chars().count() >= 2 && tld.chars().all(|c| c.is_ascii_lowercase()))
}

/// What a phone number is for, by its label; the first kinds are the ones
/// to call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum PhoneKind {
    Mobile,
    Direct,
    Plain,
    Fax,
}

const MOBILE_LABELS: &[&str] = &[
    "mobile",
    "mobil",
    "mob",
    "m",
    "cell",
    "cellular",
    "cellphone",
    "cel",
    "cellulare",
    "portable",
    "port",
    "gsm",
    "handy",
    "movil",
    "mobiel",
    "mobiltelefon",
    "telemovel",
    "kom",
    "komorka",
    "matkapuhelin",
    "natel",
    "mobilni",
];
const DIRECT_LABELS: &[&str] =
    &["direct", "direkt", "direkte", "directe", "directo", "directa", "diretto", "dir", "dd", "ddi", "durchwahl"];
const FAX_LABELS: &[&str] = &["fax", "f", "telefax", "telecopie", "fx", "faks", "telefaks"];
const PHONE_LABELS: &[&str] = &[
    "tel",
    "t",
    "phone",
    "p",
    "ph",
    "telephone",
    "telefon",
    "telefono",
    "telefone",
    "tfn",
    "tlf",
    "puh",
    "puhelin",
    "o",
    "office",
    "main",
    "switchboard",
    "standard",
    "zentrale",
    "vaxel",
    "centralita",
    "centralino",
];

/// Mobile numbers by their country's numbering plan, for numbers printed
/// without a label: the calling code, the country's web domain, whether a
/// national number starts with a trunk 0, and how mobile numbers start
/// after the code.
const MOBILE_PLANS: &[(&str, &str, bool, &[&str])] = &[
    ("44", "uk", true, &["7"]),
    ("353", "ie", true, &["8"]),
    ("33", "fr", true, &["6", "7"]),
    ("49", "de", true, &["15", "16", "17"]),
    ("31", "nl", true, &["6"]),
    ("32", "be", true, &["4"]),
    ("41", "ch", true, &["7"]),
    ("43", "at", true, &["6"]),
    ("46", "se", true, &["7"]),
    ("358", "fi", true, &["4", "50"]),
    ("61", "au", true, &["4"]),
    ("64", "nz", true, &["2"]),
    ("27", "za", true, &["6", "7", "8"]),
    ("971", "ae", true, &["5"]),
    ("234", "ng", true, &["7", "8", "9"]),
    ("91", "in", false, &["6", "7", "8", "9"]),
    ("34", "es", false, &["6", "7"]),
    ("39", "it", false, &["3"]),
    ("47", "no", false, &["4", "9"]),
    ("351", "pt", false, &["9"]),
];

/// Whether `number` is a mobile by its numbering plan: by its calling
/// code when it has one, else by the plan of `country` (the e-mail's or
/// web site's country domain).
fn mobile_by_plan(number: &str, country: Option<&str>) -> bool {
    let digits: String = number.chars().filter(char::is_ascii_digit).collect();
    if number.trim_start().starts_with('+') {
        return MOBILE_PLANS.iter().any(|(code, _, _, starts)| {
            digits.strip_prefix(code).is_some_and(|rest| starts.iter().any(|s| rest.starts_with(s)))
        });
    }
    let Some((_, _, trunk, starts)) = MOBILE_PLANS.iter().find(|(_, tld, _, _)| Some(*tld) == country) else {
        return false;
    };
    let national = if *trunk { digits.strip_prefix('0') } else { Some(digits.as_str()) };
    national.is_some_and(|rest| starts.iter().any(|s| rest.starts_with(s)))
}

/// The country domain of the card's e-mail address or web site (`uk` for
/// co.uk), if it has one.
fn country_of(lines: &[Line]) -> Option<String> {
    let host = find_email(lines)
        .and_then(|e| e.value.split_once('@').map(|(_, h)| h.to_owned()))
        .or_else(|| web_host(lines))?;
    let tld = host.rsplit('.').next()?.to_lowercase();
    (tld.len() == 2).then_some(tld)
}

/// The number to call: a mobile (by its label, or by its numbering plan
/// when it has none) before a direct line before a plain one, never a fax.
pub fn find_phone(lines: &[Line]) -> Option<Found> {
    let country = country_of(lines);
    let mut best: Option<(PhoneKind, Found)> = None;
    for (i, line) in lines.iter().enumerate() {
        for (kind, value, confidence) in phones_in(line) {
            let kind = match kind {
                PhoneKind::Plain if mobile_by_plan(&value, country.as_deref()) => PhoneKind::Mobile,
                kind => kind,
            };
            if kind != PhoneKind::Fax && best.as_ref().is_none_or(|(k, _)| kind < *k) {
                best = Some((kind, Found { value, confidence, line: i, bounds: line.bounds }));
            }
        }
    }
    best.map(|(_, found)| found)
}

/// Whether the line holds a phone number of any kind.
pub fn has_phone(line: &Line) -> bool {
    !phones_in(line).is_empty()
}

fn is_phone_char(c: char) -> bool {
    c.is_ascii_digit() || matches!(c, ' ' | '-' | '(' | ')' | '.' | '+' | '/')
}

/// Each number of the line with its kind (from the words just before it),
/// as the client form takes it, and the confidence of its words.
fn phones_in(line: &Line) -> Vec<(PhoneKind, String, f32)> {
    let text = line.text();
    if text.contains('@') {
        return Vec::new();
    }
    let mut found = Vec::new();
    let mut label_from = 0;
    let mut rest = text.char_indices().peekable();
    while let Some((start, c)) = rest.next() {
        if !(c.is_ascii_digit() || c == '+' || c == '(') {
            continue;
        }
        let mut end = start + c.len_utf8();
        while let Some(&(i, next)) = rest.peek() {
            if !is_phone_char(next) {
                break;
            }
            end = i + next.len_utf8();
            rest.next();
        }
        let run = text[start..end].trim_end_matches(|c: char| !c.is_ascii_digit() && c != ')');
        let label = kind_of(&text[label_from..start]);
        label_from = start + run.len();
        let digits = run.chars().filter(char::is_ascii_digit).count();
        // Eight or nine digits are a number only when labelled as one
        // (Danish and Spanish numbers have no more).
        if (10..=15).contains(&digits) || ((8..=9).contains(&digits) && label.is_some()) {
            let kind = label.unwrap_or(PhoneKind::Plain);
            if let Some(phone) = as_form_takes(run) {
                let confidence = words_confidence(line, |w| run.contains(w));
                found.push((kind, phone, confidence));
            }
        }
    }
    found
}

/// The kind the label before a number names; `None` without a label.
fn kind_of(label: &str) -> Option<PhoneKind> {
    let words: Vec<String> =
        label.split(|c: char| !c.is_alphanumeric()).map(|w| squash(w, false)).filter(|w| !w.is_empty()).collect();
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    if has(FAX_LABELS) && !has(PHONE_LABELS) {
        Some(PhoneKind::Fax)
    } else if has(MOBILE_LABELS) {
        Some(PhoneKind::Mobile)
    } else if has(DIRECT_LABELS) {
        Some(PhoneKind::Direct)
    } else {
        has(PHONE_LABELS).then_some(PhoneKind::Plain)
    }
}

/// The number as printed, with a slash as a space, in the characters and
/// the 20 the client form takes.
fn as_form_takes(run: &str) -> Option<String> {
    let plus = run.starts_with('+');
    let body: String = run.chars().map(|c| if c == '/' { ' ' } else { c }).filter(|&c| c != '+').collect();
    let body = body.split_whitespace().collect::<Vec<_>>().join(" ");
    let phone = if plus { format!("+{body}") } else { body };
    if phone.chars().count() <= 20 {
        Some(phone)
    } else {
        Some(phone.replace(' ', "")).filter(|p| p.chars().count() <= 20)
    }
}

/// The confidence of the words of `line` that `part_of` the value: the
/// least sure of them weighs as much as all of them.
fn words_confidence(line: &Line, part_of: impl Fn(&str) -> bool) -> f32 {
    let confidences: Vec<f32> = line
        .words
        .iter()
        .filter(|w| {
            let core = w.text.to_lowercase();
            let core = core.trim_matches(|c: char| !c.is_alphanumeric());
            !core.is_empty() && part_of(core)
        })
        .map(|w| w.confidence)
        .collect();
    if confidences.is_empty() {
        return 0.0;
    }
    let mean = confidences.iter().sum::<f32>() / confidences.len() as f32;
    let least = confidences.iter().copied().fold(1.0, f32::min);
    (mean + least) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<Line> {
        text.lines().map(Line::plain).collect()
    }

    #[test]
    fn an_address_is_found_behind_a_label_and_spaces_around_the_at_sign() {
        let found = find_email(&lines("Jane Doe\nE-mail: Jane.Doe @ Globex.com.")).unwrap();
        assert_eq!((found.value.as_str(), found.line), ("jane.doe@globex.com", 1));
        assert_eq!(found.confidence, 1.0);
    }

    #[test]
    fn an_address_missing_its_first_letters_is_doubtful() {
        let found = find_email(&lines(".doe@globex.com")).unwrap();
        assert_eq!(found.value, "doe@globex.com");
        assert!(found.confidence < 0.5);
    }

    #[test]
    fn a_domain_cut_by_a_space_with_an_l_read_as_a_bracket_is_joined_and_less_sure() {
        let found = find_email(&lines("Grupo Alhambra\nbegona.castano@alhambraconsu] tores.es")).unwrap();
        assert_eq!((found.value.as_str(), found.line), ("begona.castano@alhambraconsultores.es", 1));
        assert!(found.confidence <= CUT_IN_TWO, "{}", found.confidence);
    }

    #[test]
    fn an_at_sign_in_a_word_with_no_address_to_make_out_gives_an_empty_unsure_value_on_its_line() {
        let found = find_email(&lines("Jane Doe\n@globex on social\njane.doe@globex")).unwrap();
        assert_eq!((found.value.as_str(), found.confidence, found.line), ("", 0.0, 2));
        assert!(find_email(&lines("Jane Doe\n@globex")).is_none(), "a handle is no address");
    }

    #[test]
    fn an_at_sign_read_as_a_copyright_sign_is_doubtful() {
        let found = find_email(&lines("jane©globex.com")).unwrap();
        assert_eq!(found.value, "jane@globex.com");
        assert!(found.confidence < 0.5);
        assert!(find_email(&lines("© 2024 Globex")).is_none());
    }

    #[test]
    fn an_unlabelled_mobile_is_told_by_its_numbering_plan() {
        let card = lines("+971 4 556 7100\n+971 50 412 9033\nomar@example.ae");
        assert_eq!(find_phone(&card).unwrap().value, "+971 50 412 9033");
        let card = lines("(02) 9555 0142\n0412 555 019\nthanh@example.com.au");
        assert_eq!(find_phone(&card).unwrap().value, "0412 555 019", "a national number by the e-mail's country");
        let card = lines("(02) 9555 0142\n0412 555 019\nthanh@example.com");
        assert_eq!(find_phone(&card).unwrap().value, "(02) 9555 0142", "no country, no plan: the first");
        let card = lines("Tel. +31 10 287 4400\n+31 6 2233 4455");
        assert_eq!(find_phone(&card).unwrap().value, "+31 6 2233 4455");
    }

    #[test]
    fn the_mobile_wins_over_direct_and_plain_lines_and_the_fax_is_never_taken() {
        let card = lines("Tel. +33 1 42 68 53 00\nFax +33 1 42 68 53 01\nMobile +33 6 12 34 56 78");
        assert_eq!(find_phone(&card).unwrap().value, "+33 6 12 34 56 78");
        let two_on_a_line = lines("T +44 20 7946 0321 F +44 20 7946 0322");
        assert_eq!(find_phone(&two_on_a_line).unwrap().value, "+44 20 7946 0321");
        assert_eq!(find_phone(&lines("Fax +33 1 42 68 53 01")), None);
        let direct = lines("Standard +33 1 55 21 40 00\nLigne directe +33 1 55 21 40 12");
        assert_eq!(find_phone(&direct).unwrap().value, "+33 1 55 21 40 12");
    }

    #[test]
    fn short_numbers_count_only_with_a_label_and_slashes_become_spaces() {
        assert_eq!(find_phone(&lines("Móvil 612 345 678")).unwrap().value, "612 345 678");
        assert_eq!(find_phone(&lines("Mobil 20 12 34 56")).unwrap().value, "20 12 34 56");
        assert_eq!(find_phone(&lines("28009 Madrid 612 345 678")), None);
        assert_eq!(find_phone(&lines("612 345 678")), None);
        assert_eq!(find_phone(&lines("Mobil 0172 / 8 64 29 17")).unwrap().value, "0172 8 64 29 17");
    }

    #[test]
    fn links_and_handles_are_told_from_names_and_legal_forms() {
        for link in ["www.globex.com", "linkedin.com/in/jane-doe", "@pixelune", "figmentlabs.com", "https://x.io/a"] {
            assert!(is_link(link), "{link}");
        }
        for word in ["S.p.A.", "Inc.", "e.K.", "jane@globex.com", "Tel.", "o.o.", "@"] {
            assert!(!is_link(word), "{word}");
        }
    }

    #[test]
    fn a_domain_names_the_organisation_unless_it_is_webmail() {
        assert_eq!(organisation_domain("maison-dupre.fr").as_deref(), Some("maisondupre"));
        assert_eq!(organisation_domain("ashworthfinch.co.uk").as_deref(), Some("ashworthfinch"));
        assert_eq!(organisation_domain("www.nbwlaw.ie").as_deref(), Some("nbwlaw"));
        assert_eq!(organisation_domain("gmail.com"), None);
    }
}

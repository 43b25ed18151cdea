//! Business-card text → client fields. Pure: OCR lines in, fields out.
//!
//! Patterns find the email, web address and phone numbers; a lexicon of job
//! titles finds the position; legal suffixes, the email domain or the top
//! line find the company; the name is what remains that looks like a
//! person's name. Every value is cut to what the client form accepts.

use serde::Serialize;

use crate::domain::text::is_email;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CardFields {
    pub name: String,
    pub email: String,
    pub phone: String,
    pub company: String,
    pub position: String,
}

const TITLES: &[&str] = &[
    "ceo",
    "cto",
    "cfo",
    "coo",
    "cmo",
    "cio",
    "cso",
    "founder",
    "co-founder",
    "cofounder",
    "partner",
    "director",
    "manager",
    "engineer",
    "consultant",
    "president",
    "vice",
    "vp",
    "head",
    "lead",
    "analyst",
    "architect",
    "designer",
    "developer",
    "specialist",
    "officer",
    "executive",
    "owner",
    "principal",
    "associate",
    "advisor",
    "adviser",
    "coordinator",
    "administrator",
    "accountant",
    "attorney",
    "lawyer",
    "counsel",
    "representative",
    "chairman",
    "chairwoman",
    "chair",
    "managing",
    "assistant",
    "intern",
    "scientist",
    "researcher",
    "professor",
    "strategist",
    "producer",
    "editor",
    "agent",
    "broker",
    "recruiter",
    "supervisor",
    "technician",
    "marketing",
    "sales",
    "operations",
    "chief",
    "secretary",
    "treasurer",
    "controller",
    "auditor",
    "planner",
    "programmer",
    "nurse",
    "physician",
    "pharmacist",
    "therapist",
];

const COMPANY_SUFFIXES: &[&str] = &[
    "inc",
    "inc.",
    "incorporated",
    "ltd",
    "ltd.",
    "limited",
    "llc",
    "l.l.c.",
    "llp",
    "gmbh",
    "ag",
    "sa",
    "s.a.",
    "sas",
    "sarl",
    "bv",
    "b.v.",
    "nv",
    "n.v.",
    "plc",
    "corp",
    "corp.",
    "corporation",
    "co",
    "co.",
    "company",
    "pty",
    "group",
    "holdings",
    "technologies",
    "solutions",
    "labs",
    "studio",
    "systems",
    "partners",
    "associates",
    "consulting",
    "industries",
];

/// Words that mark a line as an address, not a name.
const ADDRESS_WORDS: &[&str] =
    &["street", "st.", "avenue", "ave", "road", "rd.", "suite", "floor", "blvd", "lane", "drive", "box"];

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum PhoneKind {
    Mobile,
    Direct,
    Plain,
    Fax,
}

pub fn extract(text: &str) -> CardFields {
    let lines: Vec<String> = text
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| l.chars().filter(|c| c.is_alphanumeric()).count() >= 2)
        .collect();
    let mut used = vec![false; lines.len()];

    let email = find_email(&lines, &mut used);
    let phone = find_phone(&lines, &mut used);
    for (i, line) in lines.iter().enumerate() {
        if is_web_line(line) {
            used[i] = true;
        }
    }
    let position = find_position(&lines, &mut used);
    let company = find_company(&lines, &mut used, &email);
    let name = find_name(&lines, &used, &email, &company);
    CardFields { name, email, phone, company, position }
}

fn find_email(lines: &[String], used: &mut [bool]) -> String {
    for (i, line) in lines.iter().enumerate() {
        // OCR often puts spaces around '@' and '.'.
        let squeezed = line.replace(" @ ", "@").replace(" @", "@").replace("@ ", "@").replace(" . ", ".");
        for token in squeezed.split([' ', ',', ';', '|', '/']) {
            let token = token.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
            let token = token.strip_prefix("mailto:").unwrap_or(&token).to_owned();
            if token.contains('@') && is_email(&token) {
                used[i] = true;
                return token;
            }
        }
    }
    String::new()
}

fn is_web_line(line: &str) -> bool {
    let lower = line.to_lowercase();
    !lower.contains('@')
        && lower.split_whitespace().any(|w| {
            w.starts_with("www.")
                || w.starts_with("http://")
                || w.starts_with("https://")
                || w.ends_with(".com")
                || w.ends_with(".io")
        })
}

fn find_phone(lines: &[String], used: &mut [bool]) -> String {
    let mut best: Option<(PhoneKind, usize, String)> = None;
    for (i, line) in lines.iter().enumerate() {
        if line.contains('@') {
            continue;
        }
        let lower = line.to_lowercase();
        let label = |words: &[&str]| {
            words
                .iter()
                .any(|w| lower.starts_with(w) || lower.contains(&format!(" {w}")) || lower.contains(&format!("|{w}")))
        };
        let kind = if label(&["fax", "f:", "f."]) {
            PhoneKind::Fax
        } else if label(&["mobile", "mob", "cell", "m:", "m.", "m "]) {
            PhoneKind::Mobile
        } else if label(&["direct", "d:", "dir"]) {
            PhoneKind::Direct
        } else {
            PhoneKind::Plain
        };
        for candidate in phone_runs(line) {
            if best.as_ref().is_none_or(|(k, _, _)| kind < *k) {
                best = Some((kind, i, candidate));
            }
        }
        if phone_runs(line).next().is_some() {
            used[i] = true;
        }
    }
    best.map(|(_, _, p)| p).unwrap_or_default()
}

/// Runs of phone characters with 10 to 15 digits, cleaned to what the client
/// form accepts.
fn phone_runs(line: &str) -> impl Iterator<Item = String> + '_ {
    let is_phone_char = |c: char| c.is_ascii_digit() || matches!(c, ' ' | '-' | '(' | ')' | '.' | '+');
    line.split(move |c: char| !is_phone_char(c)).filter_map(|run| {
        let run = run.trim_matches(|c: char| matches!(c, ' ' | '-' | '.' | ')'));
        let run = run.trim_start_matches(|c: char| c != '+' && c != '(' && !c.is_ascii_digit());
        let digits = run.chars().filter(char::is_ascii_digit).count();
        if !(10..=15).contains(&digits) {
            return None;
        }
        let plus = run.starts_with('+');
        let body: String =
            run.chars().filter(|c| c.is_ascii_digit() || matches!(c, ' ' | '-' | '(' | ')' | '.')).collect();
        let body = body.split_whitespace().collect::<Vec<_>>().join(" ");
        let phone = if plus { format!("+{body}") } else { body };
        if phone.chars().count() <= 20 {
            Some(phone)
        } else {
            Some(phone.replace(' ', "")).filter(|p| p.chars().count() <= 20)
        }
    })
}

fn words(line: &str) -> Vec<String> {
    line.split(|c: char| c.is_whitespace() || c == ',' || c == '|' || c == '/' || c == '&')
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-').to_lowercase())
        .filter(|w| !w.is_empty())
        .collect()
}

fn has_title(line: &str) -> bool {
    words(line).iter().any(|w| TITLES.contains(&w.as_str()))
}

fn has_company_suffix(line: &str) -> bool {
    line.split_whitespace().any(|w| COMPANY_SUFFIXES.contains(&w.trim_matches(',').to_lowercase().as_str()))
}

fn find_position(lines: &[String], used: &mut [bool]) -> String {
    for (i, line) in lines.iter().enumerate() {
        if !used[i] && has_title(line) && !has_company_suffix(line) {
            used[i] = true;
            return clean_text(line);
        }
    }
    String::new()
}

fn find_company(lines: &[String], used: &mut [bool], email: &str) -> String {
    if let Some(i) = (0..lines.len()).find(|&i| !used[i] && has_company_suffix(&lines[i])) {
        used[i] = true;
        return clean_text(&lines[i]);
    }
    let domain = email.split('@').nth(1).and_then(|d| d.split('.').next()).unwrap_or_default();
    const MAIL_PROVIDERS: &[&str] =
        &["gmail", "outlook", "hotmail", "yahoo", "icloud", "proton", "protonmail", "aol", "gmx", "live"];
    if domain.len() >= 2 && !MAIL_PROVIDERS.contains(&domain) {
        let squash = |s: &str| s.chars().filter(|c| c.is_alphanumeric()).collect::<String>().to_lowercase();
        if let Some(i) = (0..lines.len()).find(|&i| !used[i] && squash(&lines[i]).contains(domain)) {
            used[i] = true;
            return clean_text(&lines[i]);
        }
        let mut chars = domain.chars();
        return chars.next().map(|c| c.to_uppercase().collect::<String>() + chars.as_str()).unwrap_or_default();
    }
    String::new()
}

fn find_name(lines: &[String], used: &[bool], email: &str, company: &str) -> String {
    let local = email.split('@').next().unwrap_or_default().to_lowercase();
    let candidates: Vec<&String> = lines
        .iter()
        .enumerate()
        .filter(|(i, line)| !used[*i] && looks_like_name(line) && !line.eq_ignore_ascii_case(company))
        .map(|(_, line)| line)
        .collect();
    // A line whose words appear in the email's local part is the person's.
    let by_email = candidates.iter().find(|line| {
        let ws = words(line);
        !local.is_empty() && ws.iter().filter(|w| w.len() >= 2 && local.contains(w.as_str())).count() >= 1
    });
    by_email.or(candidates.first()).map(|line| clip(&title_case_if_shouting(&clean_name(line)))).unwrap_or_default()
}

fn looks_like_name(line: &str) -> bool {
    let parts: Vec<&str> = line.split_whitespace().collect();
    let lower = line.to_lowercase();
    (2..=4).contains(&parts.len())
        && !has_title(line)
        && !has_company_suffix(line)
        && !ADDRESS_WORDS.iter().any(|w| lower.split_whitespace().any(|x| x == *w))
        && parts.iter().all(|p| {
            p.chars().next().is_some_and(char::is_uppercase)
                && p.chars().all(|c| c.is_alphabetic() || matches!(c, '-' | '\'' | '’' | '.'))
        })
}

fn title_case_if_shouting(name: &str) -> String {
    if name.chars().any(char::is_lowercase) {
        return name.to_owned();
    }
    name.split(' ')
        .map(|w| {
            let mut out = String::new();
            let mut start = true;
            for c in w.chars() {
                if start {
                    out.extend(c.to_uppercase())
                } else {
                    out.extend(c.to_lowercase())
                }
                start = matches!(c, '-' | '\'' | '’');
            }
            out
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Letters, spaces, hyphens, apostrophes and periods, as the form wants.
fn clean_name(line: &str) -> String {
    let kept: String =
        line.chars().filter(|c| c.is_alphabetic() || matches!(c, ' ' | '-' | '\'' | '’' | '.')).collect();
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// At most the 100 characters the form takes. Cut after any change of
/// case: a capital may lower-case to two characters (Turkish 'İ' to "i̇").
fn clip(name: &str) -> String {
    name.chars().take(100).collect::<String>().trim_end().to_owned()
}

/// A single line of printable text of at most 100 characters.
fn clean_text(line: &str) -> String {
    line.chars().filter(|c| !c.is_control()).take(100).collect::<String>().trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_card_gives_every_field() {
        let card = "Jane Doe\nChief Technology Officer\nGlobex Corporation\njane.doe@globex.com\n+1 (555) 123-4567\nwww.globex.com";
        assert_eq!(
            extract(card),
            CardFields {
                name: "Jane Doe".into(),
                email: "jane.doe@globex.com".into(),
                phone: "+1 (555) 123-4567".into(),
                company: "Globex Corporation".into(),
                position: "Chief Technology Officer".into(),
            }
        );
    }

    #[test]
    fn the_mobile_number_wins_over_the_fax() {
        let card = "Ana Lopez\nPartner\nFax: +44 20 7946 0000\nMobile: +44 7700 900123\nana@lopez-partners.co.uk";
        assert_eq!(extract(card).phone, "+44 7700 900123");
        let only_fax_and_tel = "Ana Lopez\nF: 020 7946 0000\nT: 020 7946 0999";
        assert_eq!(extract(only_fax_and_tel).phone, "020 7946 0999");
    }

    #[test]
    fn a_name_that_is_also_a_company_word_is_still_the_name() {
        let card = "Grant Holdings Ltd\nMichael Grant\nManaging Director\nm.grant@grantholdings.com\n020 7946 0123";
        let fields = extract(card);
        assert_eq!(fields.name, "Michael Grant");
        assert_eq!(fields.company, "Grant Holdings Ltd");
        assert_eq!(fields.position, "Managing Director");
    }

    #[test]
    fn an_all_caps_card_is_read_and_the_name_title_cased() {
        let card = "ACME LLC\nJOHN O'BRIEN\nSALES MANAGER\nJOHN.OBRIEN@ACME.COM\n555-867-5309";
        let fields = extract(card);
        assert_eq!(fields.name, "John O'Brien");
        assert_eq!(fields.email, "john.obrien@acme.com");
        assert_eq!(fields.company, "ACME LLC");
        assert_eq!(fields.position, "SALES MANAGER");
        assert_eq!(fields.phone, "555-867-5309");
    }

    #[test]
    fn without_a_company_line_the_email_domain_names_the_company() {
        let card = "Priya Raman\nSenior Consultant\npriya@brightwave.io\n+91 98765 43210";
        let fields = extract(card);
        assert_eq!(fields.company, "Brightwave");
        assert_eq!(fields.name, "Priya Raman");
    }

    #[test]
    fn a_webmail_address_names_no_company() {
        assert_eq!(extract("Tom Berg\nPhotographer\ntom.berg@gmail.com").company, "");
    }

    #[test]
    fn ocr_spaces_around_the_at_sign_are_forgiven() {
        assert_eq!(extract("Lee Chan\nlee.chan @ example.org").email, "lee.chan@example.org");
    }

    #[test]
    fn an_address_line_is_not_a_name() {
        let card = "Main Street Suite\nOlga Ivanova\nolga@firm.example";
        assert_eq!(extract(card).name, "Olga Ivanova");
    }

    #[test]
    fn nothing_recognisable_gives_empty_fields() {
        assert_eq!(extract(""), CardFields::default());
        assert_eq!(extract("~~~ ###\n|||"), CardFields::default());
    }
}

#[cfg(test)]
mod properties {
    use proptest::prelude::*;

    use super::*;

    /// A line OCR might give: noise, or something shaped like a card's.
    fn line() -> impl Strategy<Value = String> {
        prop_oneof![
            ".{0,60}",
            "\\PC{0,300}",
            // Names, in capitals too, Turkish and Greek ones included.
            "[A-ZÀ-ÖØ-ÞİŞĞΑ-Ω][A-Za-zÀ-ÖØ-öİŞĞıΑ-Ωα-ω'.-]{0,40}( [A-ZÀ-ÖØ-ÞİŞĞΑ-Ω][A-Za-zÀ-ÖØ-öİŞĞıΑ-Ωα-ω'.-]{0,40}){1,3}",
            "[A-ZÀ-ÖØ-ÞİŞĞΑ-Ω][A-ZÀ-ÖØ-ÞİŞĞΑ-Ω'.-]{0,40}( [A-ZÀ-ÖØ-ÞİŞĞΑ-Ω][A-ZÀ-ÖØ-ÞİŞĞΑ-Ω'.-]{0,40}){1,3}",
            "[A-Za-z ]{0,30} (Ltd|Inc\\.|GmbH|Corp|Labs|S\\.A\\.)",
            "(Chief|Senior|Head of) [A-Za-z ]{0,80}",
            "(Mobile|Fax|Tel|M:|F:|Direct)?[ :]{0,2}\\+?[0-9 ().-]{8,40}",
            "[a-zA-Z0-9._%+-]{1,70}[ ]?@[ ]?[a-zA-Z0-9-]{1,70}(\\.[a-zA-Z]{2,6}){1,3}",
            "(www\\.|https?://)[a-z.]{1,40}",
            "[\\x00-\\x1f\\x7f\\u{85}\\u{2028}\\t ]{0,5}",
        ]
    }

    fn card() -> impl Strategy<Value = String> {
        let separator = prop_oneof![Just("\n"), Just("\r\n"), Just("\n\n"), Just(" | ")];
        proptest::collection::vec((line(), separator), 0..40)
            .prop_map(|lines| lines.into_iter().map(|(l, s)| l + s).collect())
    }

    fn assert_single_line_of_at_most(value: &str, max: usize, field: &str) -> Result<(), TestCaseError> {
        prop_assert!(value.chars().count() <= max, "{} of {} characters: {:?}", field, value.chars().count(), value);
        prop_assert!(!value.chars().any(char::is_control), "{} with a control character: {:?}", field, value);
        prop_assert_eq!(value, value.trim(), "{} not trimmed", field);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn any_text_gives_fields_the_client_form_accepts(text in prop_oneof![card(), ".*", "\\PC{1000,5000}"]) {
            let fields = extract(&text);
            for (value, max, field) in [(&fields.name, 100, "name"), (&fields.company, 100, "company"), (&fields.position, 100, "position"), (&fields.phone, 20, "phone")] {
                assert_single_line_of_at_most(value, max, field)?;
            }
            // The email is one the form takes, as the form stores it.
            prop_assert!(fields.email.is_empty() || is_email(&fields.email), "{:?}", fields.email);
            prop_assert_eq!(&fields.email, &fields.email.to_lowercase());
            if !fields.phone.is_empty() {
                let digits = fields.phone.chars().filter(char::is_ascii_digit).count();
                prop_assert!((10..=15).contains(&digits), "{:?}", fields.phone);
                prop_assert!(fields.phone.trim_start_matches('+').chars().all(|c| c.is_ascii_digit() || " -().".contains(c)), "{:?}", fields.phone);
            }
        }

        #[test]
        fn a_line_holding_only_an_email_is_never_missed(
            before in proptest::collection::vec(line(), 0..10),
            email in "[a-z0-9]{1,20}(\\.[a-z0-9]{1,10})?@[a-z0-9]{1,20}\\.[a-z]{2,6}",
            after in proptest::collection::vec(line(), 0..10),
        ) {
            let text = [before, vec![email.clone()], after].concat().join("\n");
            let found = extract(&text).email;
            prop_assert!(is_email(&found), "{found:?} from {text:?}");
        }

        #[test]
        fn the_email_is_taken_from_the_text_as_written(text in card()) {
            // Its characters, lower-cased, appear in order in the text:
            // only spaces OCR put around '@' and '.' are dropped.
            let email = extract(&text).email;
            let lower = text.to_lowercase();
            let mut rest = lower.chars();
            prop_assert!(email.chars().all(|c| rest.any(|t| t == c)), "{email:?} from {text:?}");
        }
    }
}

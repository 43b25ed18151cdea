//! Business-card lines → client fields, each with how sure the reading is
//! of it. Pure: OCR lines in, fields out.
//!
//! The e-mail, phone numbers, links and the address are found by their
//! patterns first; what is left are lines of words. Among them, what is
//! printed decides: the name is the line shaped like a person's name that
//! the e-mail address spells (else the largest), the company the line that
//! looks most like an organisation (a legal form, words firms use, the
//! e-mail's domain spelled out), the position the job-title line nearest
//! the name (else the line under the name). The e-mail's domain only
//! confirms a company line; it never stands in for one.

use serde::Serialize;

use super::contact::{self, Found};
use super::fold::{self, squash};
use super::letters::Language;
use super::lexicon::{self, has_legal_form, is_address, is_particle, organisation_words, starts_upper, title_words};
use super::reading::{Line, Reading, Word};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CardFields {
    pub name: String,
    pub email: String,
    pub phone: String,
    pub company: String,
    pub position: String,
}

/// How sure the scan is of each field, 0–1: that the value is what the
/// card prints (for an empty value: that the card prints nothing of the
/// kind).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Confidence {
    pub name: f32,
    pub email: f32,
    pub phone: f32,
    pub company: f32,
    pub position: f32,
}

/// A field less sure than this is flagged for the user to check (the scan
/// dialog highlights it); an e-mail address less sure than this is not
/// given at all: a follow-up sent to a wrong address goes nowhere, an empty
/// field asks the user to type it.
pub const DOUBTFUL_BELOW: f32 = 0.6;

/// What a scan answers: the fields and how sure it is of each.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scanned {
    #[serde(flatten)]
    pub fields: CardFields,
    pub confidence: Confidence,
}

/// A line chosen for a field, and how sure the choice is.
#[derive(Debug, Clone, PartialEq)]
pub struct Pick {
    pub text: String,
    pub confidence: f32,
}

/// What the lines of a card give: a pick for each field, the e-mail and
/// phone number with the lines they were read from (to read them again).
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    pub name: Option<Pick>,
    pub company: Option<Pick>,
    pub position: Option<Pick>,
    pub email: Option<Found>,
    pub phone: Option<Found>,
    /// What the card's words tell of its letters, to put misreads right.
    pub language: Language,
}

impl Card {
    /// The fields as the client form takes them. An address that does not
    /// fit the name as addresses do is less sure; one too unsure is left
    /// out, its confidence kept to flag the empty field.
    pub fn answer(&self) -> Scanned {
        let name = self.name.as_ref().map(|n| n.text.as_str()).unwrap_or_default();
        let email = self.email.as_ref().map(|e| {
            if local_fits_name(&e.value, name) {
                (e.value.clone(), e.confidence)
            } else if let Some(respelled) = respelled_to_fit(&e.value, name) {
                (respelled, e.confidence * 0.95)
            } else {
                (e.value.clone(), e.confidence * 0.9)
            }
        });
        let fields = CardFields {
            name: clip(&self.language.correct(&title_case_if_shouting(&clean_name(name)))),
            email: email.clone().filter(|(_, c)| *c >= DOUBTFUL_BELOW).map(|(e, _)| e).unwrap_or_default(),
            phone: self.phone.as_ref().map(|p| p.value.clone()).unwrap_or_default(),
            company: self.company.as_ref().map(|c| self.language.correct(&clean_text(&c.text))).unwrap_or_default(),
            position: self.position.as_ref().map(|p| self.language.correct(&clean_text(&p.text))).unwrap_or_default(),
        };
        let sure = |pick: &Option<Pick>| pick.as_ref().map_or(1.0, |p| p.confidence);
        let confidence = Confidence {
            // Every card names someone: no name is a miss.
            name: self.name.as_ref().map_or(0.0, |n| n.confidence),
            email: email.map_or(1.0, |(_, c)| c),
            phone: self.phone.as_ref().map_or(1.0, |p| p.confidence),
            company: sure(&self.company),
            position: sure(&self.position),
        };
        Scanned { fields, confidence }
    }
}

/// A line of words left once the contact details are taken, and what it
/// looks like.
struct Text {
    /// Its place among the card's lines.
    index: usize,
    text: String,
    height: u32,
    confidence: f32,
    title: bool,
    legal: bool,
    organisation: f32,
    /// How much of the e-mail's (or web site's) domain it spells.
    domain: f32,
    name_like: bool,
    /// Its words appear in the e-mail address's local part.
    spelled_by_email: bool,
}

impl Text {
    fn company_score(&self) -> f32 {
        let domain = if self.domain >= 0.5 { 2.0 * self.domain } else { self.domain };
        let mut score = if self.legal { 3.0 } else { 0.0 } + 1.2 * self.organisation.min(2.0) + domain;
        if self.spelled_by_email {
            score -= 3.0;
        }
        if self.title && !self.legal {
            score -= 2.0;
        }
        score
    }
}

/// The fields of the card `reading` read.
pub fn extract(reading: &Reading) -> Card {
    let lines = join_broken_words(
        reading
            .lines
            .iter()
            .filter(|l| l.text().chars().filter(|c| c.is_alphanumeric()).count() >= 2)
            .cloned()
            .collect(),
    );
    let email = contact::find_email(&lines);
    let phone = contact::find_phone(&lines);

    let host = email.as_ref().and_then(|e| e.value.split_once('@')).map(|(_, host)| host.to_owned());
    let domain = host
        .as_deref()
        .and_then(contact::organisation_domain)
        .or_else(|| contact::web_host(&lines).as_deref().and_then(contact::organisation_domain))
        .unwrap_or_default();
    let local = email.as_ref().and_then(|e| e.value.split_once('@')).map(|(l, _)| squash(l, false)).unwrap_or_default();

    let texts: Vec<Text> = lines
        .iter()
        .enumerate()
        .filter(|(i, line)| {
            email.as_ref().is_none_or(|e| e.line != *i) && !contact::has_phone(line) && !is_address(&line.text())
        })
        .filter_map(|(index, line)| {
            let kept: Vec<&Word> = line.words.iter().filter(|w| !contact::is_link(&w.text)).collect();
            let text = kept.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" ");
            (text.chars().filter(|c| c.is_alphanumeric()).count() >= 2).then(|| {
                let name_like = looks_like_name(&text);
                Text {
                    index,
                    height: line.bounds.height,
                    confidence: words_confidence(&kept),
                    title: title_words(&text) > 0,
                    legal: has_legal_form(&text),
                    organisation: organisation_words(&text),
                    domain: if domain.is_empty() { 0.0 } else { fold::coverage(&text, &domain) },
                    name_like,
                    spelled_by_email: name_like && spells(&text, &local),
                    text,
                }
            })
        })
        .collect();

    let name = choose_name(&texts);
    let company = texts
        .iter()
        .filter(|t| name.is_none_or(|n| n.index != t.index))
        .map(|t| (t, t.company_score()))
        .filter(|(_, score)| *score >= 1.0)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(t, _)| t);
    let position = choose_position(&texts, name, company);

    Card {
        name: name.map(|n| Pick {
            text: n.text.clone(),
            confidence: n.confidence * if n.spelled_by_email { 1.0 } else { 0.8 },
        }),
        company: company.map(|c| Pick {
            text: c.text.clone(),
            confidence: c.confidence
                * if c.legal || c.domain >= 0.8 {
                    1.0
                } else if c.organisation >= 1.0 {
                    0.85
                } else {
                    0.7
                },
        }),
        position: position.map(|(p, by_title)| Pick {
            text: p.text.clone(),
            confidence: p.confidence * if by_title { 1.0 } else { 0.5 },
        }),
        language: Language::of(&lines.iter().map(Line::text).collect::<Vec<_>>(), host.as_deref()),
        email,
        phone,
    }
}

/// The line most like the person's name: spelled by the e-mail address,
/// printed large, followed by a title, and not an organisation.
fn choose_name(texts: &[Text]) -> Option<&Text> {
    let tallest = texts.iter().map(|t| t.height).max().unwrap_or(0).max(1) as f32;
    texts
        .iter()
        .enumerate()
        .filter(|(_, t)| t.name_like && !t.title && !t.legal)
        .map(|(i, t)| {
            let titled_next = texts.get(i + 1).is_some_and(|next| next.title && next.index == t.index + 1);
            let organisation = (t.company_score() + if t.spelled_by_email { 3.0 } else { 0.0 }).max(0.0);
            let score = if t.spelled_by_email { 3.0 } else { 0.0 }
                + 1.5 * t.height as f32 / tallest
                + if titled_next { 0.7 } else { 0.0 }
                - organisation;
            (t, score)
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(t, _)| t)
}

/// The job-title line nearest the name (below it before above it); else
/// the line right under the name when it is short and nothing else. The
/// flag says whether a title word chose it.
fn choose_position<'a>(texts: &'a [Text], name: Option<&Text>, company: Option<&Text>) -> Option<(&'a Text, bool)> {
    let taken = |t: &Text| name.is_some_and(|n| n.index == t.index) || company.is_some_and(|c| c.index == t.index);
    let anchor = name.map_or(0, |n| n.index) as i64;
    let distance = |t: &Text| {
        let d = t.index as i64 - anchor;
        if d > 0 { 2 * d } else { 2 * -d + 1 }
    };
    if let Some(title) = texts.iter().filter(|t| t.title && !taken(t)).min_by_key(|t| distance(t)) {
        return Some((title, true));
    }
    let name = name?;
    texts
        .iter()
        .find(|t| t.index == name.index + 1)
        .filter(|t| {
            !taken(t)
                && !t.spelled_by_email
                && t.company_score() < 1.0
                && t.height <= name.height
                && t.text.split_whitespace().count() <= 6
                && !t.text.chars().any(|c| c.is_ascii_digit())
        })
        .map(|t| (t, false))
}

/// Words of 2–5 that read as a person's: each capitalised or a particle
/// ("van", "de"), letters with hyphens and apostrophes, at most one initial.
fn looks_like_name(text: &str) -> bool {
    let parts: Vec<&str> = text.split_whitespace().collect();
    let initials = parts.iter().filter(|p| p.trim_end_matches('.').chars().count() == 1).count();
    (2..=5).contains(&parts.len())
        && initials <= 1
        && !lexicon::has_street_word(text)
        && parts.iter().filter(|p| !is_particle(p)).count() >= 2
        && parts.iter().all(|p| {
            (starts_upper(p) || is_particle(p))
                && p.chars().all(|c| c.is_alphabetic() || matches!(c, '-' | '\'' | '’' | '.'))
        })
}

/// Whether the e-mail's local part spells the line's words: one of three
/// letters or more, or all their initials ("sn" for Søren Nørgaard).
fn spells(text: &str, local: &str) -> bool {
    if local.is_empty() {
        return false;
    }
    let parts: Vec<&str> = text.split([' ', '-']).filter(|p| !p.is_empty() && !is_particle(p)).collect();
    let initials: String = parts.iter().filter_map(|p| squash(p, false).chars().next()).collect();
    parts.iter().any(|p| squash(p, false).len() >= 3 && fold::appears_in(p, local))
        || (initials.len() >= 2 && local == initials)
}

/// Whether an address's local part is one a person named `name` would have:
/// their first or last name, both, an initial and a name; or no name to
/// compare with. One missing its first letters ("ane.doe") is not.
fn local_fits_name(email: &str, name: &str) -> bool {
    let local = squash(email.split('@').next().unwrap_or_default(), false);
    let parts = name_parts(name);
    if parts.len() < 2 || !spells_a_name_part(&local, &parts) {
        return true;
    }
    // The name part the address spells must start it, or follow a name
    // part or an initial: letters cut from the front leave neither.
    let first = &parts[0];
    let last = &parts[parts.len() - 1];
    [first, last].iter().any(|p| local.starts_with(p.as_str()))
        || parts.iter().any(|p| {
            local.ends_with(p.as_str()) && {
                let head = &local[..local.len() - p.len()];
                head.len() <= 2 && head.chars().zip(parts.iter().filter_map(|q| q.chars().next())).all(|(a, b)| a == b)
                    || parts.iter().any(|q| q != p && head == q.as_str())
            }
        })
}

/// The parts of a name an address may spell, squashed as addresses are.
fn name_parts(name: &str) -> Vec<String> {
    name.split([' ', '-']).filter(|p| !p.is_empty() && !is_particle(p)).map(|p| squash(p, false)).collect()
}

fn spells_a_name_part(local: &str, parts: &[String]) -> bool {
    parts.iter().any(|p| p.len() >= 3 && local.contains(p.as_str()))
}

/// Letters OCR takes for one another in an address, where the name can
/// settle which was printed.
const CONFUSED: &[&[char]] = &[&['i', 'l', '1'], &['o', '0']];

/// The address with one letter respelled so that it fits the name as
/// addresses do ("inguyen@…" of Linh Nguyen is "lnguyen@…"), when exactly
/// one such respelling does.
fn respelled_to_fit(email: &str, name: &str) -> Option<String> {
    let (local, domain) = email.split_once('@')?;
    let parts = name_parts(name);
    let mut fitting = Vec::new();
    for (at, c) in local.char_indices() {
        let Some(group) = CONFUSED.iter().find(|g| g.contains(&c)) else { continue };
        for other in group.iter().filter(|&&o| o != c) {
            let respelled = format!("{}{other}{}", &local[..at], &local[at + c.len_utf8()..]);
            let candidate = format!("{respelled}@{domain}");
            if spells_a_name_part(&squash(&respelled, false), &parts) && local_fits_name(&candidate, name) {
                fitting.push(candidate);
            }
        }
    }
    (fitting.len() == 1).then(|| fitting.remove(0))
}

/// A line cut by OCR after a hyphen ("Müller-" / "Lüdenscheidt") is one.
fn join_broken_words(lines: Vec<Line>) -> Vec<Line> {
    let mut joined: Vec<Line> = Vec::with_capacity(lines.len());
    for line in lines {
        if let Some(previous) = joined.last_mut() {
            let broken = previous.words.last().is_some_and(|w| {
                let mut chars = w.text.chars().rev();
                chars.next() == Some('-') && chars.next().is_some_and(char::is_alphabetic)
            });
            let continues = line.words.len() <= 2
                && line.words.first().is_some_and(|w| starts_upper(&w.text))
                && !line.text().chars().any(|c| c.is_ascii_digit());
            if broken && continues {
                let mut words = line.words.into_iter();
                if let (Some(last), Some(first)) = (previous.words.last_mut(), words.next()) {
                    last.text.push_str(&first.text);
                    last.confidence = last.confidence.min(first.confidence);
                }
                previous.words.extend(words);
                previous.bounds.height = previous.bounds.height.max(line.bounds.height);
                continue;
            }
        }
        joined.push(line);
    }
    joined
}

fn words_confidence(words: &[&Word]) -> f32 {
    if words.is_empty() {
        return 0.0;
    }
    let mean = words.iter().map(|w| w.confidence).sum::<f32>() / words.len() as f32;
    let least = words.iter().map(|w| w.confidence).fold(1.0, f32::min);
    (mean + least) / 2.0
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

/// Letters, spaces, hyphens, apostrophes and periods, as the form wants; a
/// hyphen OCR set apart from its word ("Smith- Jones") joins it again.
fn clean_name(line: &str) -> String {
    let kept: String =
        line.chars().filter(|c| c.is_alphabetic() || matches!(c, ' ' | '-' | '\'' | '’' | '.')).collect();
    let spaced = kept.split_whitespace().collect::<Vec<_>>().join(" ");
    spaced.replace("- ", "-").replace(" -", "-").trim_matches('-').to_owned()
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
fn from_text(text: &str) -> CardFields {
    extract(&Reading::plain(text)).answer().fields
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_card_gives_every_field() {
        let card = "Jane Doe\nChief Technology Officer\nGlobex Corporation\njane.doe@globex.com\n+1 (555) 123-4567\nwww.globex.com";
        assert_eq!(
            from_text(card),
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
        assert_eq!(from_text(card).phone, "+44 7700 900123");
        let only_fax_and_tel = "Ana Lopez\nF: 020 7946 0000\nT: 020 7946 0999";
        assert_eq!(from_text(only_fax_and_tel).phone, "020 7946 0999");
    }

    #[test]
    fn a_name_that_is_also_a_company_word_is_still_the_name() {
        let card = "Grant Holdings Ltd\nMichael Grant\nManaging Director\nm.grant@grantholdings.com\n020 7946 0123";
        let fields = from_text(card);
        assert_eq!(fields.name, "Michael Grant");
        assert_eq!(fields.company, "Grant Holdings Ltd");
        assert_eq!(fields.position, "Managing Director");
    }

    #[test]
    fn an_all_caps_card_is_read_and_the_name_title_cased() {
        let card = "ACME LLC\nJOHN O'BRIEN\nSALES MANAGER\nJOHN.OBRIEN@ACME.COM\n555-867-5309";
        let fields = from_text(card);
        assert_eq!(fields.name, "John O'Brien");
        assert_eq!(fields.email, "john.obrien@acme.com");
        assert_eq!(fields.company, "ACME LLC");
        assert_eq!(fields.position, "SALES MANAGER");
        assert_eq!(fields.phone, "555-867-5309");
    }

    #[test]
    fn accented_names_and_companies_keep_their_accents() {
        let card = "Élodie Dupré-Martin\nDirectrice Commerciale Europe\nMaison Dupré SARL\ne.dupre@maison-dupre.fr";
        let fields = from_text(card);
        assert_eq!(fields.name, "Élodie Dupré-Martin");
        assert_eq!(fields.company, "Maison Dupré SARL");
    }

    #[test]
    fn the_company_is_the_printed_line_never_a_slug_of_the_email_domain() {
        // The printed name spelled with accents is found through the domain
        // spelled without them; its legal form stays.
        let card = "MAISON DUPRÉ\nÉlodie Dupré-Martin\nMaison Dupré SARL\ne.dupre@maison-dupre.fr";
        assert_eq!(from_text(card).company, "Maison Dupré SARL");
        // A logo's text is the company when nothing fuller is printed.
        let logo = "Kaffeewerk\nRösterei & Café\nJonas Albrecht\nInhaber\njonas@kaffeewerk.de";
        assert_eq!(from_text(logo).company, "Kaffeewerk");
        // Without a company line, no company: the domain never stands in.
        let card = "Priya Raman\nSenior Consultant\npriya@brightwave.io\n+91 98765 43210";
        let fields = from_text(card);
        assert_eq!(fields.company, "");
        assert_eq!(fields.name, "Priya Raman");
    }

    #[test]
    fn legal_forms_of_many_countries_mark_the_company() {
        for company in
            ["Nordväst Maskin AB", "Kuusi Ohjelmistot Oy", "Soluciones Ibéricas S.L.", "Ferri Meccanica S.p.A."]
        {
            let card = format!("{company}\nAnna Berg\nAccount Manager\nanna.berg@example.com");
            assert_eq!(from_text(&card).company, company);
        }
    }

    #[test]
    fn a_linkedin_address_under_the_company_is_not_glued_onto_it() {
        let card = "Élodie Dupré\nMaison Dupré SARL linkedin.com/in/elodie-dupre\ne.dupre@maison-dupre.fr";
        assert_eq!(from_text(card).company, "Maison Dupré SARL");
        let apart = "Jane Doe\nGlobex Corporation\nlinkedin.com/in/janedoe\njane@globex.com";
        let fields = from_text(apart);
        assert_eq!((fields.company.as_str(), fields.position.as_str()), ("Globex Corporation", ""));
    }

    #[test]
    fn a_hyphenated_surname_split_by_ocr_is_joined() {
        assert_eq!(from_text("Catherine Smith- Jones\nc.smith-jones@redwood.com").name, "Catherine Smith-Jones");
        let broken = "Hans-Peter Müller-\nLüdenscheidt\nGeschäftsführer\nhp.mueller@mueller-soehne.de";
        let fields = from_text(broken);
        assert_eq!(fields.name, "Hans-Peter Müller-Lüdenscheidt");
        assert_eq!(fields.position, "Geschäftsführer");
    }

    #[test]
    fn a_long_job_title_is_kept_whole() {
        for title in [
            "Senior Vice President, Global Sales",
            "Directrice Administrative et Financière",
            "Head of Business Development",
        ] {
            let card = format!("Linh Nguyen\n{title}\nSummit Ridge Capital Partners\nlnguyen@summitridgecap.com");
            assert_eq!(from_text(&card).position, title);
        }
    }

    #[test]
    fn a_title_no_word_list_knows_is_the_line_under_the_name() {
        let card = "Bergblick AG\nSabine Keller\nFeelgood Wizard\nsabine.keller@bergblick.ch";
        let card = extract(&Reading::plain(card)).answer();
        assert_eq!(card.fields.position, "Feelgood Wizard");
        assert!(card.confidence.position < DOUBTFUL_BELOW, "flagged for the user to check");
    }

    #[test]
    fn an_email_missing_its_first_letters_is_left_empty_and_flagged() {
        let card = extract(&Reading::plain("Jane Doe\nGlobex Corporation\n.doe@globex.com")).answer();
        assert_eq!(card.fields.email, "");
        assert!(card.confidence.email < DOUBTFUL_BELOW);
        let card = extract(&Reading::plain("Jane Doe\nGlobex Corporation\nane.doe@globex.com")).answer();
        assert_eq!(card.fields.email, "ane.doe@globex.com", "one read with confidence is given…");
        assert!(card.confidence.email < 0.95, "…but less sure than one that fits the name");
    }

    #[test]
    fn addresses_that_fit_the_name_are_trusted() {
        for email in ["jane.doe@globex.com", "jdoe@globex.com", "j.doe@globex.com", "doe@globex.com", "jane@globex.com"]
        {
            assert!(local_fits_name(email, "Jane Doe"), "{email}");
        }
        assert!(local_fits_name("jf.lefevre@x.fr", "Jean-François Lefèvre"));
        assert!(!local_fits_name("ane.doe@globex.com", "Jane Doe"));
        assert!(!local_fits_name("e.doe@globex.com", "Jane Doe"));
    }

    #[test]
    fn an_address_whose_initial_was_read_as_a_look_alike_is_respelled_to_fit_the_name() {
        let card = extract(&Reading::plain("Linh Nguyen\nSummit Ridge Capital\ninguyen@summitridgecap.com")).answer();
        assert_eq!(card.fields.email, "lnguyen@summitridgecap.com");
        assert_eq!(respelled_to_fit("j.d0e@globex.com", "Jane Doe").as_deref(), Some("j.doe@globex.com"));
        assert_eq!(respelled_to_fit("ane.doe@globex.com", "Jane Doe"), None, "no look-alike to respell");
        assert_eq!(respelled_to_fit("info@globex.com", "Jane Doe"), None, "no name to fit");
    }

    #[test]
    fn every_field_has_a_confidence_and_a_doubtful_word_lowers_it() {
        let mut reading = Reading::plain(
            "Jane Doe\nChief Technology Officer\nGlobex Corporation\njane.doe@globex.com\n+1 555 123 4567",
        );
        let sure = extract(&reading).answer().confidence;
        assert!(sure.name > 0.95 && sure.email > 0.95 && sure.phone > 0.95 && sure.company > 0.95, "{sure:?}");
        reading.lines[4].words[2].confidence = 0.3;
        assert!(extract(&reading).answer().confidence.phone < 0.7);
    }

    #[test]
    fn a_webmail_address_names_no_company() {
        assert_eq!(from_text("Tom Berg\nPhotographer\ntom.berg@gmail.com").company, "");
    }

    #[test]
    fn ocr_spaces_around_the_at_sign_are_forgiven() {
        assert_eq!(from_text("Lee Chan\nlee.chan @ example.org").email, "lee.chan@example.org");
    }

    #[test]
    fn an_address_line_is_not_a_name() {
        let card = "Main Street Suite\nOlga Ivanova\nolga@firm.example";
        assert_eq!(from_text(card).name, "Olga Ivanova");
    }

    #[test]
    fn nothing_recognisable_gives_empty_fields() {
        assert_eq!(from_text(""), CardFields::default());
        assert_eq!(from_text("~~~ ###\n|||"), CardFields::default());
    }
}

#[cfg(test)]
mod properties {
    use proptest::prelude::*;

    use super::*;
    use crate::domain::text::is_email;

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
            let card = extract(&Reading::plain(&text)).answer();
            let fields = card.fields;
            for (value, max, field) in [(&fields.name, 100, "name"), (&fields.company, 100, "company"), (&fields.position, 100, "position"), (&fields.phone, 20, "phone")] {
                assert_single_line_of_at_most(value, max, field)?;
            }
            // The email is one the form takes, as the form stores it.
            prop_assert!(fields.email.is_empty() || is_email(&fields.email), "{:?}", fields.email);
            prop_assert_eq!(&fields.email, &fields.email.to_lowercase());
            if !fields.phone.is_empty() {
                let digits = fields.phone.chars().filter(char::is_ascii_digit).count();
                prop_assert!((8..=15).contains(&digits), "{:?}", fields.phone);
                prop_assert!(fields.phone.trim_start_matches('+').chars().all(|c| c.is_ascii_digit() || " -().".contains(c)), "{:?}", fields.phone);
            }
            let c = card.confidence;
            for value in [c.name, c.email, c.phone, c.company, c.position] {
                prop_assert!((0.0..=1.0).contains(&value), "{c:?}");
            }
        }

        #[test]
        fn a_line_holding_only_an_email_is_never_missed(
            before in proptest::collection::vec(line(), 0..10),
            email in "[a-z0-9]{1,20}(\\.[a-z0-9]{1,10})?@[a-z0-9]{1,20}\\.[a-z]{2,6}",
            after in proptest::collection::vec(line(), 0..10),
        ) {
            let text = [before, vec![email.clone()], after].concat().join("\n");
            let card = extract(&Reading::plain(&text));
            let found = card.email.map(|e| e.value).unwrap_or_default();
            prop_assert!(is_email(&found), "{found:?} from {text:?}");
        }

        #[test]
        fn the_email_is_taken_from_the_text_as_written(text in card()) {
            // Its characters, lower-cased, appear in order in the text:
            // only spaces OCR put around '@' and '.' are dropped.
            let email = from_text(&text).email;
            let lower = text.to_lowercase();
            let mut rest = lower.chars();
            prop_assert!(email.chars().all(|c| rest.any(|t| t == c)), "{email:?} from {text:?}");
        }
    }
}

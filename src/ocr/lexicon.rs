//! The words that tell what a line of a business card is, in English and
//! the main European languages: job titles, legal forms, words companies
//! name themselves with, phone labels, name particles, street words.
//!
//! Words are compared lower-cased and without accents (`fold::squash`), so
//! "Gérant" matches `gerant` and an accent OCR dropped still matches.

use super::fold::squash;

/// Words that make a line a job title.
const TITLE_WORDS: &[&str] = &[
    // English
    "ceo",
    "cto",
    "cfo",
    "coo",
    "cmo",
    "cio",
    "cso",
    "cpo",
    "cro",
    "vp",
    "svp",
    "evp",
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
    "solicitor",
    "barrister",
    "representative",
    "chairman",
    "chairwoman",
    "chairperson",
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
    "photographer",
    "journalist",
    "writer",
    "translator",
    "interpreter",
    "surveyor",
    "notary",
    "realtor",
    "dentist",
    "veterinarian",
    "superintendent",
    "foreman",
    "buyer",
    "trainer",
    "coach",
    "instructor",
    "teacher",
    "lecturer",
    "curator",
    "proprietor",
    "inspector",
    "paralegal",
    "chief",
    "marketing",
    "sales",
    // French
    "directeur",
    "directrice",
    "président",
    "présidente",
    "gérant",
    "gérante",
    "fondateur",
    "fondatrice",
    "cofondateur",
    "cofondatrice",
    "responsable",
    "chef",
    "cheffe",
    "ingénieur",
    "ingénieure",
    "conseiller",
    "conseillère",
    "consultante",
    "associé",
    "associée",
    "avocat",
    "avocate",
    "chargé",
    "chargée",
    "attaché",
    "attachée",
    "délégué",
    "déléguée",
    "adjoint",
    "adjointe",
    "assistante",
    "comptable",
    "expert",
    "experte",
    "architecte",
    "notaire",
    "pharmacien",
    "pharmacienne",
    "médecin",
    "infirmier",
    "infirmière",
    "secrétaire",
    "trésorier",
    "trésorière",
    "technicien",
    "technicienne",
    "développeur",
    "développeuse",
    "photographe",
    "rédacteur",
    "rédactrice",
    "traducteur",
    "traductrice",
    "formateur",
    "formatrice",
    "coordinateur",
    "coordinatrice",
    "administrateur",
    "administratrice",
    "analyste",
    "acheteur",
    "acheteuse",
    "vendeur",
    "vendeuse",
    "stagiaire",
    "pdg",
    "dg",
    "drh",
    "daf",
    // German
    "geschäftsführer",
    "geschäftsführerin",
    "leiter",
    "leiterin",
    "inhaber",
    "inhaberin",
    "gründer",
    "gründerin",
    "mitgründer",
    "mitgründerin",
    "vorstand",
    "vorsitzender",
    "vorsitzende",
    "prokurist",
    "prokuristin",
    "berater",
    "beraterin",
    "ingenieur",
    "ingenieurin",
    "referent",
    "referentin",
    "sachbearbeiter",
    "sachbearbeiterin",
    "direktor",
    "direktorin",
    "assistent",
    "assistentin",
    "rechtsanwalt",
    "rechtsanwältin",
    "anwalt",
    "anwältin",
    "steuerberater",
    "steuerberaterin",
    "architekt",
    "architektin",
    "entwickler",
    "entwicklerin",
    "fotograf",
    "fotografin",
    "kaufmann",
    "kauffrau",
    "meister",
    "meisterin",
    "partnerin",
    "managerin",
    "verkäufer",
    "verkäuferin",
    "techniker",
    "technikerin",
    "geschäftsleitung",
    "vertrieb",
    // Dutch
    "eigenaar",
    "oprichter",
    "medeoprichter",
    "adviseur",
    "projectleider",
    "accountmanager",
    "medewerker",
    "medewerkster",
    "bedrijfsleider",
    "vennoot",
    "advocaat",
    "notaris",
    "directie",
    // Spanish, Catalan
    "directora",
    "gerente",
    "jefe",
    "jefa",
    "ingeniero",
    "ingeniera",
    "consultor",
    "consultora",
    "asesor",
    "asesora",
    "socio",
    "socia",
    "fundador",
    "fundadora",
    "cofundador",
    "cofundadora",
    "abogado",
    "abogada",
    "presidenta",
    "arquitecto",
    "arquitecta",
    "arquitecte",
    "coordinador",
    "coordinadora",
    "técnico",
    "técnica",
    "administrador",
    "administradora",
    "desarrollador",
    "desarrolladora",
    "diseñador",
    "diseñadora",
    "gestor",
    "gestora",
    "delegado",
    "delegada",
    "analista",
    "contable",
    "ejecutivo",
    "ejecutiva",
    "enginyer",
    "enginyera",
    "gerent",
    "consultors",
    // Italian
    "direttore",
    "direttrice",
    "responsabile",
    "amministratore",
    "amministratrice",
    "delegato",
    "delegata",
    "ingegnere",
    "consulente",
    "titolare",
    "avvocato",
    "avvocata",
    "presidente",
    "fondatore",
    "fondatrice",
    "architetto",
    "commerciale",
    "tecnico",
    "progettista",
    "sviluppatore",
    "geometra",
    "ragioniere",
    "commercialista",
    // Portuguese
    "diretor",
    "diretora",
    "engenheiro",
    "engenheira",
    "sócio",
    "sócia",
    "advogado",
    "advogada",
    "arquiteto",
    "arquiteta",
    "coordenador",
    "coordenadora",
    "desenvolvedor",
    "desenvolvedora",
    "executivo",
    "executiva",
    // Scandinavian
    "vd",
    "verkställande",
    "direktör",
    "direktør",
    "konsult",
    "konsulent",
    "grundare",
    "projektledare",
    "säljare",
    "ägare",
    "ordförande",
    "ingenjör",
    "ingeniør",
    "arkitekt",
    "advokat",
    "utvecklare",
    "ekonom",
    "rådgivare",
    "rådgiver",
    "ansvarig",
    "leder",
    "daglig",
    "ejer",
    "eier",
    "indehaver",
    "stifter",
    "grunnlegger",
    "sælger",
    "selger",
    "projektleder",
    "prosjektleder",
    "sjef",
    // Finnish
    "toimitusjohtaja",
    "johtaja",
    "päällikkö",
    "asiantuntija",
    "konsultti",
    "suunnittelija",
    "insinööri",
    "omistaja",
    "perustaja",
    "yrittäjä",
    "arkkitehti",
    "asianajaja",
    "kehittäjä",
    // Polish, Czech, Hungarian
    "kierownik",
    "dyrektor",
    "prezes",
    "specjalista",
    "specjalistka",
    "menedżer",
    "inżynier",
    "konsultant",
    "doradca",
    "właściciel",
    "właścicielka",
    "założyciel",
    "przedstawiciel",
    "koordynator",
    "radca",
    "ředitel",
    "ředitelka",
    "jednatel",
    "jednatelka",
    "vedoucí",
    "manažer",
    "manažerka",
    "konzultant",
    "konzultantka",
    "inženýr",
    "specialista",
    "majitel",
    "zakladatel",
    "igazgató",
    "ügyvezető",
    "vezető",
    "menedzser",
    "tanácsadó",
    "mérnök",
    "tulajdonos",
    "alapító",
];

/// Endings of compound titles (German, Dutch, Nordic, Finnish): a
/// "Vertriebsleiter", a "Säljchef", a "Myyntipäällikkö".
const TITLE_ENDINGS: &[&str] = &[
    "leiter",
    "leiterin",
    "führer",
    "führerin",
    "manager",
    "managerin",
    "berater",
    "beraterin",
    "chef",
    "direktor",
    "direktør",
    "direktör",
    "johtaja",
    "päällikkö",
    "leider",
    "ledare",
    "leder",
    "ingenieur",
    "ingenieurin",
    "referent",
    "referentin",
    "entwickler",
    "entwicklerin",
    "designer",
    "konsult",
    "konsulent",
    "specialist",
    "spezialist",
    "techniker",
    "technikerin",
    "suunnittelija",
    "asiantuntija",
    "assistent",
    "assistentin",
];

/// Legal forms written with dots, slashes or several words: never anything
/// but a legal form, so found anywhere in a line.
const DOTTED_FORMS: &[&str] = &[
    "inc.",
    "corp.",
    "ltd.",
    "l.l.c.",
    "l.l.p.",
    "co.",
    "e.k.",
    "e.v.",
    "s.a.",
    "s.a.s.",
    "s.a.r.l.",
    "s.l.",
    "s.l.u.",
    "s.l.p.",
    "s.a.u.",
    "s.p.a.",
    "s.r.l.",
    "s.n.c.",
    "s.a.p.a.",
    "b.v.",
    "n.v.",
    "a/s",
    "lda.",
    "ltda.",
    "s/a",
    "sp. z o.o.",
    "sp.j.",
    "s.r.o.",
    "a.s.",
    "spol.",
    "kft.",
    "zrt.",
    "bt.",
    "d.o.o.",
    "d.d.",
    "pty.",
    "ges.m.b.h.",
    "gmbh & co. kg",
    "& co. kg",
    "s.c.",
];

/// Legal forms that are no common word in any language: found anywhere,
/// in any case.
const LEGAL_WORDS: &[&str] = &[
    "inc",
    "incorporated",
    "corp",
    "corporation",
    "ltd",
    "limited",
    "llc",
    "llp",
    "plc",
    "pllc",
    "gmbh",
    "sarl",
    "sàrl",
    "eurl",
    "sasu",
    "sas",
    "slu",
    "slp",
    "srl",
    "snc",
    "bvba",
    "sprl",
    "oyj",
    "aps",
    "ltda",
    "lda",
    "kft",
    "zrt",
    "nyrt",
    "doo",
    "gbr",
    "ohg",
    "pty",
    "bhd",
    "pte",
    "pvt",
];

/// Short legal forms that are also words ("AS", "SA", "AB", "Oy"): only as
/// printed, capitals and all, at the end of the line.
const SHORT_FORMS: &[&str] = &[
    "AG", "KG", "SE", "SA", "AB", "HB", "AS", "ASA", "ANS", "DA", "Oy", "Ky", "BV", "NV", "VOF", "SpA", "Srl", "UG",
    "OÜ", "SIA", "UAB", "AD", "KK", "SL",
];

/// Words companies name themselves with, in any case.
const ORGANISATION_WORDS: &[&str] = &[
    "group",
    "groupe",
    "grupo",
    "gruppo",
    "groep",
    "gruppe",
    "gruppen",
    "holding",
    "holdings",
    "consulting",
    "consultants",
    "consultores",
    "consulenti",
    "partners",
    "associates",
    "associés",
    "associati",
    "asociados",
    "abogados",
    "avocats",
    "avvocati",
    "advocaten",
    "advokater",
    "rechtsanwälte",
    "kanzlei",
    "cabinet",
    "bureau",
    "büro",
    "studio",
    "studios",
    "estudi",
    "estudio",
    "atelier",
    "agence",
    "agency",
    "agencia",
    "agenzia",
    "labs",
    "laboratories",
    "technologies",
    "technology",
    "solutions",
    "soluciones",
    "systems",
    "software",
    "industries",
    "international",
    "capital",
    "ventures",
    "bank",
    "banque",
    "banco",
    "insurance",
    "versicherung",
    "brouwerij",
    "brauerei",
    "boulangerie",
    "bakkerij",
    "restaurant",
    "hotel",
    "clinic",
    "klinik",
    "clinique",
    "university",
    "université",
    "universität",
    "universidad",
    "università",
    "institute",
    "institut",
    "instituto",
    "istituto",
    "foundation",
    "fondation",
    "stiftung",
    "fundación",
    "fondazione",
    "association",
    "verein",
    "asociación",
    "company",
    "compagnie",
    "compañía",
    "compagnia",
    "construcciones",
    "construction",
    "maschinenbau",
    "logistik",
    "logistics",
    "logística",
    "logistica",
    "logistyka",
    "arkitekter",
    "architekten",
    "architectes",
    "architects",
    "arquitectes",
    "ingénierie",
    "engineering",
    "ingeniería",
    "ingegneria",
    "services",
    "servicios",
    "servizi",
    "trading",
    "manufacturing",
    "design",
    "energie",
    "energy",
    "sistemas",
    "sistemi",
    "tecnologia",
    "tecnología",
    "rådgivning",
    "beratung",
    "conseil",
    "media",
    "digital",
    "data",
    "advisory",
    "advisors",
    "advisers",
    "legal",
    "law",
    "accountants",
    "accounting",
    "trust",
    "freight",
    "centres",
    "centers",
    "joinery",
    "builders",
    "properties",
    "estates",
    "logistiek",
    "advokatbyrå",
    "advokatfirma",
];

/// Word pairs that make a firm: "& Fils", "e Figli", "& Söhne".
const FAMILY_FIRMS: &[&str] = &["fils", "figli", "söhne", "sons", "hijos", "filhos", "zonen", "cie", "co", "co."];

/// Lower-case words that may stand between the capitalised parts of a
/// person's name.
pub const NAME_PARTICLES: &[&str] = &[
    "de", "da", "di", "du", "del", "della", "delle", "dei", "der", "den", "des", "van", "von", "vom", "zu", "zum",
    "la", "le", "lo", "y", "i", "e", "af", "av", "bin", "ben", "ibn", "al", "el", "dos", "das", "do", "ter", "ten",
    "op", "'t",
];

/// Words of street addresses.
const ADDRESS_WORDS: &[&str] = &[
    "street",
    "st",
    "avenue",
    "ave",
    "av",
    "road",
    "rd",
    "suite",
    "floor",
    "fl",
    "blvd",
    "boulevard",
    "lane",
    "drive",
    "box",
    "po",
    "court",
    "square",
    "plaza",
    "place",
    "rue",
    "bd",
    "quai",
    "allée",
    "chemin",
    "impasse",
    "route",
    "cedex",
    "straße",
    "strasse",
    "str",
    "weg",
    "platz",
    "gasse",
    "allee",
    "calle",
    "avda",
    "avenida",
    "paseo",
    "carrer",
    "via",
    "viale",
    "corso",
    "piazza",
    "piazzale",
    "rua",
    "praça",
    "travessa",
    "largo",
    "gatan",
    "vägen",
    "gata",
    "gate",
    "gaten",
    "vej",
    "vei",
    "veien",
    "gade",
    "katu",
    "tie",
    "kuja",
    "straat",
    "laan",
    "plein",
    "gracht",
    "kade",
    "steenweg",
    "ul",
    "ulica",
    "aleja",
    "náměstí",
    "ulice",
    "třída",
    "utca",
    "út",
    "tér",
    "körút",
];

/// Endings of compound street names: "Hansastraße", "Götgatan".
const ADDRESS_ENDINGS: &[&str] =
    &["straße", "strasse", "gatan", "vägen", "katu", "straat", "gracht", "weg", "platz", "gasse", "allee", "vej"];

fn folded(list: &[&str], word: &str) -> bool {
    let word = squash(word, false);
    !word.is_empty() && list.iter().any(|entry| squash(entry, false) == word)
}

fn ends_with_any(list: &[&str], word: &str) -> bool {
    let word = squash(word, false);
    list.iter().map(|e| squash(e, false)).any(|ending| word.len() >= ending.len() + 3 && word.ends_with(&ending))
}

/// The words of a line, lower-cased, without the punctuation around them.
pub fn words(line: &str) -> Vec<String> {
    line.split(|c: char| c.is_whitespace() || matches!(c, ',' | '|' | '/' | '&' | '·' | '•'))
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-').to_lowercase())
        .filter(|w| !w.is_empty())
        .collect()
}

/// How many words of the line name a job.
pub fn title_words(line: &str) -> usize {
    words(line)
        .iter()
        .filter(|w| {
            folded(TITLE_WORDS, w)
                || ends_with_any(TITLE_ENDINGS, w)
                || w.split('-').filter(|p| !p.is_empty()).any(|p| folded(TITLE_WORDS, p))
        })
        .count()
}

/// Whether the line carries a company's legal form.
pub fn has_legal_form(line: &str) -> bool {
    let lower = format!(" {} ", line.to_lowercase().split_whitespace().collect::<Vec<_>>().join(" "));
    let dotted = DOTTED_FORMS.iter().any(|form| {
        lower.match_indices(form).any(|(at, _)| {
            let before = lower[..at].chars().next_back();
            let after = lower[at + form.len()..].chars().next();
            before.is_some_and(|c| !c.is_alphanumeric()) && after.is_none_or(|c| !c.is_alphanumeric())
        })
    });
    let tokens: Vec<&str> = line.split_whitespace().map(|t| t.trim_matches(|c: char| matches!(c, ',' | ';'))).collect();
    let word = tokens.iter().any(|t| LEGAL_WORDS.contains(&t.trim_end_matches('.').to_lowercase().as_str()));
    let short = tokens.len() >= 2 && tokens.last().is_some_and(|last| SHORT_FORMS.contains(last));
    dotted || word || short
}

/// How strongly the line's words say "organisation": its own words, "&"
/// between names, "& Fils".
pub fn organisation_words(line: &str) -> f32 {
    let words = words(line);
    let own = words.iter().filter(|w| folded(ORGANISATION_WORDS, w)).count() as f32;
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let family = tokens.windows(2).any(|pair| {
        matches!(pair[0], "&" | "e" | "y" | "und" | "et") && FAMILY_FIRMS.contains(&pair[1].to_lowercase().as_str())
    });
    let ampersand = tokens.windows(3).any(|t| t[1] == "&" && starts_upper(t[0]) && starts_upper(t[2]));
    own + if family { 1.5 } else { 0.0 } + if ampersand { 0.5 } else { 0.0 }
}

pub fn starts_upper(word: &str) -> bool {
    word.chars().next().is_some_and(char::is_uppercase)
}

/// Whether the line names a street, a suite or a floor.
pub fn has_street_word(line: &str) -> bool {
    words(line).iter().any(|w| folded(ADDRESS_WORDS, w) || ends_with_any(ADDRESS_ENDINGS, w))
}

/// Whether the line is part of a street address: numbers, or a street
/// and a number.
pub fn is_address(line: &str) -> bool {
    let digits = line.chars().filter(char::is_ascii_digit).count();
    digits >= 3 || (digits >= 1 && has_street_word(line))
}

pub fn is_particle(word: &str) -> bool {
    NAME_PARTICLES.contains(&word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_are_known_in_many_languages_and_as_compounds() {
        for title in [
            "Chief Technology Officer",
            "Directrice Commerciale Europe",
            "Geschäftsführer",
            "Vertriebsleiter Süd",
            "Säljchef Norden",
            "Myyntipäällikkö",
            "Responsabile Vendite Estero",
            "Ingeniero de Caminos",
            "Kierownik Działu Sprzedaży",
            "Obchodní ředitel",
            "Key Account Managerin",
            "Gerente",
            "Co-Founder & CEO",
        ] {
            assert!(title_words(title) >= 1, "{title}");
        }
        for not_title in ["Maison Dupré SARL", "Élodie Dupré-Martin", "Highland Ground Engineering Ltd"] {
            assert_eq!(title_words(not_title), 0, "{not_title}");
        }
    }

    #[test]
    fn legal_forms_are_found_dotted_or_not_but_short_ones_only_as_printed() {
        for company in [
            "Maison Dupré SARL",
            "Soluciones Ibéricas S.L.",
            "Brückner Logistik GmbH & Co. KG",
            "Nordväst Maskin AB",
            "Redwood Analytics, Inc.",
            "Ferri Meccanica S.p.A.",
            "Groenveld Installatietechniek B.V.",
            "Kuusi Ohjelmistot Oy",
            "Blåvand Energi A/S",
            "Mazowia Logistyka Sp. z o.o.",
            "Morel Ingénierie Sàrl",
            "Tejo Sistemas Lda.",
        ] {
            assert!(has_legal_form(company), "{company}");
        }
        for not_company in ["Head of Sales", "As good as new", "Sales as a service", "Ana Salas", "Spa & Wellness"] {
            assert!(!has_legal_form(not_company), "{not_company}");
        }
    }

    #[test]
    fn organisations_are_told_by_their_words() {
        // Companies whose line a probe's cards printed apart from the e-mail
        // domain, and the reader left empty.
        for company in ["Fjordline Advisory", "Sahara Data Centres LLC", "Ferrante Legal LLP"] {
            assert!(organisation_words(company) >= 1.0, "{company}");
        }
        assert!(organisation_words("Brandt & Söhne Bau GmbH") >= 1.5);
        assert!(organisation_words("Boulangerie Garçon & Fils") >= 2.0);
        assert!(organisation_words("Summit Ridge Capital Partners") >= 2.0);
        assert!(organisation_words("Ashworth & Finch") > 0.0);
        assert_eq!(organisation_words("Catherine Smith-Jones"), 0.0);
    }

    #[test]
    fn addresses_are_told_by_street_words_and_numbers() {
        assert!(is_address("Hansastraße 14, 44137 Dortmund"));
        assert!(is_address("Av. de la Gare 10"));
        assert!(is_address("ul. Marszałkowska 84, 00-514 Warszawa"));
        assert!(!is_address("Karl Johan"));
    }
}

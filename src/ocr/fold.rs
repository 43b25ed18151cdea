//! Latin letters without their accents, the way e-mail addresses and web
//! domains spell names: "Dupré" is `dupre`, "Müller" `muller` or `mueller`,
//! "Søren" `soren`, "Weiß" `weiss`.

/// `text` lower-cased, each letter without its accent and every character
/// that is not a letter or digit dropped: "Maison Dupré-Martin" gives
/// `maisondupremartin`. `german` spells ä, ö and ü as ae, oe and ue.
pub fn squash(text: &str, german: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        match (c, german) {
            ('ä', true) => out.push_str("ae"),
            ('ö', true) => out.push_str("oe"),
            ('ü', true) => out.push_str("ue"),
            _ => match plain(c) {
                Some(s) => out.push_str(s),
                None if c.is_ascii_alphanumeric() => out.push(c),
                None => {}
            },
        }
    }
    out
}

/// The ASCII spelling of an accented lower-case Latin letter.
fn plain(c: char) -> Option<&'static str> {
    Some(match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' | 'ạ' => "a",
        'æ' => "ae",
        'ç' | 'ć' | 'ĉ' | 'ċ' | 'č' => "c",
        'ď' | 'đ' | 'ð' => "d",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ĕ' | 'ė' | 'ę' | 'ě' | 'ẹ' => "e",
        'ĝ' | 'ğ' | 'ġ' | 'ģ' => "g",
        'ĥ' | 'ħ' => "h",
        'ì' | 'í' | 'î' | 'ï' | 'ĩ' | 'ī' | 'ĭ' | 'į' | 'ı' | 'ị' => "i",
        'ĵ' => "j",
        'ķ' => "k",
        'ĺ' | 'ļ' | 'ľ' | 'ŀ' | 'ł' => "l",
        'ñ' | 'ń' | 'ņ' | 'ň' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ŏ' | 'ő' | 'ọ' => "o",
        'œ' => "oe",
        'ŕ' | 'ŗ' | 'ř' => "r",
        'ś' | 'ŝ' | 'ş' | 'š' | 'ș' => "s",
        'ß' => "ss",
        'ţ' | 'ť' | 'ŧ' | 'ț' => "t",
        'þ' => "th",
        'ù' | 'ú' | 'û' | 'ü' | 'ũ' | 'ū' | 'ŭ' | 'ů' | 'ű' | 'ų' | 'ụ' => "u",
        'ŵ' => "w",
        'ý' | 'ÿ' | 'ŷ' => "y",
        'ź' | 'ż' | 'ž' => "z",
        _ => return None,
    })
}

/// Whether `text` spelled plainly (either way for ä, ö and ü) appears in
/// `plain`, which is already squashed.
pub fn appears_in(text: &str, plain: &str) -> bool {
    let (one, other) = (squash(text, false), squash(text, true));
    !one.is_empty() && (plain.contains(&one) || plain.contains(&other))
}

/// The longest run of `text`'s plain letters (either spelling) that also
/// appears in `plain`, as a share of `plain`'s length: how much of a web
/// domain a printed line covers.
pub fn coverage(text: &str, plain: &str) -> f32 {
    if plain.is_empty() {
        return 0.0;
    }
    let best = [squash(text, false), squash(text, true)].iter().map(|t| longest_common_run(t, plain)).max();
    best.unwrap_or(0) as f32 / plain.len() as f32
}

fn longest_common_run(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut previous = vec![0usize; b.len() + 1];
    let mut best = 0;
    for &x in a {
        let mut current = vec![0usize; b.len() + 1];
        for (j, &y) in b.iter().enumerate() {
            if x == y {
                current[j + 1] = previous[j] + 1;
                best = best.max(current[j + 1]);
            }
        }
        previous = current;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accented_names_are_spelled_as_addresses_spell_them() {
        assert_eq!(squash("Élodie Dupré-Martin", false), "elodiedupremartin");
        assert_eq!(squash("Søren Nørgaard", false), "sorennorgaard");
        assert_eq!(squash("Jörg Weiß", true), "joergweiss");
        assert_eq!(squash("Małgorzata Wiśniewska", false), "malgorzatawisniewska");
        assert_eq!(squash("Ayşe Özdemir", true), "ayseoezdemir");
    }

    #[test]
    fn a_line_is_found_in_a_domain_either_way_of_spelling_umlauts() {
        assert!(appears_in("Müller", "hpmueller"));
        assert!(appears_in("Åkesson", "asaakesson"));
        assert!(!appears_in("—", "anything"));
    }

    #[test]
    fn coverage_is_the_share_of_the_domain_a_line_spells() {
        assert_eq!(coverage("Maison Dupré SARL", "maisondupre"), 1.0);
        assert_eq!(coverage("LUMEN", "lumendesign"), 5.0 / 11.0);
        assert_eq!(coverage("Brückner Logistik", "bruecknerlogistik"), 1.0);
        assert_eq!(coverage("x", ""), 0.0);
    }
}

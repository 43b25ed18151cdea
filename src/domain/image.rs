//! Pictures sent by the browser as data URLs, checked by their content,
//! never by the type the browser claims.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

/// The spec's limit on a photo, counted in data-URL characters.
pub const DATA_URL_MAX: usize = 1_000_000;

#[derive(Debug, PartialEq, Eq)]
pub enum ImageError {
    TooLarge,
    Malformed,
    /// Decodes, but is not a JPEG, PNG or WebP picture.
    Unsupported,
}

/// The MIME type of a JPEG, PNG or WebP file, from its first bytes.
pub fn sniff(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some("image/webp")
    } else {
        None
    }
}

/// Decodes `data:image/…;base64,…` and checks what it holds.
pub fn from_data_url(url: &str) -> Result<(&'static str, Vec<u8>), ImageError> {
    if url.len() > DATA_URL_MAX {
        return Err(ImageError::TooLarge);
    }
    let (header, payload) = url.split_once(',').ok_or(ImageError::Malformed)?;
    if !header.starts_with("data:") || !header.ends_with(";base64") {
        return Err(ImageError::Malformed);
    }
    let bytes = STANDARD.decode(payload.trim()).map_err(|_| ImageError::Malformed)?;
    let mime = sniff(&bytes).ok_or(ImageError::Unsupported)?;
    Ok((mime, bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG_1PX: &str =
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

    #[test]
    fn a_png_data_url_is_read_by_its_content() {
        let (mime, bytes) = from_data_url(&format!("data:image/jpeg;base64,{PNG_1PX}")).unwrap();
        assert_eq!(mime, "image/png", "the claimed type does not count");
        assert!(bytes.starts_with(b"\x89PNG"));
    }

    #[test]
    fn html_or_svg_dressed_as_an_image_is_refused() {
        let html = STANDARD.encode("<html><script>alert(1)</script></html>");
        assert_eq!(from_data_url(&format!("data:image/png;base64,{html}")), Err(ImageError::Unsupported));
        let svg = STANDARD.encode("<svg xmlns='http://www.w3.org/2000/svg'/>");
        assert_eq!(from_data_url(&format!("data:image/svg+xml;base64,{svg}")), Err(ImageError::Unsupported));
    }

    #[test]
    fn oversized_or_malformed_data_urls_are_refused() {
        assert_eq!(from_data_url(&"a".repeat(DATA_URL_MAX + 1)), Err(ImageError::TooLarge));
        assert_eq!(from_data_url("not a data url"), Err(ImageError::Malformed));
        assert_eq!(from_data_url("data:image/png;base64,***"), Err(ImageError::Malformed));
    }

    #[test]
    fn webp_and_jpeg_are_recognised() {
        assert_eq!(sniff(b"RIFF\x00\x00\x00\x00WEBPVP8 "), Some("image/webp"));
        assert_eq!(sniff(&[0xFF, 0xD8, 0xFF, 0xE0]), Some("image/jpeg"));
        assert_eq!(sniff(b"GIF89a"), None);
    }
}

#[cfg(test)]
mod properties {
    use proptest::prelude::*;

    use super::*;

    const MAGIC: [(&str, &[u8]); 3] =
        [("image/jpeg", &[0xFF, 0xD8, 0xFF]), ("image/png", b"\x89PNG\r\n\x1a\n"), ("image/webp", b"RIFF")];

    /// Bytes an attacker would send: random, with an image's magic in
    /// front, or markup a browser would run if it were served back.
    fn payload() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..64),
            (0..MAGIC.len(), proptest::collection::vec(any::<u8>(), 0..64))
                .prop_map(|(i, rest)| [MAGIC[i].1, &rest].concat()),
            (proptest::collection::vec(any::<u8>(), 4..5), proptest::collection::vec(any::<u8>(), 0..32))
                .prop_map(|(size, rest)| [b"RIFF", &size[..], b"WEBP", &rest].concat()),
            markup(),
        ]
    }

    /// HTML or SVG, maybe after white space or a byte-order mark.
    fn markup() -> impl Strategy<Value = Vec<u8>> {
        let tag = prop_oneof![
            Just("<html>"),
            Just("<svg xmlns='http://www.w3.org/2000/svg'>"),
            Just("<script>"),
            Just("<?xml version='1.0'?><svg>"),
            Just("<!DOCTYPE html>")
        ];
        ("[ \t\r\n\u{feff}]{0,3}", tag, ".{0,40}")
            .prop_map(|(lead, tag, rest)| format!("{lead}{tag}{rest}").into_bytes())
    }

    fn is_markup(bytes: &[u8]) -> bool {
        String::from_utf8_lossy(bytes)
            .trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
            .starts_with('<')
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn any_string_is_accepted_or_refused_without_a_panic(url in prop_oneof![".*", "data:[a-z/+;=]{0,20}(;base64)?,[A-Za-z0-9+/=\\s]{0,80}"]) {
            if let Ok((mime, bytes)) = from_data_url(&url) {
                prop_assert!(url.starts_with("data:"));
                prop_assert_eq!(sniff(&bytes), Some(mime));
            }
        }

        #[test]
        fn only_bytes_starting_with_their_types_magic_are_accepted(
            bytes in payload(),
            claimed in prop_oneof![Just("image/png".to_owned()), Just("image/jpeg".to_owned()), Just("image/svg+xml".to_owned()), Just("text/html".to_owned()), "[a-z/+.-]{0,20}"],
        ) {
            let url = format!("data:{claimed};base64,{}", STANDARD.encode(&bytes));
            match from_data_url(&url) {
                Ok((mime, decoded)) => {
                    prop_assert_eq!(&decoded, &bytes);
                    let magic = MAGIC.iter().find(|(m, _)| *m == mime).map(|(_, magic)| *magic).unwrap();
                    prop_assert!(decoded.starts_with(magic), "{mime} without its magic");
                    if mime == "image/webp" {
                        prop_assert_eq!(&decoded[8..12], b"WEBP");
                    }
                    prop_assert!(!is_markup(&decoded));
                }
                Err(e) => {
                    prop_assert_eq!(e, ImageError::Unsupported);
                    prop_assert!(sniff(&bytes).is_none());
                }
            }
        }

        #[test]
        fn markup_is_never_accepted_as_an_image(bytes in markup()) {
            prop_assert!(is_markup(&bytes));
            prop_assert!(sniff(&bytes).is_none());
            let url = format!("data:image/png;base64,{}", STANDARD.encode(&bytes));
            prop_assert_eq!(from_data_url(&url), Err(ImageError::Unsupported));
        }
    }
}

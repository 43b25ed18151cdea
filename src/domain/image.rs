//! Pictures sent by the browser as data URLs, checked by their content,
//! never by the type the browser claims.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

/// The spec's limit on a photo, counted in data-URL characters.
pub const DATA_URL_MAX: usize = 1_000_000;

/// No picture is decoded, or stored to be decoded by a browser, with more
/// pixels than this: the 108 MP of the largest phone cameras fit. A header
/// can claim far more in a few bytes (65,000 × 65,000 is 4 GB of gray).
pub const MAX_PIXELS: u64 = 120_000_000;
/// Nor with a side longer than this.
pub const MAX_SIDE: u32 = 16_384;
/// Nor needing more memory than this for one picture, whatever it says.
pub const MAX_DECODE_BYTES: u64 = 512 * 1024 * 1024;

/// The limits every decoder of an uploaded picture runs under.
pub fn decode_limits() -> image::Limits {
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_DECODE_BYTES);
    limits
}

/// Whether a picture of this size may be decoded.
pub fn within_limits(width: u32, height: u32) -> bool {
    width <= MAX_SIDE && height <= MAX_SIDE && u64::from(width) * u64::from(height) <= MAX_PIXELS
}

/// Whether decoding this JPEG stays under [`MAX_DECODE_BYTES`], judged
/// from its frame header; true for anything that is not a JPEG.
///
/// The decoders' own allocation limit does not cover every buffer: a
/// progressive JPEG keeps 2 bytes of coefficients per component and pixel
/// until its last scan, then converts. A 3 KB progressive CMYK file
/// claiming 16,384 × 7,320 pixels (within the pixel limit) took about 1 GB
/// to decode; this bound refuses it from its first bytes.
pub fn jpeg_within_memory(bytes: &[u8]) -> bool {
    let Some(frame) = jpeg_frame(bytes) else { return true };
    let pixels = u64::from(frame.width) * u64::from(frame.height);
    let components = u64::from(frame.components);
    // The decoded samples, then the coefficients a progressive file holds
    // beside them.
    let samples = pixels * components;
    let coefficients = if frame.progressive { pixels * components * 2 } else { 0 };
    samples + coefficients <= MAX_DECODE_BYTES
}

/// What a JPEG's frame header (SOFn) says.
#[derive(Debug, PartialEq, Eq)]
struct JpegFrame {
    width: u16,
    height: u16,
    components: u8,
    progressive: bool,
}

/// The first frame header of a JPEG, walking its segments; `None` when
/// the bytes are no JPEG or end first.
fn jpeg_frame(bytes: &[u8]) -> Option<JpegFrame> {
    if !bytes.starts_with(&[0xFF, 0xD8]) {
        return None;
    }
    let mut at = 2;
    loop {
        let (&marker_start, &marker) = (bytes.get(at)?, bytes.get(at + 1)?);
        if marker_start != 0xFF {
            return None;
        }
        if marker == 0xFF {
            at += 1; // fill byte
            continue;
        }
        let length = usize::from(u16::from_be_bytes([*bytes.get(at + 2)?, *bytes.get(at + 3)?]));
        // SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC).
        if (0xC0..=0xCF).contains(&marker) && !matches!(marker, 0xC4 | 0xC8 | 0xCC) {
            let header = bytes.get(at + 4..at + 10)?;
            return Some(JpegFrame {
                height: u16::from_be_bytes([header[1], header[2]]),
                width: u16::from_be_bytes([header[3], header[4]]),
                components: header[5],
                progressive: matches!(marker, 0xC2 | 0xC6 | 0xCA | 0xCE),
            });
        }
        at += 2 + length;
    }
}

/// The size a picture's header claims, read without decoding its pixels.
pub fn dimensions(bytes: &[u8]) -> Option<(u32, u32)> {
    image::ImageReader::new(std::io::Cursor::new(bytes)).with_guessed_format().ok()?.into_dimensions().ok()
}

/// A real 16 × 16 JPEG whose frame header claims `width` × `height`: what
/// a decompression bomb looks like.
#[cfg(test)]
pub(crate) fn jpeg_claiming(width: u16, height: u16) -> Vec<u8> {
    let mut jpeg = Vec::new();
    image::DynamicImage::ImageLuma8(image::GrayImage::new(16, 16))
        .write_to(&mut std::io::Cursor::new(&mut jpeg), image::ImageFormat::Jpeg)
        .unwrap();
    let frame = jpeg.windows(2).position(|w| w == [0xFF, 0xC0]).expect("a baseline frame header");
    jpeg[frame + 5..frame + 7].copy_from_slice(&height.to_be_bytes());
    jpeg[frame + 7..frame + 9].copy_from_slice(&width.to_be_bytes());
    jpeg
}

#[derive(Debug, PartialEq, Eq)]
pub enum ImageError {
    TooLarge,
    /// Its header claims more pixels than any picture is decoded with.
    TooManyPixels,
    Malformed,
    /// Decodes, but is not a JPEG, PNG or WebP picture.
    Unsupported,
    /// Starts as a picture, but its size cannot be read from its header.
    Unreadable,
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
    // Stored pictures are decoded by every browser that shows them.
    match dimensions(&bytes) {
        Some((width, height)) if within_limits(width, height) => Ok((mime, bytes)),
        Some(_) => Err(ImageError::TooManyPixels),
        // A browser would have to decode it to learn its size.
        None => Err(ImageError::Unreadable),
    }
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
    fn a_picture_claiming_more_pixels_than_the_limit_is_refused_from_its_header() {
        let bomb = jpeg_claiming(65_000, 65_000);
        assert_eq!(dimensions(&bomb), Some((65_000, 65_000)));
        let url = format!("data:image/jpeg;base64,{}", STANDARD.encode(&bomb));
        assert_eq!(from_data_url(&url), Err(ImageError::TooManyPixels));
        assert!(within_limits(12_000, 9_000), "a 108 MP phone photo");
        assert!(!within_limits(16_000, 16_000) && !within_limits(20_000, 10));
    }

    #[test]
    fn a_picture_whose_size_cannot_be_read_is_refused() {
        // A JPEG's first bytes and nothing after: no frame header to read.
        let headless = STANDARD.encode([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, b'J', b'F', b'I', b'F', 0]);
        assert_eq!(from_data_url(&format!("data:image/jpeg;base64,{headless}")), Err(ImageError::Unreadable));
    }

    #[test]
    fn a_progressive_cmyk_jpeg_claiming_what_would_take_a_gigabyte_is_refused_and_a_phone_photo_is_not() {
        let frame = |marker: u8, width: u16, height: u16, components: u8| {
            let mut jpeg = vec![0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF, marker, 0, 8 + 3 * components, 8];
            jpeg.extend(height.to_be_bytes());
            jpeg.extend(width.to_be_bytes());
            jpeg.push(components);
            jpeg
        };
        let bomb = frame(0xC2, 16_384, 7_320, 4);
        assert!(within_limits(16_384, 7_320), "within the pixel limit, so that alone does not refuse it");
        assert_eq!(
            jpeg_frame(&bomb),
            Some(JpegFrame { width: 16_384, height: 7_320, components: 4, progressive: true })
        );
        assert!(!jpeg_within_memory(&bomb));
        assert!(jpeg_within_memory(&frame(0xC2, 4_000, 3_000, 3)), "a 12 MP progressive phone photo");
        assert!(jpeg_within_memory(&frame(0xC0, 8_000, 6_000, 3)), "a 48 MP baseline phone photo");
        assert!(jpeg_within_memory(&jpeg_claiming(16, 16)));
        assert!(jpeg_within_memory(b"\x89PNG\r\n\x1a\n"), "not a JPEG: other checks apply");
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
        fn only_bytes_starting_with_their_types_magic_and_a_readable_size_are_accepted(
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
                Err(ImageError::Unreadable) => {
                    prop_assert!(sniff(&bytes).is_some() && dimensions(&bytes).is_none());
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

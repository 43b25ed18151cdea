//! The Subject header, safe from text that looks encoded.
//!
//! Plain ASCII words go into a header as they are, so a name typed as
//! `=?utf-8?q?...?=` would reach the client's mail program as an encoded
//! word and be shown decoded: text the user never saw in the preview.
//! A subject holding `=?` is therefore sent encoded as a whole.

use base64::Engine;
use lettre::message::header::{HeaderName, HeaderValue};

/// Bytes of text per encoded word: 40 bytes make 56 base64 characters, so
/// a folded line stays under 78 characters.
const WORD_BYTES: usize = 40;

/// The Subject header for `subject`: `None` when lettre's own encoding
/// shows it as typed.
pub fn encoded_subject(subject: &str) -> Option<HeaderValue> {
    if !subject.contains("=?") {
        return None;
    }
    let words: Vec<String> = utf8_chunks(subject, WORD_BYTES)
        .map(|chunk| format!("=?utf-8?b?{}?=", base64::engine::general_purpose::STANDARD.encode(chunk)))
        .collect();
    Some(HeaderValue::dangerous_new_pre_encoded(
        HeaderName::new_from_ascii_str("Subject"),
        subject.to_owned(),
        words.join("\r\n "),
    ))
}

/// `text` in pieces of at most `max` bytes, never splitting a character.
fn utf8_chunks(text: &str, max: usize) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut end = rest.len().min(max);
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        let (chunk, tail) = rest.split_at(end);
        rest = tail;
        Some(chunk)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(encoded: &str) -> String {
        let bytes: Vec<u8> = encoded
            .split("\r\n ")
            .flat_map(|word| {
                let inner =
                    word.strip_prefix("=?utf-8?b?").and_then(|w| w.strip_suffix("?=")).expect("one encoded word");
                base64::engine::general_purpose::STANDARD.decode(inner).unwrap()
            })
            .collect();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn a_subject_without_encoded_looking_text_is_left_to_lettre() {
        assert!(encoded_subject("Meeting Summary - Jane Doe").is_none());
    }

    #[test]
    fn a_name_typed_as_an_encoded_word_is_sent_encoded_and_reads_back_as_typed() {
        let typed = "Meeting Summary - =?utf-8?q?Your_account_is_locked?= Zoë Ångström-Müller and a longer tail";
        let header = encoded_subject(typed).unwrap();
        let mut headers = lettre::message::header::Headers::new();
        headers.insert_raw(header);
        let line = headers.to_string();
        let value = line.strip_prefix("Subject: ").unwrap().trim_end_matches("\r\n");
        assert!(!value.contains("=?utf-8?q?"), "{value}");
        assert!(value.split("\r\n").all(|l| l.len() <= 78), "{value}");
        assert_eq!(decoded(value), typed);
    }
}

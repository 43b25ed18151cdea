//! A transcript as turns of speech: who spoke, when the transcript says
//! ("Anna Lopez: …", "[00:01:02] Tom: …", or a name alone on its line above
//! what was said, as meeting tools export), and the words, cleaned of
//! transcriber marks ("{disfmarker}", "[laughter]", timestamps).

/// One turn: its speaker when labelled, and its text.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    pub speaker: Option<String>,
    pub text: String,
}

/// Words that open a line like a label but are no speaker ("Note: …").
const NOT_SPEAKERS: &[&str] = &[
    "note",
    "notes",
    "agenda",
    "action",
    "actions",
    "next",
    "summary",
    "subject",
    "re",
    "update",
    "question",
    "answer",
    "decision",
    "decisions",
    "todo",
    "to-do",
    "item",
    "items",
    "step",
    "steps",
    "attendees",
    "date",
    "time",
    "location",
    "topic",
    "title",
    "meeting",
    "transcript",
    "ps",
    "fyi",
];
/// Longest speaker label, in words and characters.
const MAX_LABEL_WORDS: usize = 4;
const MAX_LABEL_CHARS: usize = 40;

/// The turns of `transcript`. Speaker labels count only when at least two
/// lines carry one: a single "Note:" does not make a transcript labelled.
pub fn turns(transcript: &str) -> Vec<Turn> {
    let lines: Vec<String> = transcript.lines().map(clean).collect();
    let labels: Vec<Option<(String, String)>> = lines.iter().map(|line| label(line)).collect();
    // A name alone on its line, above the words: "Anna Lopez  0:03".
    let headings: Vec<Option<String>> = lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let next_is_words = lines[i + 1..]
                .iter()
                .find(|l| !l.trim().is_empty())
                .is_some_and(|l| label(l).is_none() && heading(l).is_none());
            heading(line).filter(|_| next_is_words)
        })
        .collect();
    let labelled = labels.iter().filter(|l| l.is_some()).count() + headings.iter().filter(|h| h.is_some()).count();
    let mut turns: Vec<Turn> = Vec::new();
    let mut speaker: Option<String> = None;
    for (i, line) in lines.iter().enumerate() {
        let (who, text) = match (&labels[i], &headings[i]) {
            (Some((who, text)), _) if labelled >= 2 => (Some(who.clone()), text.as_str()),
            (_, Some(who)) if labelled >= 2 => {
                speaker = Some(who.clone());
                continue;
            }
            _ => (None, line.as_str()),
        };
        if text.trim().is_empty() {
            continue;
        }
        match who {
            Some(who) => {
                speaker = Some(who.clone());
                turns.push(Turn { speaker: Some(who), text: text.trim().to_string() });
            }
            // A line without a label goes on with the last speaker's turn.
            None if labelled >= 2 && speaker.is_some() => match turns.last_mut() {
                Some(last) if last.speaker == speaker => {
                    last.text.push(' ');
                    last.text.push_str(text.trim());
                }
                _ => turns.push(Turn { speaker: speaker.clone(), text: text.trim().to_string() }),
            },
            None => turns.push(Turn { speaker: None, text: text.trim().to_string() }),
        }
    }
    turns
}

/// "Anna Lopez: text", "[00:01:02] Anna: text", "Anna (00:01): text",
/// "SPEAKER_01: text": the speaker and the text.
fn label(line: &str) -> Option<(String, String)> {
    let line = skip_timestamp(line.trim_start());
    let (head, text) = line.split_at_checked(label_colon(line)?)?;
    let text = &text[1..];
    let head = strip_trailing_timestamp(head.trim());
    is_name(head).then(|| (head.to_string(), text.trim().to_string()))
}

/// Where the colon after a label is: the first one that is not inside a
/// time ("Anna (00:01): …", "Anna Lopez  0:03").
fn label_colon(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let digit = |i: Option<usize>| i.and_then(|i| bytes.get(i)).is_some_and(u8::is_ascii_digit);
    (0..bytes.len()).find(|&i| bytes[i] == b':' && !(digit(i.checked_sub(1)) && digit(Some(i + 1))))
}

/// A line that is only a speaker's name, perhaps with a time: "Anna Lopez
/// 0:03", "Tom (00:01:10)".
fn heading(line: &str) -> Option<String> {
    let line = skip_timestamp(line.trim());
    let name = strip_trailing_timestamp(line.trim());
    (name.len() < line.len() && is_name(name)).then(|| name.to_string())
}

fn is_name(head: &str) -> bool {
    let words: Vec<&str> = head.split_whitespace().collect();
    if words.is_empty() || words.len() > MAX_LABEL_WORDS || head.len() > MAX_LABEL_CHARS {
        return false;
    }
    let first = words[0].to_lowercase();
    if NOT_SPEAKERS.contains(&first.as_str()) {
        return false;
    }
    // "Speaker 2", "SPEAKER_01", "Anna", "Dr. Chen", "Project Manager".
    words.iter().enumerate().all(|(i, w)| {
        let w = w.trim_end_matches('.');
        w.starts_with(|c: char| c.is_uppercase()) && w.chars().all(|c| c.is_alphanumeric() || "'-_".contains(c))
            || (i > 0 && w.chars().all(|c| c.is_ascii_digit()))
    })
}

/// "[00:01:02] ", "00:01 ", "(0:03) " at the start of a line.
fn skip_timestamp(line: &str) -> &str {
    let trimmed = line.trim_start_matches(['[', '(']);
    let end = trimmed.find(|c: char| !(c.is_ascii_digit() || c == ':' || c == '.')).unwrap_or(trimmed.len());
    if end >= 3 && trimmed[..end].contains(':') {
        trimmed[end..].trim_start_matches([']', ')', ' ', '-']).trim_start()
    } else {
        line
    }
}

/// "Anna Lopez 0:03", "Tom (00:01:10)" without the time.
fn strip_trailing_timestamp(head: &str) -> &str {
    let trimmed = head.trim_end_matches([']', ')']);
    // The end of the last character that is no part of a time: a
    // currency sign before "600." is two bytes, so its width, not one.
    let start = trimmed
        .char_indices()
        .rev()
        .find(|&(_, c)| !(c.is_ascii_digit() || c == ':' || c == '.'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    if trimmed.len() - start >= 3 && trimmed[start..].contains(':') {
        trimmed[..start].trim_end_matches(['[', '(', ' ', '-', '|']).trim_end()
    } else {
        head
    }
}

/// A line without transcriber marks: "{disfmarker}", "[laughter]",
/// "<noise>" dropped, marks after a space joined to their word ("meeting .").
pub fn clean(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut depth = 0usize;
    let mut bracket = None;
    for c in line.chars() {
        match (c, bracket) {
            ('{' | '<', None) => {
                bracket = Some(if c == '{' { '}' } else { '>' });
                depth = 1;
            }
            ('[', None) => {
                bracket = Some(']');
                depth = 1;
            }
            (c, Some(close)) if c == close => {
                depth -= 1;
                if depth == 0 {
                    bracket = None;
                }
            }
            (_, Some(_)) => {}
            _ => out.push(c),
        }
    }
    // A bracket that never closed was text after all.
    if bracket.is_some() {
        out = line.to_string();
    }
    let out = out.replace('’', "'");
    let mut joined = String::with_capacity(out.len());
    for word in out.split_whitespace() {
        if !joined.is_empty() && (word.len() != 1 || !".,?!;:".contains(word)) {
            joined.push(' ');
        }
        joined.push_str(word);
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;

    fn speakers(transcript: &str) -> Vec<(Option<String>, String)> {
        turns(transcript).into_iter().map(|t| (t.speaker, t.text)).collect()
    }

    fn turn(speaker: &str, text: &str) -> (Option<String>, String) {
        (Some(speaker.to_string()), text.to_string())
    }

    #[test]
    fn labelled_lines_keep_their_speakers_and_continue_unlabelled() {
        let got = speakers("Anna Lopez: I'll send it.\nThanks.\n[00:01:02] Tom: Great.\nSPEAKER_01 (00:02): Bye");
        assert_eq!(
            got,
            [turn("Anna Lopez", "I'll send it. Thanks."), turn("Tom", "Great."), turn("SPEAKER_01", "Bye")]
        );
    }

    #[test]
    fn names_alone_on_a_line_head_the_words_below() {
        let got = speakers("Anna Lopez  0:03\nI'll send it by Friday.\n\nTom Baker  0:09\nGreat, thanks.");
        assert_eq!(got, [turn("Anna Lopez", "I'll send it by Friday."), turn("Tom Baker", "Great, thanks.")]);
    }

    #[test]
    fn one_label_like_line_or_plain_text_is_not_labelled() {
        let got = speakers("Note: this was recorded.\nwe will send the contract by friday");
        assert!(got.iter().all(|(s, _)| s.is_none()), "{got:?}");
        let got = speakers("Next steps: send it.\nAction items: book it.");
        assert!(got.iter().all(|(s, _)| s.is_none()), "{got:?}");
    }

    #[test]
    fn a_line_ending_in_an_amount_after_a_currency_sign_is_read_not_a_panic() {
        let got = speakers("Harriet Doyle: A quartet is about £600.\nOmar Bashir: No thanks, €1.50 is our limit.");
        assert_eq!(
            got,
            [turn("Harriet Doyle", "A quartet is about £600."), turn("Omar Bashir", "No thanks, €1.50 is our limit.")]
        );
        assert!(speakers("£600.\nWe'll pay ¥12:00").iter().all(|(s, _)| s.is_none()));
    }

    #[test]
    fn transcriber_marks_are_dropped() {
        assert_eq!(clean("So {disfmarker} the uh [laughter] meeting . <noise> Yes ?"), "So the uh meeting. Yes?");
        assert_eq!(clean("costs [about 3 units"), "costs [about 3 units");
    }
}

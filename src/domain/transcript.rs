//! A transcript as its segments, each with the time it was said, and the
//! owner's corrections of them. The spec's `transcription` is the segments'
//! text joined; the recogniser's own segments are kept beside a correction
//! so that it can be undone. Exports: plain text, SubRip and WebVTT.

use serde::{Deserialize, Serialize};

use super::fields::{FieldError, FieldErrors};

/// Longest text of one segment an owner may write.
pub const SEGMENT_MAX: usize = 5_000;

/// One stretch of speech, with its start and end in the recording.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Segment {
    pub start_ms: u64,
    pub end_ms: u64,
    pub text: String,
}

/// A stored transcript.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TranscriptRecord {
    pub segments: Vec<Segment>,
    /// What the recogniser wrote, while the owner's correction stands.
    pub original: Option<Vec<Segment>>,
}

impl TranscriptRecord {
    /// The recogniser's segments, as written.
    pub fn recognised(segments: Vec<Segment>) -> Self {
        Self { segments, original: None }
    }

    /// A transcript from before segments were kept: its whole text as one
    /// segment spanning the recording.
    pub fn whole(text: &str, duration_ms: u64) -> Self {
        Self::recognised(vec![Segment { start_ms: 0, end_ms: duration_ms, text: text.trim().to_owned() }])
    }

    /// The transcript as the spec's `transcription` text.
    pub fn text(&self) -> String {
        joined(&self.segments)
    }

    /// Puts the owner's texts in place of the segments', keeping the times
    /// and, the first time, the recogniser's words.
    pub fn correct(&mut self, edit: TranscriptEdit) {
        let before = self.segments.clone();
        for (segment, text) in self.segments.iter_mut().zip(edit.texts) {
            segment.text = text;
        }
        if self.original.is_none() && self.segments != before {
            self.original = Some(before);
        }
    }

    /// Back to the recogniser's words.
    pub fn undo_corrections(&mut self) {
        if let Some(original) = self.original.take() {
            self.segments = original;
        }
    }

    pub fn view(&self) -> TranscriptView {
        TranscriptView { text: self.text(), segments: self.segments.clone(), corrected: self.is_corrected() }
    }

    /// The owner corrected it (and can undo that).
    pub fn is_corrected(&self) -> bool {
        self.original.is_some()
    }
}

/// Segments' texts joined by a space, empty ones left out.
pub fn joined(segments: &[Segment]) -> String {
    segments.iter().map(|s| s.text.trim()).filter(|t| !t.is_empty()).collect::<Vec<_>>().join(" ")
}

/// A transcript as its owner's browser sees it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptView {
    pub text: String,
    pub segments: Vec<Segment>,
    /// The owner corrected it (and can undo that).
    pub corrected: bool,
}

/// The owner's corrected texts, one per segment, in order.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TranscriptInput {
    pub segments: Vec<SegmentInput>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SegmentInput {
    pub text: Option<String>,
}

/// A valid [`TranscriptInput`] for a transcript of a known length.
#[derive(Debug, Clone)]
pub struct TranscriptEdit {
    texts: Vec<String>,
}

impl TranscriptEdit {
    /// How many segments it corrects.
    pub fn len(&self) -> usize {
        self.texts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.texts.is_empty()
    }
}

impl TranscriptInput {
    /// Checks the texts against a transcript of `count` segments: one text
    /// each (times are not the owner's to change), none too long, no
    /// control characters. A segment may be emptied.
    pub fn parse(&self, count: usize) -> Result<TranscriptEdit, Vec<FieldError>> {
        const FIELD: &str = "segments";
        let mut e = FieldErrors::default();
        e.check(self.segments.len() != count, FIELD, "Send one text for each segment of the transcript");
        let texts: Vec<String> =
            self.segments.iter().map(|s| one_line(s.text.as_deref().unwrap_or_default())).collect();
        e.check(
            texts.iter().any(|t| t.chars().count() > SEGMENT_MAX),
            FIELD,
            "A segment must be less than 5000 characters",
        );
        // Line breaks and tabs are spacing, joined away above; anything else
        // of its kind is not text.
        let control = |c: char| c.is_control() && !c.is_whitespace();
        let controls = self.segments.iter().any(|s| s.text.as_deref().is_some_and(|t| t.chars().any(control)));
        e.check(controls, FIELD, "The transcript contains characters that are not allowed");
        e.finish(|| TranscriptEdit { texts })
    }
}

/// A download format of a transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Export {
    Text,
    SubRip,
    WebVtt,
}

impl Export {
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "txt" => Some(Self::Text),
            "srt" => Some(Self::SubRip),
            "vtt" => Some(Self::WebVtt),
            _ => None,
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            Self::Text => "txt",
            Self::SubRip => "srt",
            Self::WebVtt => "vtt",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Self::Text => "text/plain; charset=utf-8",
            Self::SubRip => "application/x-subrip; charset=utf-8",
            Self::WebVtt => "text/vtt; charset=utf-8",
        }
    }

    /// The segments in this format. Empty segments are left out: a cue
    /// needs text.
    pub fn render(self, segments: &[Segment]) -> String {
        let said = segments.iter().filter(|s| !s.text.trim().is_empty());
        let mut out = String::new();
        match self {
            Self::Text => {
                for segment in said {
                    out.push_str(&format!("[{}] {}\n", clock(segment.start_ms, None), one_line(&segment.text)));
                }
            }
            Self::SubRip => {
                for (n, segment) in said.enumerate() {
                    let (start, end) = (clock(segment.start_ms, Some(',')), clock(end_of(segment), Some(',')));
                    out.push_str(&format!("{}\n{start} --> {end}\n{}\n\n", n + 1, cue_text(&segment.text)));
                }
            }
            Self::WebVtt => {
                out.push_str("WEBVTT\n\n");
                for segment in said {
                    let (start, end) = (clock(segment.start_ms, Some('.')), clock(end_of(segment), Some('.')));
                    out.push_str(&format!("{start} --> {end}\n{}\n\n", cue_text(&segment.text)));
                }
            }
        }
        out
    }
}

/// A cue ends after it starts, however the recogniser timed it.
fn end_of(segment: &Segment) -> u64 {
    segment.end_ms.max(segment.start_ms + 1)
}

/// A cue's text on one line, without the arrow that would read as timing.
/// Cue text on one line without the arrow that separates a cue's times.
/// Replaced until none is left: one pass turns "--->" into "-->".
fn cue_text(text: &str) -> String {
    let mut text = one_line(text);
    while text.contains("-->") {
        text = text.replace("-->", "->");
    }
    text
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `ms` as "HH:MM:SS" with its milliseconds after `fraction`, or as
/// "MM:SS" (with hours when there are any) for reading.
fn clock(ms: u64, fraction: Option<char>) -> String {
    let (hours, minutes, seconds) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60);
    match fraction {
        Some(mark) => format!("{hours:02}:{minutes:02}:{seconds:02}{mark}{:03}", ms % 1000),
        None if hours > 0 => format!("{hours}:{minutes:02}:{seconds:02}"),
        None => format!("{minutes:02}:{seconds:02}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segment(start_ms: u64, end_ms: u64, text: &str) -> Segment {
        Segment { start_ms, end_ms, text: text.into() }
    }

    fn input(texts: &[&str]) -> TranscriptInput {
        TranscriptInput { segments: texts.iter().map(|t| SegmentInput { text: Some((*t).into()) }).collect() }
    }

    #[test]
    fn a_correction_keeps_the_times_and_the_recognisers_words_until_undone() {
        let mut record =
            TranscriptRecord::recognised(vec![segment(0, 1500, "Hello Anna."), segment(1500, 4000, "Bye.")]);
        record.correct(input(&["Hello  Ana.", "Bye."]).parse(2).unwrap());
        assert_eq!(record.text(), "Hello Ana. Bye.");
        assert_eq!((record.segments[0].start_ms, record.segments[0].end_ms), (0, 1500));
        record.correct(input(&["Hello Ana Silva.", "Bye."]).parse(2).unwrap());
        assert_eq!(record.original.as_ref().unwrap()[0].text, "Hello Anna.", "the first words stay the original");
        record.undo_corrections();
        assert_eq!(record.text(), "Hello Anna. Bye.");
        assert!(!record.view().corrected);
    }

    #[test]
    fn a_correction_must_have_a_text_per_segment_and_no_control_characters() {
        let message = |input: TranscriptInput, count| input.parse(count).unwrap_err()[0].message.clone();
        assert_eq!(message(input(&["One"]), 2), "Send one text for each segment of the transcript");
        assert_eq!(message(input(&["Bell\u{7}"]), 1), "The transcript contains characters that are not allowed");
        assert_eq!(message(input(&[&"a".repeat(5001)]), 1), "A segment must be less than 5000 characters");
        let mut untouched = TranscriptRecord::recognised(vec![segment(0, 1, "Same.")]);
        untouched.correct(input(&["Same."]).parse(1).unwrap());
        assert!(untouched.original.is_none(), "sending the words back unchanged is no correction");
    }

    #[test]
    fn exports_time_each_cue_in_the_formats_own_notation() {
        let segments = [
            segment(0, 2_500, "Good morning."),
            segment(2_500, 2_500, " "),
            segment(3_723_004, 3_725_000, "Costs --> down\nby ten percent."),
        ];
        assert_eq!(
            Export::SubRip.render(&segments),
            "1\n00:00:00,000 --> 00:00:02,500\nGood morning.\n\n\
             2\n01:02:03,004 --> 01:02:05,000\nCosts -> down by ten percent.\n\n"
        );
        assert_eq!(
            Export::WebVtt.render(&segments),
            "WEBVTT\n\n00:00:00.000 --> 00:00:02.500\nGood morning.\n\n\
             01:02:03.004 --> 01:02:05.000\nCosts -> down by ten percent.\n\n"
        );
        assert_eq!(Export::Text.render(&segments), "[00:00] Good morning.\n[1:02:03] Costs --> down by ten percent.\n");
    }

    proptest::proptest! {
        #[test]
        fn no_cue_text_holds_the_arrow_that_separates_a_cues_times(text in "[-> a\n]{0,40}") {
            let cue = cue_text(&text);
            proptest::prop_assert!(!cue.contains("-->"), "{:?} became {:?}", text, cue);
        }
    }

    #[test]
    fn a_longer_arrow_is_neutralised_too() {
        assert_eq!(cue_text("costs ---> down ----> up"), "costs -> down -> up");
    }
}

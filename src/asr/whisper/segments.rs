//! A decoded window cut into timed segments, and how far to move on:
//! Whisper's seeking. A segment is `<|t0|> words <|t1|>`. When the window's
//! last segment is unfinished (the speech runs past the window's end), it is
//! dropped and the next window starts at the last closing timestamp, so the
//! words cut at the edge are decoded whole, once.

/// Times in timestamp steps (20 ms) from the window's start.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    pub start: u32,
    pub end: u32,
    pub tokens: Vec<u32>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Split {
    pub pieces: Vec<Piece>,
    /// How many timestamp steps the next window starts after this one;
    /// `None`: past the whole window.
    pub advance: Option<u32>,
}

/// `keep_tail`: keep an unfinished last segment and move past the window
/// anyway (after a loop was cut, decoding it again would loop again).
/// `window_steps`: the window's length in timestamp steps.
pub fn split(tokens: &[u32], timestamp_begin: u32, window_steps: u32, keep_tail: bool) -> Split {
    let is_word = |t: &u32| *t < timestamp_begin;
    let mut pieces = Vec::new();
    let mut open: Option<usize> = None;
    let mut last_close = None;
    for (i, &t) in tokens.iter().enumerate() {
        if is_word(&t) {
            continue;
        }
        match open.take() {
            None => open = Some(i),
            Some(start) => {
                let start_time = tokens[start] - timestamp_begin;
                let end = t - timestamp_begin;
                pieces.push(Piece { start: start_time, end, tokens: tokens[start + 1..i].to_vec() });
                last_close = Some(end);
            }
        }
    }
    let Some(opened) = open else {
        if pieces.is_empty() && tokens.iter().any(is_word) {
            // Words with no timestamps at all: the whole window is one segment.
            pieces.push(Piece { start: 0, end: window_steps, tokens: tokens.to_vec() });
        }
        // The last segment closed: the speech ended inside the window.
        return Split { pieces, advance: None };
    };
    match last_close {
        Some(close) if !keep_tail && close > 0 => Split { pieces, advance: Some(close) },
        _ => {
            let start = tokens[opened] - timestamp_begin;
            let rest = &tokens[opened + 1..];
            if rest.iter().any(is_word) {
                pieces.push(Piece { start, end: window_steps.max(start), tokens: rest.to_vec() });
            }
            Split { pieces, advance: None }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TS: u32 = 100;

    #[test]
    fn an_unfinished_segment_is_left_for_the_next_window() {
        let tokens = [TS, 1, 2, TS + 50, TS + 60, 3, 4, TS + 300, TS + 310, 5];
        let split = split(&tokens, TS, 1500, false);
        assert_eq!(split.pieces.len(), 2);
        assert_eq!(split.pieces[1], Piece { start: 60, end: 300, tokens: vec![3, 4] });
        assert_eq!(split.advance, Some(300));
    }

    #[test]
    fn a_window_whose_speech_ended_moves_past_the_whole_window() {
        let tokens = [TS, 1, TS + 50, TS + 60, 3, TS + 90];
        let split = split(&tokens, TS, 1500, false);
        assert_eq!(split.pieces.len(), 2);
        assert_eq!(split.advance, None);
        // An opening timestamp with nothing after it may still hide speech.
        let reopened = super::split(&[TS, 1, TS + 50, TS + 60, 3, TS + 90, TS + 90], TS, 1500, false);
        assert_eq!((reopened.pieces.len(), reopened.advance), (2, Some(90)));
    }

    #[test]
    fn a_window_with_no_finished_segment_keeps_what_it_has() {
        let split = split(&[TS + 10, 1, 2], TS, 1500, false);
        assert_eq!(split.pieces, vec![Piece { start: 10, end: 1500, tokens: vec![1, 2] }]);
        assert_eq!(split.advance, None);
    }
}

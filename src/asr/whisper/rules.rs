//! The rules applied to the logits before each greedy pick, as Whisper's
//! reference decoder applies them: suppressed tokens, no blank or end as the
//! first token, and timestamps that come in pairs, never go back, open the
//! window within its first second, and win when together they are likelier
//! than any single word. One rule is ours: after a hint, a sentence's end
//! leans towards a timestamp (see [`SENTENCE_END_LEAN`]).

use super::kernels::log_sum_exp;
use super::text::Vocabulary;

/// Whisper's `max_initial_timestamp`: 1 s, in 20 ms steps.
const MAX_INITIAL_TIMESTAMP: u32 = 50;
/// How much likelier than all timestamps together (a factor of e^8, in
/// log-probability) the best word must be to go on past a sentence's end
/// in a window decoded after a hint. The hint is text without timestamps,
/// and the model continues in its style: without this lean a hinted window
/// came back as one segment of up to 30 s (tap-to-seek and subtitle cues
/// then jump by half a minute). On the joined LibriVox readings and the
/// spoken meetings of the names set, leans of 4 to 16 gave the same
/// sentence-level segments as an unhinted decode (none over 8 s) and the
/// same names; 3 left some windows whole. Abbreviations ("Mr. John") stay
/// whole: after them the next word is likelier by far more than that.
const SENTENCE_END_LEAN: f32 = 8.0;

#[derive(Debug, Clone)]
pub struct Rules {
    pub suppress: Vec<u32>,
    pub begin_suppress: Vec<u32>,
    pub eot: u32,
    pub no_timestamps: u32,
    pub timestamp_begin: u32,
    /// Indexed by token below `timestamp_begin`: whether its text ends a
    /// sentence ('.', '?' or '!').
    pub sentence_ends: Vec<bool>,
}

impl Rules {
    pub fn new(vocabulary: &Vocabulary, suppress: &[u32], begin_suppress: &[u32]) -> Self {
        Self {
            suppress: suppress.to_vec(),
            begin_suppress: begin_suppress.to_vec(),
            eot: vocabulary.eot,
            no_timestamps: vocabulary.no_timestamps,
            timestamp_begin: vocabulary.timestamp_begin,
            sentence_ends: (0..vocabulary.timestamp_begin).map(|t| vocabulary.ends_sentence(t)).collect(),
        }
    }

    /// `sampled`: the tokens picked so far in this window, prompt excluded;
    /// `hinted`: the window is decoded after a hint.
    pub fn apply(&self, logits: &mut [f32], sampled: &[u32], hinted: bool) {
        let ts = self.timestamp_begin as usize;
        let eot = self.eot as usize;
        let ban = |logits: &mut [f32], ids: &[u32]| {
            for &id in ids {
                if let Some(l) = logits.get_mut(id as usize) {
                    *l = f32::NEG_INFINITY;
                }
            }
        };
        let ban_range = |logits: &mut [f32], from: usize, to: usize| {
            let to = to.min(logits.len());
            logits[from.min(to)..to].fill(f32::NEG_INFINITY);
        };
        ban(logits, &self.suppress);
        ban(logits, &[self.no_timestamps]);
        if sampled.is_empty() {
            ban(logits, &self.begin_suppress);
            ban_range(logits, 0, ts);
            ban_range(logits, ts + MAX_INITIAL_TIMESTAMP as usize + 1, logits.len());
        }
        let is_ts = |t: &u32| *t >= self.timestamp_begin;
        let last = sampled.last().is_some_and(is_ts);
        let penultimate = sampled.len() < 2 || is_ts(&sampled[sampled.len() - 2]);
        if last {
            if penultimate {
                // A pair just closed (or the window just opened): words next.
                ban_range(logits, ts, logits.len());
            } else {
                // A segment's words end: its closing timestamp or the end.
                ban_range(logits, 0, eot);
            }
        }
        if let Some(&latest) = sampled.iter().rev().find(|t| is_ts(t)) {
            // The closing timestamp may repeat its opening one only when the
            // segment is empty; otherwise time moves strictly forward.
            let floor = if last && !penultimate { latest } else { latest + 1 };
            ban_range(logits, ts, floor as usize);
        }
        let timestamps = log_sum_exp(logits.get(ts..).unwrap_or_default());
        let best_word = logits[..ts.min(logits.len())].iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let at_sentence_end = sampled.last().is_some_and(|&t| self.sentence_ends.get(t as usize) == Some(&true));
        let lean = if hinted && at_sentence_end { SENTENCE_END_LEAN } else { 0.0 };
        if timestamps + lean > best_word {
            ban_range(logits, 0, ts);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TS: u32 = 10;

    fn rules() -> Rules {
        // Token 2 ends a sentence.
        let sentence_ends = (0..TS).map(|t| t == 2).collect();
        Rules {
            suppress: vec![3],
            begin_suppress: vec![5],
            eot: 8,
            no_timestamps: 9,
            timestamp_begin: TS,
            sentence_ends,
        }
    }

    fn allowed(sampled: &[u32]) -> Vec<u32> {
        // The end is the likeliest token, so the rule that timestamps win
        // together stays out of the way.
        let mut logits = vec![0f32; 200];
        logits[8] = 10.0;
        rules().apply(&mut logits, sampled, false);
        (0..200).filter(|&i| logits[i as usize].is_finite()).collect()
    }

    #[test]
    fn a_window_opens_with_a_timestamp_within_its_first_second() {
        assert_eq!(allowed(&[]), (TS..=TS + 50).collect::<Vec<_>>());
    }

    #[test]
    fn timestamps_pair_up_and_never_go_back() {
        // After an opening timestamp: words only (timestamps would be likelier
        // together here, but a pair needs words between).
        assert!(allowed(&[TS + 4]).iter().all(|&t| t < TS));
        // After words: a timestamp later than the opening one, or words.
        let after_words = allowed(&[TS + 4, 1]);
        assert!(!after_words.contains(&(TS + 4)) && !after_words.contains(&3));
        // After a closing timestamp: no words, only a later opening one or the end.
        let closed = allowed(&[TS + 4, 1, TS + 7]);
        assert!(
            closed.contains(&8) && closed.contains(&(TS + 7)) && !closed.contains(&1) && !closed.contains(&(TS + 6))
        );
    }

    /// Words 1 and 2 (a sentence's end) after an opening timestamp, with
    /// word 1 likelier than all timestamps together by e^5 and the end
    /// (token 8) out of the way: whether the next pick may be a word.
    fn words_allowed_after(last: u32, hinted: bool) -> bool {
        let mut logits = vec![f32::NEG_INFINITY; 200];
        logits[1] = 5.0;
        logits[(TS + 20) as usize] = 0.0;
        rules().apply(&mut logits, &[TS + 4, last], hinted);
        logits[1].is_finite()
    }

    #[test]
    fn after_a_hint_a_sentence_end_gives_way_to_a_timestamp_unless_a_word_is_far_likelier() {
        assert!(words_allowed_after(2, false), "unhinted: the likelier word goes on");
        assert!(!words_allowed_after(2, true), "hinted, at a sentence end: the timestamp closes the segment");
        assert!(words_allowed_after(1, true), "hinted, mid-sentence: the likelier word goes on");
        let mut logits = vec![f32::NEG_INFINITY; 200];
        logits[1] = 9.0;
        logits[(TS + 20) as usize] = 0.0;
        rules().apply(&mut logits, &[TS + 4, 2], true);
        assert!(logits[1].is_finite(), "a word likelier by more than the lean goes on (\"Mr. John\")");
    }
}

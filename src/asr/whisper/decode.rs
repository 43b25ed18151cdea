//! Greedy decoding of one 30-second window, with what keeps it honest: the
//! probability that the window holds no speech, the average log-probability
//! of what was picked, and a guard against the loops greedy decoding falls
//! into (the same phrase over and over until the token budget runs out).

use candle_core::Tensor;

use super::bias::Bias;
use super::decoder::Decoder;
use super::kernels::log_sum_exp;
use super::rules::Rules;
use super::text::Vocabulary;

/// Whisper's sample length: half the decoder's context.
const MAX_TOKENS: usize = 224;
/// Repeats longer than this many tokens are not looked for.
const MAX_PERIOD: usize = 32;
/// A tail counts as a loop once it holds this many copies …
const MIN_COPIES: usize = 4;
/// … and spans at least this many tokens ("no, no, no, no" is speech).
const MIN_LOOP_TOKENS: usize = 16;
/// Text shorter than this many word trigrams is not judged repetitive.
const MIN_TRIGRAMS: usize = 12;

#[derive(Debug, Clone)]
pub struct Decoded {
    /// The picked tokens, the end excluded.
    pub tokens: Vec<u32>,
    pub avg_logprob: f32,
    pub no_speech_prob: f32,
    /// The tail repeated and was cut to its first copy.
    pub looped: bool,
}

/// What a window is decoded after: `tokens` (see [`Vocabulary::context`]:
/// text said before, which the model continues in its spelling) and the
/// names it leans towards.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    pub tokens: &'a [u32],
    pub bias: &'a Bias,
}

/// Decodes `audio` after `context` and the start tokens. The average
/// log-probability is the model's own, before the bias.
pub fn greedy(
    decoder: &Decoder,
    audio: &Tensor,
    vocabulary: &Vocabulary,
    rules: &Rules,
    context: Context<'_>,
) -> candle_core::Result<Decoded> {
    let Context { tokens: context, bias } = context;
    let mut session = decoder.session(audio)?;
    let mut logits = Vec::new();
    let mut no_speech_prob = 0.0;
    for (i, &token) in context.iter().chain(&vocabulary.prompt).enumerate() {
        logits = decoder.step(&mut session, token)?;
        // Whisper reads it from the logits after the start token.
        if i == context.len()
            && let Some(p) = vocabulary.no_speech.and_then(|id| logits.get(id as usize))
        {
            no_speech_prob = (p - log_sum_exp(&logits)).exp();
        }
    }
    let budget = MAX_TOKENS.min(decoder.context().saturating_sub(context.len() + vocabulary.prompt.len()));
    let mut tokens = Vec::new();
    let mut sum_logprob = 0.0;
    let mut looped = false;
    while tokens.len() < budget {
        rules.apply(&mut logits, &tokens, !context.is_empty());
        let (mut next, mut best) = logits
            .iter()
            .enumerate()
            .fold((rules.eot, f32::NEG_INFINITY), |acc, (i, &l)| if l > acc.1 { (i as u32, l) } else { acc });
        for (token, bonus) in bias.boosts(&tokens) {
            if let Some(&l) = logits.get(token as usize)
                && l + bonus > best
            {
                (next, best) = (token, l + bonus);
            }
        }
        sum_logprob += logits[next as usize] - log_sum_exp(&logits);
        if next == rules.eot {
            break;
        }
        tokens.push(next);
        if let Some(keep) = repeating_tail(&tokens, vocabulary.timestamp_begin) {
            tokens.truncate(keep);
            looped = true;
            break;
        }
        logits = decoder.step(&mut session, next)?;
    }
    Ok(Decoded { avg_logprob: sum_logprob / (tokens.len() + 1) as f32, tokens, no_speech_prob, looped })
}

/// Whether `text` says the same things over: fewer than half of its word
/// trigrams are distinct, over at least [`MIN_TRIGRAMS`]. Speech repeats a
/// phrase now and then; a decoder gone round in circles repeats most of it.
pub fn repetitive(text: &str) -> bool {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase())
        .filter(|w| !w.is_empty())
        .collect();
    let trigrams: Vec<&[String]> = words.windows(3).collect();
    let distinct: std::collections::HashSet<&[String]> = trigrams.iter().copied().collect();
    trigrams.len() >= MIN_TRIGRAMS && distinct.len() * 2 < trigrams.len()
}

/// When the words of `tokens` end in copies of one n-gram, how many tokens
/// to keep: all up to the end of its first copy. Timestamps are left out of
/// the comparison: a loop repeats its words, each copy at its own time.
fn repeating_tail(tokens: &[u32], timestamp_begin: u32) -> Option<usize> {
    let at: Vec<usize> = (0..tokens.len()).filter(|&i| tokens[i] < timestamp_begin).collect();
    let words: Vec<u32> = at.iter().map(|&i| tokens[i]).collect();
    let keep = (1..=MAX_PERIOD).find_map(|period| {
        let copies = MIN_COPIES.max(MIN_LOOP_TOKENS.div_ceil(period));
        let span = period * copies;
        let tail = words.get(words.len().checked_sub(span)?..)?;
        tail.chunks(period).all(|c| c == &tail[..period]).then_some(words.len() - span + period)
    })?;
    Some(at[keep - 1] + 1)
}

#[cfg(test)]
mod tests {
    use super::{repeating_tail, repetitive};

    #[test]
    fn a_name_said_over_and_over_with_varying_words_is_repetitive_and_speech_is_not() {
        let echo = "I'm Olumide Adeyemi from Crestmark Partners. My Olumide Adeyemi from Crestmark Partners. \
                    My Olumide Adeyemi from Crestmark Partners. And my Olumide Adeyemi from Crestmark Partners. \
                    My Olumide Adeyemi from Crestmark Partners.";
        assert!(repetitive(echo));
        let speech = "Welcome, and thanks for coming in. I'm Olumide Adeyemi from Crestmark Partners. Xiaoling \
                      Zhou walked us through the shipping delays. Crestmark Partners will compare three freight \
                      forwarders, and Xiaoling Zhou will send the volumes for last year.";
        assert!(!repetitive(speech));
        assert!(!repetitive("no no no no"), "too short to judge");
    }

    /// Tokens from 100 up are timestamps.
    const TS: u32 = 100;

    #[test]
    fn a_phrase_repeated_into_a_loop_is_cut_to_one_copy() {
        let mut tokens = vec![1, 2, 3];
        for _ in 0..4 {
            tokens.extend([7, 8, 9, 10]);
        }
        assert_eq!(repeating_tail(&tokens, TS), Some(7));
        assert_eq!(repeating_tail(&[1, 2, 3, 5, 5, 5, 5], TS), None, "a word said four times is speech");
        assert_eq!(repeating_tail(&[4; 16], TS), Some(1));
    }

    #[test]
    fn a_loop_is_found_through_the_timestamps_between_its_copies() {
        let mut tokens = vec![TS, 1, 2];
        for copy in 0..6 {
            tokens.extend([7, 8, 9, TS + 10 * copy + 5, TS + 10 * copy + 6]);
        }
        // The first copy ends at index 5 (token 9).
        assert_eq!(repeating_tail(&tokens, TS), Some(6));
    }
}

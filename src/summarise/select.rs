//! Choosing sentences, shared by the summarisers: the summary's (the most
//! central sentences that do not repeat one another, by maximal marginal
//! relevance, within a length budget, in meeting order), the next steps',
//! and the salient part of a meeting too long to read whole.

use super::cues::{self, Cue};
use super::lexical::TermVectors;
use super::text::{ritual_share, tidy};

/// How many sentences a summary has at most…
const MAX_SENTENCES: usize = 5;
/// …and at least, when they fit the budget.
const MIN_SENTENCES: usize = 3;
/// About as long as an email summary paragraph should be.
const MAX_CHARS: usize = 600;
/// Centrality against redundancy: higher favours central sentences.
const LAMBDA: f32 = 0.7;
/// A sentence this similar to a chosen one says the same thing again.
const DUPLICATE: f32 = 0.85;
/// Sentences shorter than this rarely say anything on their own.
const MIN_WORDS: usize = 6;

/// The summary paragraph of `sentences`, given each one's centrality and a
/// similarity between two of them (both in [-1, 1], higher = closer).
pub fn summary(sentences: &[String], centrality: &[f32], similarity: impl Fn(usize, usize) -> f32) -> String {
    let long_enough: Vec<usize> =
        (0..sentences.len()).filter(|&i| sentences[i].split_whitespace().count() >= MIN_WORDS).collect();
    // A short meeting may have only short sentences: then any will do.
    let candidates = if long_enough.is_empty() { (0..sentences.len()).collect() } else { long_enough };
    let centrality = without_rituals(centrality, sentences);
    let mut chosen: Vec<usize> = Vec::new();
    let mut chars = 0;
    let mut left = candidates;
    while chosen.len() < MAX_SENTENCES && !left.is_empty() {
        let score = |i: usize| {
            let redundancy = chosen.iter().map(|&j| similarity(i, j)).fold(0.0f32, f32::max);
            (LAMBDA * centrality[i] - (1.0 - LAMBDA) * redundancy, redundancy)
        };
        let Some((pos, (_, redundancy))) =
            left.iter().map(|&i| score(i)).enumerate().max_by(|a, b| a.1.0.total_cmp(&b.1.0))
        else {
            break;
        };
        let i = left.swap_remove(pos);
        let len = tidy(&sentences[i]).chars().count() + 1;
        if redundancy >= DUPLICATE {
            continue;
        }
        // Over budget: skip this one, a shorter one may still fit, but
        // never leave the summary empty.
        if !chosen.is_empty() && chars + len > MAX_CHARS {
            if chosen.len() >= MIN_SENTENCES {
                break;
            }
            continue;
        }
        chosen.push(i);
        chars += len;
    }
    chosen.sort_unstable();
    chosen.iter().map(|&i| tidy(&sentences[i])).collect::<Vec<_>>().join(" ")
}

/// Most next steps an email lists.
const MAX_STEPS: usize = 8;
/// Two commitments from sentences this similar are one commitment said twice.
const SAME_STEP: f32 = 0.8;

/// The next-step lines of the commitments found, `(sentence, cue)`: the
/// surest first when there are too many, one line per commitment, in
/// meeting order.
pub fn next_steps(mut found: Vec<(usize, Cue)>, similarity: impl Fn(usize, usize) -> f32) -> Vec<String> {
    found.sort_by(|a, b| b.1.score.total_cmp(&a.1.score).then(a.0.cmp(&b.0)));
    let mut kept: Vec<(usize, Cue)> = Vec::new();
    for (i, cue) in found {
        let said_before =
            kept.iter().any(|(j, other)| other.line.eq_ignore_ascii_case(&cue.line) || similarity(i, *j) >= SAME_STEP);
        if !said_before && kept.len() < MAX_STEPS {
            kept.push((i, cue));
        }
    }
    kept.sort_by_key(|(i, _)| *i);
    kept.into_iter().map(|(_, cue)| cue.line).collect()
}

/// Greetings and thanks are central to no topic but close to every short
/// meeting's centroid: their centrality is discounted.
fn without_rituals(centrality: &[f32], sentences: &[String]) -> Vec<f32> {
    centrality.iter().zip(sentences).map(|(c, s)| c * (1.0 - ritual_share(s))).collect()
}

/// How many stretches a long meeting is cut into for [`salient`].
const STRETCHES: usize = 10;

/// The sentences of a meeting worth reading when all of them would cost more
/// than `budget` (each costs `cost(i)`), in meeting order: those that may
/// hold a commitment (up to half the budget), then the lexically most
/// central of each tenth of the meeting, so every part of it is heard.
pub fn salient(sentences: &[String], budget: usize, cost: impl Fn(usize) -> usize) -> Vec<usize> {
    let all: Vec<usize> = (0..sentences.len()).collect();
    if all.iter().map(|&i| cost(i)).sum::<usize>() <= budget {
        return all;
    }
    let centrality = without_rituals(&TermVectors::new(sentences).centrality(), sentences);
    let most_central = |a: &usize, b: &usize| centrality[*b].total_cmp(&centrality[*a]);
    let (mut cued, mut signalled) = (Vec::new(), Vec::new());
    for &i in &all {
        if cues::detect(&sentences[i]).is_some() {
            cued.push(i);
        } else if cues::has_action_signal(&sentences[i]) {
            signalled.push(i);
        }
    }
    cued.sort_by(most_central);
    signalled.sort_by(most_central);
    let mut keep = vec![false; sentences.len()];
    let mut spent = 0;
    take(cued.into_iter().chain(signalled), budget / 2, &cost, &mut keep, &mut spent);
    let per_stretch = (budget - spent) / STRETCHES;
    for stretch in all.chunks(sentences.len().div_ceil(STRETCHES)) {
        let mut stretch = stretch.to_vec();
        stretch.sort_by(most_central);
        let limit = spent + per_stretch;
        take(stretch, limit, &cost, &mut keep, &mut spent);
    }
    all.into_iter().filter(|&i| keep[i]).collect()
}

/// Keeps each sentence of `order` that still fits under `limit`.
fn take(
    order: impl IntoIterator<Item = usize>,
    limit: usize,
    cost: &impl Fn(usize) -> usize,
    keep: &mut [bool],
    spent: &mut usize,
) {
    for i in order {
        if !keep[i] && *spent + cost(i) <= limit {
            keep[i] = true;
            *spent += cost(i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_meeting_keeps_its_commitments_and_every_part_within_the_budget() {
        let topics = ["sales", "cost", "hiring", "support", "travel"];
        let mut sentences: Vec<String> = (0..500)
            .map(|i| format!("The {} figures for region {} look about the same as last year.", topics[i % 5], i / 50))
            .collect();
        sentences[333] = "Sarah will send the revised forecast by Friday.".into();
        let kept = salient(&sentences, 100, |_| 1);
        assert!((90..=100).contains(&kept.len()), "{} kept", kept.len());
        assert!(kept.contains(&333), "the commitment is kept");
        assert!(kept.windows(2).all(|w| w[0] < w[1]), "in meeting order");
        for tenth in 0..10 {
            assert!(kept.iter().any(|&i| i / 50 == tenth), "nothing from part {tenth}");
        }
        assert_eq!(salient(&sentences[..50], 100, |_| 1), (0..50).collect::<Vec<_>>(), "a short meeting is read whole");
    }
}

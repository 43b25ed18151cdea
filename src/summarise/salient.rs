//! The salient part of a meeting too long to read whole within a budget:
//! what may hold a commitment, and the most central of every part.

use super::terms::TermVectors;
use super::text::ritual_share;

/// How many stretches a long meeting is cut into for [`salient`].
const STRETCHES: usize = 10;

/// The sentences of a meeting worth reading when all of them would cost more
/// than `budget` (each costs `cost(i)`), in meeting order: those that may
/// hold a commitment (`candidate`, up to half the budget), then the
/// lexically most central of each tenth of the meeting, so every part of it
/// is heard.
pub fn salient(
    sentences: &[String],
    budget: usize,
    cost: impl Fn(usize) -> usize,
    candidate: impl Fn(usize) -> bool,
) -> Vec<usize> {
    let all: Vec<usize> = (0..sentences.len()).collect();
    if all.iter().map(|&i| cost(i)).sum::<usize>() <= budget {
        return all;
    }
    let centrality = without_rituals(&TermVectors::new(sentences).centrality(), sentences);
    let most_central = |a: &usize, b: &usize| centrality[*b].total_cmp(&centrality[*a]);
    let mut cued: Vec<usize> = all.iter().copied().filter(|&i| candidate(i)).collect();
    cued.sort_by(most_central);
    let mut keep = vec![false; sentences.len()];
    let mut spent = 0;
    take(cued, budget / 2, &cost, &mut keep, &mut spent);
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

/// Greetings and thanks are central to no topic but close to every short
/// meeting's centroid: their centrality is discounted.
pub fn without_rituals(centrality: &[f32], sentences: &[String]) -> Vec<f32> {
    centrality.iter().zip(sentences).map(|(c, s)| c * (1.0 - ritual_share(s))).collect()
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
        let commitments = |i: usize| sentences[i].contains(" will ");
        let kept = salient(&sentences, 100, |_| 1, commitments);
        assert!((90..=100).contains(&kept.len()), "{} kept", kept.len());
        assert!(kept.contains(&333), "the commitment is kept");
        assert!(kept.windows(2).all(|w| w[0] < w[1]), "in meeting order");
        for tenth in 0..10 {
            assert!(kept.iter().any(|&i| i / 50 == tenth), "nothing from part {tenth}");
        }
        assert_eq!(
            salient(&sentences[..50], 100, |_| 1, |_| false),
            (0..50).collect::<Vec<_>>(),
            "a short meeting is read whole"
        );
    }
}

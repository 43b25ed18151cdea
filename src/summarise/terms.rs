//! Sentences compared by their TF-IDF term vectors: the similarity and
//! centrality the summariser uses when no embedding model is installed,
//! and that picks the salient part of a long meeting cheaply.

use std::collections::HashMap;

use super::text::terms;

/// One L2-normalised TF-IDF vector per sentence, sparse: (term, weight)
/// pairs sorted by term.
pub struct TermVectors {
    rows: Vec<Vec<(u32, f32)>>,
    vocabulary: usize,
}

impl TermVectors {
    pub fn new(sentences: &[String]) -> Self {
        let mut ids: HashMap<String, u32> = HashMap::new();
        let counts: Vec<HashMap<u32, f32>> = sentences
            .iter()
            .map(|s| {
                let mut counts = HashMap::new();
                for term in terms(s) {
                    let next = ids.len() as u32;
                    *counts.entry(*ids.entry(term).or_insert(next)).or_insert(0.0) += 1.0;
                }
                counts
            })
            .collect();
        let mut document_frequency = vec![0u32; ids.len()];
        for counts in &counts {
            for &term in counts.keys() {
                document_frequency[term as usize] += 1;
            }
        }
        let n = sentences.len() as f32;
        let rows = counts
            .into_iter()
            .map(|counts| {
                let mut row: Vec<(u32, f32)> = counts
                    .into_iter()
                    .map(|(term, count)| {
                        (
                            term,
                            (1.0 + f32::ln(count))
                                * (1.0 + f32::ln((n + 1.0) / (document_frequency[term as usize] as f32 + 1.0))),
                        )
                    })
                    .collect();
                row.sort_unstable_by_key(|&(term, _)| term);
                normalise(&mut row);
                row
            })
            .collect();
        Self { rows, vocabulary: ids.len() }
    }

    /// Cosine similarity of sentences `i` and `j`.
    pub fn similarity(&self, i: usize, j: usize) -> f32 {
        let (a, b) = (&self.rows[i], &self.rows[j]);
        let (mut x, mut y, mut dot) = (0, 0, 0.0);
        while x < a.len() && y < b.len() {
            match a[x].0.cmp(&b[y].0) {
                std::cmp::Ordering::Less => x += 1,
                std::cmp::Ordering::Greater => y += 1,
                std::cmp::Ordering::Equal => {
                    dot += a[x].1 * b[y].1;
                    x += 1;
                    y += 1;
                }
            }
        }
        dot
    }

    /// How close each sentence is to the whole meeting (its centroid).
    pub fn centrality(&self) -> Vec<f32> {
        let mut centroid = vec![0.0f32; self.vocabulary];
        for row in &self.rows {
            for &(term, weight) in row {
                centroid[term as usize] += weight;
            }
        }
        let norm = centroid.iter().map(|w| w * w).sum::<f32>().sqrt().max(f32::EPSILON);
        self.rows
            .iter()
            .map(|row| row.iter().map(|&(term, weight)| weight * centroid[term as usize]).sum::<f32>() / norm)
            .collect()
    }
}

fn normalise(row: &mut [(u32, f32)]) {
    let norm = row.iter().map(|(_, w)| w * w).sum::<f32>().sqrt();
    if norm > 0.0 {
        row.iter_mut().for_each(|(_, w)| *w /= norm);
    }
}

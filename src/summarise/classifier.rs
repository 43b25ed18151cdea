//! The commitment classifier: logistic regression over a candidate
//! clause's features, and over its sentence embedding too when the
//! embedding model is installed. The weights are trained by
//! `examples/train_commitments.rs` on the labelled dialogues in
//! `training/commitments/` and committed beside this file.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// One logistic model: `p = σ(bias + w · x)`, a commitment when `p` is at
/// least the threshold.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Model {
    pub bias: f32,
    pub weights: Vec<f32>,
    pub threshold: f32,
}

impl Model {
    /// The probability that `x` (features, then the embedding if this model
    /// reads one) is a commitment.
    pub fn probability(&self, x: &[f32]) -> f32 {
        sigmoid(self.bias + self.weights.iter().zip(x).map(|(w, v)| w * v).sum::<f32>())
    }
}

/// Both models and what they were trained on.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Weights {
    /// The feature names, in order, as [`features::NAMES`] had them.
    pub features: Vec<String>,
    /// Features only: the summariser without a model.
    pub lexical: Model,
    /// Features and the 384 numbers of the sentence embedding.
    pub embedding: Model,
    /// How the weights were made: data, sizes, cross-validated scores.
    pub trained: serde_json::Value,
}

const WEIGHTS: &str = include_str!("commitment_weights.json");

/// The committed weights. They are checked by a unit test, so a build
/// whose features changed without retraining fails there, not here.
pub fn weights() -> &'static Weights {
    static LOADED: OnceLock<Weights> = OnceLock::new();
    LOADED.get_or_init(|| serde_json::from_str(WEIGHTS).expect("commitment_weights.json is valid"))
}

fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}

/// Training settings: L2 strength per example and full-batch steps.
#[derive(Debug, Clone, Copy)]
pub struct Training {
    pub l2: f32,
    pub steps: usize,
    pub learning_rate: f32,
    /// Weight of a positive example against a negative one.
    pub positive_weight: f32,
}

/// A logistic model fitted to `(x, y)` by full-batch gradient descent from
/// zero: deterministic, so the same data always gives the same weights.
pub fn train(x: &[Vec<f32>], y: &[bool], settings: Training) -> Model {
    let dims = x.first().map_or(0, Vec::len);
    let (mut w, mut b) = (vec![0f32; dims], 0f32);
    let total: f32 = y.iter().map(|&p| if p { settings.positive_weight } else { 1.0 }).sum();
    let mut gradient = vec![0f32; dims];
    for _ in 0..settings.steps {
        gradient.iter_mut().for_each(|g| *g = 0.0);
        let mut bias_gradient = 0.0;
        for (row, &label) in x.iter().zip(y) {
            let p = sigmoid(b + w.iter().zip(row).map(|(w, v)| w * v).sum::<f32>());
            let weight = if label { settings.positive_weight } else { 1.0 };
            let error = weight * (p - f32::from(u8::from(label)));
            gradient.iter_mut().zip(row).for_each(|(g, v)| *g += error * v);
            bias_gradient += error;
        }
        for (w, g) in w.iter_mut().zip(&gradient) {
            *w -= settings.learning_rate * (g / total + settings.l2 * *w);
        }
        b -= settings.learning_rate * bias_gradient / total;
    }
    Model { bias: b, weights: w, threshold: 0.5 }
}

#[cfg(test)]
mod tests {
    use super::super::features;
    use super::*;

    #[test]
    fn the_committed_weights_fit_the_features_of_this_build() {
        let weights = weights();
        assert_eq!(weights.features, features::NAMES, "retrain: cargo run --release --example train_commitments");
        assert_eq!(weights.lexical.weights.len(), features::COUNT);
        assert_eq!(weights.embedding.weights.len(), features::COUNT + super::super::embedding::DIMENSIONS);
        assert!(weights.lexical.threshold > 0.0 && weights.embedding.threshold < 1.0);
    }

    #[test]
    fn training_separates_what_it_can_and_is_repeatable() {
        let x: Vec<Vec<f32>> = (0..40).map(|i| vec![(i % 2) as f32, ((i / 2) % 3) as f32 / 3.0]).collect();
        let y: Vec<bool> = (0..40).map(|i| i % 2 == 1).collect();
        let settings = Training { l2: 0.001, steps: 500, learning_rate: 1.0, positive_weight: 1.0 };
        let model = train(&x, &y, settings);
        assert!(x.iter().zip(&y).all(|(x, &y)| (model.probability(x) >= 0.5) == y));
        assert_eq!(train(&x, &y, settings), model);
    }
}

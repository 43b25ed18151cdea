//! Trains the commitment classifier and writes its weights to
//! `src/summarise/commitment_weights.json`:
//!
//!     cargo run --release --example train_commitments [-- MODEL_DIR]
//!
//! MODEL_DIR holds all-MiniLM-L6-v2 (default: $DEBRIEF_TEST_MODELS/
//! all-minilm-l6-v2). It reads every dialogue of `training/commitments/`,
//! in each of the forms transcripts come in, takes every candidate clause
//! as an example, and fits two logistic models from zero by full-batch
//! gradient descent (deterministic: the same data gives the same weights):
//! one on the clause features alone, one on the features and the sentence
//! embedding. Each model's threshold is its break-even point over
//! predictions made by five-fold cross-validation (folds by dialogue): where
//! precision and recall come closest (the best F1 among ties). The best F1
//! alone set it lower, where the dialogues' many commitments (over half of
//! their clauses) pay for wrong steps that real meetings, with far fewer,
//! do not. The precision and recall there are written beside the weights.

use std::path::{Path, PathBuf};

use debrief::summarise::training::{
    DIMENSIONS, Encoder, Example, FEATURE_NAMES, FORMS, Model, Training, Weights, as_form, dialogues, examples, train,
};
use serde_json::json;

/// The meeting date the dialogues' deadlines resolve against.
const DATE: time::Date = time::macros::date!(2026 - 03 - 11);
const FOLDS: usize = 5;
const LEXICAL: Training = Training { l2: 0.002, steps: 3000, learning_rate: 0.5, positive_weight: 1.5 };
const EMBEDDING: Training = Training { l2: 0.004, steps: 3000, learning_rate: 0.5, positive_weight: 1.5 };

struct Labelled {
    dialogue: usize,
    example: Example,
    embedding: Vec<f32>,
}

fn main() -> anyhow::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let model_dir = std::env::args().nth(1).map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(std::env::var("DEBRIEF_TEST_MODELS").unwrap_or_else(|_| "target/test-models".into()))
            .join("all-minilm-l6-v2")
    });
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("training/commitments"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    let mut all: Vec<(usize, Example)> = Vec::new();
    let mut count = 0;
    for file in &files {
        for (_, dialogue) in dialogues(&std::fs::read_to_string(file)?) {
            for form in FORMS {
                if form == "labelled" && !dialogue.lines().all(|l| l.contains(": ")) {
                    continue;
                }
                all.extend(examples(&as_form(&dialogue, form), DATE).into_iter().map(|e| (count, e)));
            }
            count += 1;
        }
    }
    let positives = all.iter().filter(|(_, e)| e.positive).count();
    eprintln!("{count} dialogues, {} candidate clauses, {positives} commitments", all.len());

    let encoder = Encoder::load(&model_dir)?;
    let texts: Vec<&str> = all.iter().map(|(_, e)| e.text.as_str()).collect();
    let vectors = encoder.embed(&texts, |done, total| eprint!("\rembedding {done}/{total}"))?;
    eprintln!();
    let data: Vec<Labelled> = all
        .into_iter()
        .zip(vectors)
        .map(|((dialogue, example), embedding)| Labelled { dialogue, example, embedding })
        .collect();

    let lexical_x = |l: &Labelled| l.example.features.clone();
    let embedding_x = |l: &Labelled| [&l.example.features[..], &l.embedding[..]].concat();
    let (lexical, lexical_report) = fit("lexical", &data, lexical_x, LEXICAL);
    let (embedding, embedding_report) = fit("embedding", &data, embedding_x, EMBEDDING);
    assert_eq!(embedding.weights.len(), FEATURE_NAMES.len() + DIMENSIONS);

    let weights = Weights {
        features: FEATURE_NAMES.iter().map(|s| s.to_string()).collect(),
        lexical,
        embedding,
        trained: json!({
            "data": "training/commitments",
            "dialogues": count,
            "examples": data.len(),
            "commitments": positives,
            "forms": FORMS,
            "crossValidation": { "folds": FOLDS, "lexical": lexical_report, "embedding": embedding_report },
        }),
    };
    let out = root.join("src/summarise/commitment_weights.json");
    std::fs::write(&out, rounded(&serde_json::to_string(&weights)?) + "\n")?;
    eprintln!("wrote {}", out.display());
    Ok(())
}

/// A model fitted to all of `data`, its threshold chosen on out-of-fold
/// predictions, and what those predictions scored.
fn fit(
    name: &str,
    data: &[Labelled],
    x: impl Fn(&Labelled) -> Vec<f32>,
    settings: Training,
) -> (Model, serde_json::Value) {
    let rows: Vec<Vec<f32>> = data.iter().map(&x).collect();
    let labels: Vec<bool> = data.iter().map(|l| l.example.positive).collect();
    let mut predicted = vec![0f32; data.len()];
    for fold in 0..FOLDS {
        let train_rows: Vec<usize> = (0..data.len()).filter(|&i| data[i].dialogue % FOLDS != fold).collect();
        let model = train(
            &train_rows.iter().map(|&i| rows[i].clone()).collect::<Vec<_>>(),
            &train_rows.iter().map(|&i| labels[i]).collect::<Vec<_>>(),
            settings,
        );
        for i in (0..data.len()).filter(|&i| data[i].dialogue % FOLDS == fold) {
            predicted[i] = model.probability(&rows[i]);
        }
    }
    let (threshold, precision, recall) = (10..=90)
        .map(|t| t as f32 / 100.0)
        .map(|t| {
            let (p, r) = score(&predicted, &labels, t);
            (t, p, r)
        })
        .min_by(|a, b| (a.1 - a.2).abs().total_cmp(&(b.1 - b.2).abs()).then(f1(b.1, b.2).total_cmp(&f1(a.1, a.2))))
        .unwrap_or((0.5, 0.0, 0.0));
    eprintln!("{name}: threshold {threshold:.2}, cross-validated precision {precision:.3}, recall {recall:.3}");
    for (i, l) in data.iter().enumerate() {
        if (predicted[i] >= threshold) != l.example.positive && std::env::var_os("SHOW_ERRORS").is_some() {
            eprintln!(
                "  {} {:.2} {}",
                if l.example.positive { "missed" } else { "wrong " },
                predicted[i],
                l.example.clause
            );
        }
    }
    let mut model = train(&rows, &labels, settings);
    model.threshold = threshold;
    (model, json!({ "threshold": threshold, "precision": precision, "recall": recall }))
}

fn score(predicted: &[f32], labels: &[bool], threshold: f32) -> (f32, f32) {
    let (mut tp, mut fp, mut fneg) = (0f32, 0f32, 0f32);
    for (&p, &y) in predicted.iter().zip(labels) {
        match (p >= threshold, y) {
            (true, true) => tp += 1.0,
            (true, false) => fp += 1.0,
            (false, true) => fneg += 1.0,
            _ => {}
        }
    }
    (tp / (tp + fp).max(1.0), tp / (tp + fneg).max(1.0))
}

fn f1(precision: f32, recall: f32) -> f32 {
    if precision + recall == 0.0 { 0.0 } else { 2.0 * precision * recall / (precision + recall) }
}

/// The JSON with its floats cut to five decimals: a smaller file and a
/// readable diff when the weights change.
fn rounded(json: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(json).expect("valid");
    fn round(v: serde_json::Value) -> serde_json::Value {
        match v {
            serde_json::Value::Number(n) if n.is_f64() => {
                json!((n.as_f64().unwrap_or(0.0) * 1e5).round() / 1e5)
            }
            serde_json::Value::Array(items) => serde_json::Value::Array(items.into_iter().map(round).collect()),
            serde_json::Value::Object(map) => {
                serde_json::Value::Object(map.into_iter().map(|(k, v)| (k, round(v))).collect())
            }
            other => other,
        }
    }
    serde_json::to_string(&round(value)).expect("serialisable")
}

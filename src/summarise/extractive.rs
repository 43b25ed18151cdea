//! The extractive summariser, the default: the summary is chosen from the
//! meeting's own sentences, and the action items are the candidate
//! clauses the commitment classifier accepts. With the embedding model it
//! compares sentences by their embeddings and the classifier reads them
//! too; without it, term vectors and the clause features alone serve.

use std::path::Path;

use super::classifier::weights;
use super::commitments::{self, Candidate};
use super::embedding::{Encoder, dot, mean, unit};
use super::meeting::{Meeting, MeetingContext};
use super::progress::Reporter;
use super::salient::{salient, without_rituals};
use super::summary::summary;
use super::terms::TermVectors;
use super::{EngineError, Progress, Summariser, SummariserChoice, Summary, SummarySource};
use crate::domain::action_item::ActionItem;

/// Past this many sentences (about 30 minutes of talk) a meeting is long:
/// only its salient sentences are embedded for the summary, so it stays
/// within seconds on 2 cores.
const MAX_EMBEDDED: usize = 300;
/// A candidate the features alone rate below this is no commitment
/// whatever its embedding says: it is not embedded at all.
const WORTH_EMBEDDING: f32 = 0.05;

pub struct Extractive {
    encoder: Option<Encoder>,
}

impl Extractive {
    /// Without a model: term vectors and features.
    pub fn lexical() -> Self {
        Self { encoder: None }
    }

    /// With all-MiniLM-L6-v2 from `dir`.
    pub fn with_embeddings(dir: &Path) -> Result<Self, EngineError> {
        Ok(Self { encoder: Some(Encoder::load(dir)?) })
    }
}

impl Summariser for Extractive {
    fn choice(&self) -> SummariserChoice {
        if self.encoder.is_some() { SummariserChoice::Embedding } else { SummariserChoice::Lexical }
    }

    fn summarise(
        &mut self,
        transcript: &str,
        context: &MeetingContext,
        progress: Progress<'_>,
    ) -> Result<Summary, EngineError> {
        let mut progress = Reporter::new(progress);
        progress.set(0);
        let meeting = Meeting::new(transcript);
        let candidates = commitments::candidates(&meeting, context);
        let (summary, action_items) = match &self.encoder {
            None => lexical(&meeting, context, &candidates),
            Some(encoder) => embedded(encoder, &meeting, context, &candidates, &mut progress)?,
        };
        progress.done();
        let next_steps = action_items.iter().map(ActionItem::line).collect();
        Ok(Summary { summary, next_steps, action_items, summary_source: SummarySource::Extractive })
    }
}

fn lexical(meeting: &Meeting, context: &MeetingContext, candidates: &[Candidate]) -> (String, Vec<ActionItem>) {
    let texts = meeting.texts();
    let vectors = TermVectors::new(&texts);
    let centrality = without_rituals(&vectors.centrality(), &texts);
    let all: Vec<usize> = (0..texts.len()).collect();
    let model = &weights().lexical;
    let probabilities: Vec<f32> = candidates.iter().map(|c| model.probability(&c.features.values())).collect();
    let committed = committed(meeting, candidates, &probabilities, model.threshold);
    let items = commitments::items(meeting, context, candidates, &probabilities, model.threshold);
    let summary = summary(meeting, &all, &centrality, &committed, &items, |i, j| vectors.similarity(i, j));
    (summary, items)
}

fn embedded(
    encoder: &Encoder,
    meeting: &Meeting,
    context: &MeetingContext,
    candidates: &[Candidate],
    progress: &mut Reporter<'_>,
) -> Result<(String, Vec<ActionItem>), EngineError> {
    let texts = meeting.texts();
    let has_candidate = |s: usize| candidates.iter().any(|c| c.sentence == s);
    let pool = salient(&texts, MAX_EMBEDDED, |_| 1, has_candidate);
    let lexical = &weights().lexical;
    // What to embed: the summary's sentences, then each candidate worth it
    // (by its sentence, or by its clause when the sentence has several).
    let mut inputs: Vec<String> = pool.iter().map(|&s| texts[s].clone()).collect();
    let mut row_of_sentence = vec![None; texts.len()];
    for (row, &s) in pool.iter().enumerate() {
        row_of_sentence[s] = Some(row);
    }
    let mut candidate_rows: Vec<Option<usize>> = vec![None; candidates.len()];
    for (i, c) in candidates.iter().enumerate() {
        if lexical.probability(&c.features.values()) < WORTH_EMBEDDING {
            continue;
        }
        candidate_rows[i] = Some(match commitments::embedding_text(meeting, candidates, i) {
            Some(text) => {
                inputs.push(text);
                inputs.len() - 1
            }
            None => match row_of_sentence[c.sentence] {
                Some(row) => row,
                None => {
                    inputs.push(texts[c.sentence].clone());
                    row_of_sentence[c.sentence] = Some(inputs.len() - 1);
                    inputs.len() - 1
                }
            },
        });
    }
    progress.set(5);
    let refs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    let vectors = encoder.embed(&refs, |done, total| progress.part(5, 95, done, total))?;

    let pooled = &vectors[..pool.len()];
    let centroid = unit(mean(pooled));
    let pool_texts: Vec<String> = pool.iter().map(|&s| texts[s].clone()).collect();
    let centrality = without_rituals(&pooled.iter().map(|v| dot(v, &centroid)).collect::<Vec<_>>(), &pool_texts);
    let model = &weights().embedding;
    let probabilities: Vec<f32> = candidates
        .iter()
        .zip(&candidate_rows)
        .map(|(c, row)| match row {
            Some(row) => model.probability(&[&c.features.values()[..], &vectors[*row]].concat()),
            None => 0.0,
        })
        .collect();
    let committed = committed(meeting, candidates, &probabilities, model.threshold);
    let items = commitments::items(meeting, context, candidates, &probabilities, model.threshold);
    let summary = summary(meeting, &pool, &centrality, &committed, &items, |i, j| dot(&pooled[i], &pooled[j]));
    Ok((summary, items))
}

/// Which sentences of the meeting say a commitment the next steps list:
/// the summary beside them need not say it again.
fn committed(meeting: &Meeting, candidates: &[Candidate], probabilities: &[f32], threshold: f32) -> Vec<bool> {
    let mut committed = vec![false; meeting.sentences.len()];
    for (c, &p) in candidates.iter().zip(probabilities) {
        if p >= threshold {
            committed[c.sentence] = true;
        }
    }
    committed
}

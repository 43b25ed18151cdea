//! The summarisers on real models (all-MiniLM-L6-v2, SmolLM2-135M-Instruct
//! in GGUF) and on no model at all, one file per subject. Here: the test
//! meetings, a models folder linking the test models, and summarising with
//! the progress checked, which every file below uses.

mod command;
mod commitments;
mod extractive;
mod llm;
mod loading;
mod meeting;

use std::time::Instant;

use debrief::models::ModelsDir;
use debrief::summarise::{MeetingContext, Summariser, SummariserChoice, SummariserOptions, Summary, load};
use time::macros::date;

use crate::harness::test_models;

const SHORT_MEETING: &str = "Hi everyone, thanks for making the time. How was your weekend? \
It was lovely, we went to the coast with the kids. The weather has been great lately. \
Okay, let's get started with the proposal. The client liked the overall direction but wants a lower price for the second phase. \
We talked about reducing the scope of the reporting module to bring the cost down. \
Sarah will send the revised proposal by Friday. \
The finance team raised a question about the payment terms in the draft contract. \
I will schedule a follow-up call with the finance team next week. \
Anything else? No, I think that's it. Great, thanks everyone, have a good afternoon.";

/// A meeting with speaker labels, as meeting tools export it: Anna Lopez is
/// the consultant, Mike Stone the client.
const LABELLED_MEETING: &str = "Anna: Morning Mike, how was the drive in?\n\
Mike: Fine, thanks. So, the office layout.\n\
Anna: Yes. I'll send you the updated floor plan with the two extra meeting rooms by Tuesday.\n\
Mike: Great. If we took the whole third floor, we would need another forty desks, but that's not happening this year.\n\
Anna: Understood. Could you confirm the final headcount by the end of the month?\n\
Mike: Sure, I'll ask HR for the numbers.\n\
Anna: And I can send you some photos of the furniture samples if you like.\n\
Mike: No need, we saw them at the showroom.\n\
Anna: Perfect. We usually order furniture six weeks before the move.\n\
Mike: Makes sense. Our facilities manager, Priya, will book the lift for the move in the week of the 13th of April.\n\
Anna: Great. So to recap, I'll send the floor plan by Tuesday and you'll confirm the headcount.\n\
Mike: That's it. Have a good weekend!";

/// `debrief summarise` flags for a meeting of Wednesday 11 March 2026
/// between Anna Lopez (the consultant) and Mike Stone (the client).
const MEETING_FLAGS: [&str; 6] = ["--meeting-date", "2026-03-11", "--me", "Anna Lopez", "--client", "Mike Stone"];

/// The key words of each commitment in [`SHORT_MEETING`].
const SHORT_COMMITMENTS: [&[&str]; 2] =
    [&["sarah", "revised proposal", "friday"], &["schedule", "follow-up call", "finance team", "next week"]];

/// A models folder in the layout Debrief installs, linking the test models.
struct Models {
    dir: tempfile::TempDir,
}

impl Models {
    fn empty() -> Self {
        Self { dir: tempfile::tempdir().unwrap() }
    }

    fn with_embedding(self) -> Self {
        let target = self.dir.path().join("embedding/all-minilm-l6-v2");
        std::fs::create_dir_all(&target).unwrap();
        for file in ["config.json", "tokenizer.json", "model.safetensors"] {
            std::os::unix::fs::symlink(test_models().join("all-minilm-l6-v2").join(file), target.join(file)).unwrap();
        }
        self
    }

    fn with_llm(self) -> Self {
        let target = self.dir.path().join("llm/smollm2-135m-instruct");
        std::fs::create_dir_all(&target).unwrap();
        std::os::unix::fs::symlink(test_models().join("smollm2/model.gguf"), target.join("model.gguf")).unwrap();
        self
    }

    /// An LLM folder whose model.gguf holds `bytes`.
    fn with_llm_file(self, bytes: &[u8]) -> Self {
        let target = self.dir.path().join("llm/damaged");
        std::fs::create_dir_all(&target).unwrap();
        std::fs::write(target.join("model.gguf"), bytes).unwrap();
        self
    }

    fn dir(&self) -> ModelsDir {
        ModelsDir::new(self.dir.path())
    }

    fn load(&self, choice: SummariserChoice, options: &SummariserOptions) -> Box<dyn Summariser> {
        load(choice, &self.dir(), options).unwrap_or_else(|e| panic!("{choice} loads: {e}"))
    }
}

/// A Wednesday, the day the test meetings took place.
fn context() -> MeetingContext {
    MeetingContext::on(date!(2026 - 03 - 11))
}

/// Summarises, checking that progress only rises and ends at 100.
fn summarise(summariser: &mut dyn Summariser, transcript: &str) -> Summary {
    summarise_with(summariser, transcript, &context())
}

fn summarise_with(summariser: &mut dyn Summariser, transcript: &str, context: &MeetingContext) -> Summary {
    let mut seen: Vec<u8> = Vec::new();
    let summary = summariser.summarise(transcript, context, &mut |p| seen.push(p)).expect("summarises");
    assert!(seen.windows(2).all(|w| w[0] < w[1]), "progress went back: {seen:?}");
    assert_eq!(seen.last(), Some(&100), "progress ends at 100: {seen:?}");
    summary
}

/// The commitments (by key words) that no next step keeps whole.
fn missed<'a>(summary: &Summary, commitments: impl IntoIterator<Item = &'a [&'a str]>) -> Vec<&'a [&'a str]> {
    commitments
        .into_iter()
        .filter(|keys| !summary.next_steps.iter().any(|step| keys.iter().all(|k| step.to_lowercase().contains(k))))
        .collect()
}

fn timed(name: &str, summariser: &mut dyn Summariser, transcript: &str) -> Summary {
    let start = Instant::now();
    let summary = summarise(summariser, transcript);
    println!(
        "{name}: {} words in {:.2?}\nsummary: {}\nnext steps:",
        meeting::words(transcript),
        start.elapsed(),
        summary.summary
    );
    summary.next_steps.iter().for_each(|s| println!("  - {s}"));
    summary
}

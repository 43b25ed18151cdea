//! What Debrief asks the LLM and how it reads the answers: two fixed
//! prompts in the model's chat format, one turning the extracted summary's
//! sentences into a paragraph (`prompts/summary.txt`), one turning the
//! steps into clean lines (`prompts/steps.txt`), each answer begun for the
//! model in the format [`parse`] reads.

use candle_core::quantized::gguf_file::Content;

use crate::summarise::Summary;
use crate::summarise::meeting::MeetingContext;

/// The answers are started for the model, which keeps small models on format.
pub const ANSWER_START: &str = "SUMMARY:";
pub const STEPS_START: &str = "Next steps:\n1.";

pub const SYSTEM: &str = "You edit meeting notes into clean, short prose for an email.";

const SUMMARY: &str = include_str!("prompts/summary.txt");
const STEPS: &str = include_str!("prompts/steps.txt");

/// The chat formats Debrief can write; read from the GGUF's chat template.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ChatFormat {
    /// `<|im_start|>role … <|im_end|>`: Qwen, SmolLM and many others.
    ChatMl,
    /// `<|start_header_id|>role<|end_header_id|> … <|eot_id|>`: Llama 3.
    Llama3,
    /// `<|user|> … </s>`: Zephyr and TinyLlama.
    Zephyr,
}

impl ChatFormat {
    /// The format of the model's own template when it is one of ours, else
    /// ChatML (what most small instruct models are trained on).
    pub fn of(gguf: &Content) -> Self {
        let template =
            gguf.metadata.get("tokenizer.chat_template").and_then(|v| v.to_string().ok()).map_or("", String::as_str);
        if template.contains("<|start_header_id|>") {
            Self::Llama3
        } else if template.contains("<|user|>") && !template.contains("<|im_start|>") {
            Self::Zephyr
        } else {
            Self::ChatMl
        }
    }

    /// The token that ends the model's turn.
    pub fn end_of_turn(self) -> &'static str {
        match self {
            Self::ChatMl => "<|im_end|>",
            Self::Llama3 => "<|eot_id|>",
            Self::Zephyr => "</s>",
        }
    }

    /// A conversation with `system` and one `user` message, the assistant's
    /// answer begun with `start`.
    pub fn turn(self, system: &str, user: &str, start: &str) -> String {
        match self {
            Self::ChatMl => format!(
                "<|im_start|>system\n{system}<|im_end|>\n<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n{start}"
            ),
            Self::Llama3 => format!(
                "<|start_header_id|>system<|end_header_id|>\n\n{system}<|eot_id|><|start_header_id|>user<|end_header_id|>\n\n{user}<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n{start}"
            ),
            Self::Zephyr => format!("<|system|>\n{system}</s>\n<|user|>\n{user}</s>\n<|assistant|>\n{start}"),
        }
    }
}

/// The request for a summary paragraph of the extracted summary's
/// sentences. Without the steps: given both, a small model summarises the
/// steps and drops the figures.
pub fn for_summary(notes: &Summary, context: &MeetingContext) -> String {
    SUMMARY
        .trim_end()
        .replace("{me}", context.me.as_deref().unwrap_or("the consultant"))
        .replace("{client}", context.client.as_deref().unwrap_or("the client"))
        .replace("{date}", &day(context.date))
        .replace("{notes}", &notes.summary)
        .replace("{figures}", &figures(&notes.summary))
}

/// The meeting's day as the request gives it: "Friday 31 October 2025".
fn day(date: time::Date) -> String {
    format!("{} {} {} {}", date.weekday(), date.day(), date.month(), date.year())
}

/// What the request tells of the meeting beside its words (its people and
/// its day), which the model may state as the meeting's own.
pub fn meeting_facts(context: &MeetingContext) -> String {
    let mut facts: Vec<&str> = [&context.me, &context.client].into_iter().flatten().map(String::as_str).collect();
    let day = day(context.date);
    facts.push(&day);
    facts.join("\n")
}

/// The figures of `notes` named again for the model, which drops them
/// first when it writes prose: ", above all 48, £70,000 and 15%"; nothing
/// when there are none in digits (Vosk spells them out).
fn figures(notes: &str) -> String {
    let mut figures: Vec<&str> = Vec::new();
    for word in notes.split_whitespace() {
        let figure = word.trim_end_matches(['.', ',', ';', ':', '!', '?', ')']);
        if figure.chars().any(|c| c.is_ascii_digit()) && !figures.contains(&figure) {
            figures.push(figure);
        }
    }
    match figures.split_last() {
        None => String::new(),
        Some((only, [])) => format!(", above all {only}"),
        Some((last, rest)) => format!(", above all {} and {last}", rest.join(", ")),
    }
}

/// The request to rewrite the steps, numbered so the answer's lines map
/// back to the items; `None` when there are none.
pub fn for_steps(notes: &Summary) -> Option<String> {
    if notes.action_items.is_empty() {
        return None;
    }
    let steps: Vec<String> =
        notes.action_items.iter().enumerate().map(|(i, item)| format!("{}. {}", i + 1, item.action)).collect();
    Some(STEPS.trim_end().replace("{steps}", &steps.join("\n")))
}

/// Reads an answer in the format asked for. The reason it cannot, when it
/// cannot: no summary part, an empty or placeholder one, or text that only
/// repeats itself. A summary cut short by the token cap is still a summary.
pub fn parse(answer: &str) -> Result<Summary, String> {
    let clean = answer.replace("**", "").replace("__", "");
    // ASCII lower case keeps byte offsets, so they index `clean` too.
    let lower = clean.to_ascii_lowercase();
    let start = lower.find("summary:").ok_or("no SUMMARY part")? + "summary:".len();
    let (summary_end, steps_text) = match steps_header(&lower, start) {
        Some((at, len)) => (at, &clean[at + len..]),
        None => (clean.len(), ""),
    };
    let summary = clean[start..summary_end].split_whitespace().collect::<Vec<_>>().join(" ");
    let summary = summary.trim_start_matches(['#', '-', ':', ' ']).to_string();
    let words: Vec<String> = summary.split_whitespace().map(|w| w.to_lowercase()).collect();
    if words.len() < 3 {
        return Err("the summary part is empty".into());
    }
    let summary_lower = summary.to_lowercase();
    // "[insert …]" and the like: a form to fill in, not notes.
    if summary_lower.contains("rewrite these notes") || summary.contains('[') {
        return Err("the summary part is the instructions or a template".into());
    }
    let mut distinct = words.clone();
    distinct.sort();
    distinct.dedup();
    if words.len() >= 12 && distinct.len() * 3 < words.len() {
        return Err("the summary part repeats itself".into());
    }
    Ok(Summary { summary: finished_sentences(&summary), next_steps: steps(steps_text), ..Summary::default() })
}

/// Where the NEXT STEPS header after `from` in `lower` is, and its length.
fn steps_header(lower: &str, from: usize) -> Option<(usize, usize)> {
    ["next steps:", "next step:", "next steps\n"]
        .iter()
        .filter_map(|h| lower[from..].find(h).map(|at| (from + at, h.len())))
        .min()
}

/// `text` up to its last finished sentence when it has one: the token cap
/// may cut the last sentence off. A mark inside a number ("6.5") ends none.
fn finished_sentences(text: &str) -> String {
    let end = text
        .char_indices()
        .filter(|&(i, c)| matches!(c, '.' | '!' | '?') && text[i + 1..].chars().next().is_none_or(char::is_whitespace))
        .map(|(i, _)| i + 1)
        .next_back();
    match end {
        Some(end) => text[..end].to_string(),
        None => text.to_string(),
    }
}

fn steps(text: &str) -> Vec<String> {
    let mut steps: Vec<String> = Vec::new();
    for line in text.lines() {
        // The list ends at the first blank line after it (closing chatter).
        if line.trim().is_empty() && !steps.is_empty() {
            break;
        }
        let line = line.trim().trim_start_matches(['-', '*', '•', ' ']);
        let line = line.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start_matches(['.', ')', ' ']).trim();
        let lower = line.to_lowercase();
        if lower.starts_with("summary") || lower.starts_with("note") || lower.starts_with("part ") {
            break;
        }
        let words = line.split_whitespace().count();
        let placeholder = lower.trim_end_matches('.') == "none";
        if words >= 2 && !placeholder && !steps.iter().any(|s| s.eq_ignore_ascii_case(line)) {
            steps.push(line.trim_end_matches(['.', ';']).to_string());
        }
    }
    steps
}

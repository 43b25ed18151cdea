//! The `debrief summarise` command: its JSON with the load and summarise
//! times, and a batch that loads the model once for many transcripts.

use super::{LABELLED_MEETING, MEETING_FLAGS, Models, SHORT_MEETING};
use crate::harness::{cli, text};

#[test]
fn the_summarise_command_prints_json_with_its_load_and_summarise_times() {
    let models = Models::empty().with_embedding();
    let data = tempfile::tempdir().unwrap();
    let transcript = data.path().join("meeting.txt");
    std::fs::write(&transcript, SHORT_MEETING).unwrap();
    let args = [
        "summarise",
        transcript.to_str().unwrap(),
        "--summariser",
        "embedding",
        "--json",
        "--models-dir",
        models.dir.path().to_str().unwrap(),
    ];
    let out = cli(data.path(), &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(!printed["summary"].as_str().unwrap().is_empty(), "{printed}");
    assert_eq!(printed["nextSteps"].as_array().map(Vec::len), Some(2), "{printed}");
    // Loading the model takes a measurable while; both are whole milliseconds.
    assert!(printed["timings"]["loadMs"].as_u64().is_some_and(|ms| ms > 0), "{printed}");
    assert!(printed["timings"]["summariseMs"].is_u64(), "{printed}");
}

#[test]
fn a_batch_loads_the_model_once_and_prints_one_json_line_per_file() {
    let models = Models::empty().with_embedding();
    let data = tempfile::tempdir().unwrap();
    let short = data.path().join("short.txt");
    let labelled = data.path().join("labelled.txt");
    std::fs::write(&short, SHORT_MEETING).unwrap();
    std::fs::write(&labelled, LABELLED_MEETING).unwrap();
    let args = [
        "summarise",
        "--batch",
        short.to_str().unwrap(),
        labelled.to_str().unwrap(),
        "--json",
        "--models-dir",
        models.dir.path().to_str().unwrap(),
    ]
    .into_iter()
    .chain(MEETING_FLAGS)
    .collect::<Vec<_>>();
    let out = cli(data.path(), &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<serde_json::Value> =
        text(&out.stdout).lines().map(|l| serde_json::from_str(l).expect("one JSON object per line")).collect();
    assert_eq!(lines.len(), 2);
    for (line, file) in lines.iter().zip([&short, &labelled]) {
        assert_eq!(line["file"], file.to_str().unwrap());
        assert_eq!(line["summariser"], "embedding");
        assert!(line["loadMs"].as_u64().is_some_and(|ms| ms > 0) && line["summariseMs"].is_u64(), "{line}");
        // The peak so far holds at least the loaded embedding model (~90 MB).
        assert!(line["peakMemoryKb"].as_u64().is_some_and(|kb| kb > 50_000), "{line}");
        assert!(!line["summary"].as_str().unwrap().is_empty(), "{line}");
        let steps = line["nextSteps"].as_array().unwrap();
        assert_eq!(steps.len(), line["actionItems"].as_array().unwrap().len(), "{line}");
    }
    assert_eq!(lines[0]["loadMs"], lines[1]["loadMs"], "one load for the batch");
    let items = lines[1]["actionItems"].as_array().unwrap();
    let floor_plan =
        items.iter().find(|i| i["action"].as_str().unwrap().contains("floor plan")).expect("the floor plan");
    assert_eq!(floor_plan["who"], "me");
    assert_eq!(floor_plan["dueText"], "by Tuesday");
    assert_eq!(floor_plan["dueDate"], "2026-03-17");

    let several = cli(data.path(), &["summarise", short.to_str().unwrap(), labelled.to_str().unwrap()]);
    assert!(!several.status.success() && text(&several.stderr).contains("--batch"), "{}", text(&several.stderr));
    let bad_date = cli(data.path(), &["summarise", short.to_str().unwrap(), "--meeting-date", "11/03/2026"]);
    assert!(!bad_date.status.success() && text(&bad_date.stderr).contains("YYYY-MM-DD"), "{}", text(&bad_date.stderr));
}

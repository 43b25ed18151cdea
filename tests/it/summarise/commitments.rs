//! Next steps and action items: one per commitment and none for small
//! talk, each with its owner and its due date, and the way a spoken
//! commitment is cut into steps (a deadline in a later clause, a step that
//! hands on what the one before made, reporting back).

use debrief::domain::action_item::Who;
use debrief::summarise::{MeetingContext, SummariserChoice};
use time::macros::date;

use super::{LABELLED_MEETING, MEETING_FLAGS, Models, SHORT_COMMITMENTS, SHORT_MEETING, missed, summarise_with, timed};
use crate::harness::{cli, text};

#[test]
fn next_steps_of_a_short_meeting_keep_each_commitment_and_skip_the_small_talk() {
    for (choice, models) in
        [(SummariserChoice::Lexical, Models::empty()), (SummariserChoice::Embedding, Models::empty().with_embedding())]
    {
        let summary = timed(&choice.to_string(), &mut *models.load(choice, &Default::default()), SHORT_MEETING);
        assert_eq!(missed(&summary, SHORT_COMMITMENTS), Vec::<&[&str]>::new(), "{choice}: {:?}", summary.next_steps);
        assert_eq!(
            summary.next_steps.len(),
            2,
            "{choice}: one step per commitment, none for small talk: {:?}",
            summary.next_steps
        );
        assert!(!summary.summary.is_empty(), "{choice}");
    }
}

#[test]
fn a_labelled_meeting_gives_each_commitment_its_owner_and_its_date_and_lists_a_recap_once() {
    let context = MeetingContext {
        date: date!(2026 - 03 - 11),
        me: Some("Anna Lopez".into()),
        client: Some("Mike Stone".into()),
    };
    let unlabelled: String =
        LABELLED_MEETING.lines().map(|l| l.split_once(": ").map_or(l, |(_, t)| t)).collect::<Vec<_>>().join(" ");
    for (choice, models) in
        [(SummariserChoice::Lexical, Models::empty()), (SummariserChoice::Embedding, Models::empty().with_embedding())]
    {
        let mut summariser = models.load(choice, &Default::default());
        for (form, transcript, owners) in [
            ("labelled", LABELLED_MEETING, [Who::Me, Who::Client, Who::Person("Priya".into())]),
            ("punctuated", unlabelled.as_str(), [Who::Unattributed, Who::Unattributed, Who::Person("Priya".into())]),
        ] {
            let summary = summarise_with(&mut *summariser, transcript, &context);
            let items = &summary.action_items;
            let got: Vec<(&Who, Option<String>)> =
                items.iter().map(|i| (&i.who, i.due_date.map(debrief::domain::action_item::iso))).collect();
            let want: Vec<(&Who, Option<String>)> = owners
                .iter()
                .zip(["2026-03-17", "2026-03-31", "2026-04-13"])
                .map(|(w, d)| (w, Some(d.to_string())))
                .collect();
            assert_eq!(got, want, "{choice}, {form}: {:#?}", summary.next_steps);
            assert!(
                items[0].action.to_lowercase().contains("floor plan with the two extra meeting rooms"),
                "{choice}, {form}: {items:?}"
            );
        }
    }
}

/// `debrief summarise --json` of `transcript` as a meeting of Wednesday
/// 11 March 2026 between Anna Lopez and Mike Stone, with the embedding model.
fn summarised_meeting(transcript: &str) -> serde_json::Value {
    let models = Models::empty().with_embedding();
    let data = tempfile::tempdir().unwrap();
    let meeting = data.path().join("meeting.txt");
    std::fs::write(&meeting, transcript).unwrap();
    let args = ["summarise", meeting.to_str().unwrap(), "--json", "--models-dir", models.dir.path().to_str().unwrap()]
        .into_iter()
        .chain(MEETING_FLAGS)
        .collect::<Vec<_>>();
    let out = cli(data.path(), &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_deadline_said_in_a_later_clause_makes_and_dates_the_commitment_and_reporting_back_is_no_step() {
    let printed = summarised_meeting(
        "Anna: Thanks for walking me round the house.\n\
         Mike: No problem. So, the extension at the back.\n\
         Anna: I'll check with the council whether a four-metre extension needs full planning permission, and let you know by Tuesday.\n\
         Mike: Great, that would help us a lot with the budget. And the cost of the glass roof?\n\
         Anna: Let me put the numbers together for the glass roof with and without the blinds, and you'll have them Thursday.\n\
         Mike: Perfect.\n",
    );
    let items = printed["actionItems"].as_array().expect("action items");
    let council = items
        .iter()
        .find(|i| i["action"].as_str().unwrap().contains("council"))
        .unwrap_or_else(|| panic!("the council check: {printed}"));
    assert_eq!(council["dueText"], "by Tuesday", "{printed}");
    assert_eq!(council["dueDate"], "2026-03-17", "{printed}");
    let numbers = items
        .iter()
        .find(|i| i["action"].as_str().unwrap().contains("numbers together"))
        .unwrap_or_else(|| panic!("the numbers, promised by saying when they come: {printed}"));
    assert_eq!(numbers["dueDate"], "2026-03-12", "{printed}");
    for report in ["let you know", "have them"] {
        assert!(
            !items.iter().any(|i| i["action"].as_str().unwrap().to_lowercase().starts_with(report)),
            "reporting back is part of its commitment, not a step of its own: {printed}"
        );
    }
}

#[test]
fn a_step_that_hands_on_what_the_one_before_made_joins_it_and_a_shared_name_merges_nothing() {
    let printed = summarised_meeting(
        "Anna: So, I'll draft the policy document and send it to Fiona by Friday the 13th.\n\
         Mike: Good.\n\
         Anna: Some older contracts might have a mobility clause. I'll check the employment contracts for any mobility clause, and flag anything to Fiona by the end of the month.\n\
         Mike: Thanks, that's everything.\n",
    );
    let items = printed["actionItems"].as_array().expect("action items");
    let action = |i: &serde_json::Value| i["action"].as_str().unwrap().to_string();
    let policy = items
        .iter()
        .find(|i| action(i).starts_with("Draft the policy document and send it to Fiona"))
        .unwrap_or_else(|| panic!("drafting and sending the policy, one step: {printed}"));
    assert_eq!(policy["dueDate"], "2026-03-13", "{printed}");
    let contracts = items
        .iter()
        .find(|i| action(i).contains("employment contracts"))
        .unwrap_or_else(|| panic!("the contracts check: {printed}"));
    assert_eq!(contracts["dueDate"], "2026-03-31", "{printed}");
    assert!(!items.iter().any(|i| action(i).starts_with("Send it")), "no step without its object: {printed}");
}

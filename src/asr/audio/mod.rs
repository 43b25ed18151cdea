//! Reading a recording into the 16 kHz mono samples the engines take: any
//! PCM (8, 16, 24, 32-bit) or 32-bit float WAV, any channel count, any rate.
//! The file is streamed: only the 16 kHz result is held, never the
//! recording at its own rate (90 minutes at 48 kHz stereo is 1 GB).

pub mod opus;
mod resample;

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;

use resample::Resampler;

use super::SAMPLE_RATE;

/// Rates a recording may have. Outside them the resampling filter would
/// grow without bound; no recorder writes such rates.
const RATES: std::ops::RangeInclusive<u32> = 4_000..=384_000;
/// Mono samples handed to the resampler at a time.
const BLOCK: usize = 4096;

#[derive(Debug, thiserror::Error)]
pub enum AudioError {
    /// The bytes are not a WAV file we can decode; the text says why.
    #[error("The recording is not a readable WAV file ({0}).")]
    NotWav(String),
    #[error("The recording could not be read ({0}).")]
    Io(#[from] io::Error),
    /// The bytes are not an Ogg Opus file we can decode.
    #[error("The stored recording is not a readable Ogg Opus file ({0}).")]
    NotOpus(String),
}

/// The 44-byte header of a 16 kHz mono 16-bit WAV file of `samples`.
pub fn wav_header(samples: usize) -> Vec<u8> {
    let data = u32::try_from(samples * 2).unwrap_or(u32::MAX);
    let mut header = Vec::with_capacity(44);
    header.extend_from_slice(b"RIFF");
    header.extend_from_slice(&data.saturating_add(36).to_le_bytes());
    header.extend_from_slice(b"WAVEfmt ");
    header.extend_from_slice(&16u32.to_le_bytes());
    header.extend_from_slice(&1u16.to_le_bytes()); // PCM
    header.extend_from_slice(&1u16.to_le_bytes()); // mono
    header.extend_from_slice(&SAMPLE_RATE.to_le_bytes());
    header.extend_from_slice(&(SAMPLE_RATE * 2).to_le_bytes());
    header.extend_from_slice(&2u16.to_le_bytes());
    header.extend_from_slice(&16u16.to_le_bytes());
    header.extend_from_slice(b"data");
    header.extend_from_slice(&data.to_le_bytes());
    header
}

/// A sample as 16-bit PCM, as [`encode_wav`] writes it.
pub fn pcm16(sample: f32) -> [u8; 2] {
    ((sample.clamp(-1.0, 1.0) * f32::from(i16::MAX)) as i16).to_le_bytes()
}

/// 16 kHz mono samples in [-1, 1] as a 16-bit WAV file.
pub fn encode_wav(samples: &[f32]) -> Result<Vec<u8>, AudioError> {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: SAMPLE_RATE,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut out = io::Cursor::new(Vec::with_capacity(44 + samples.len() * 2));
    let write = |out: &mut io::Cursor<Vec<u8>>| -> hound::Result<()> {
        let mut writer = hound::WavWriter::new(out, spec)?;
        for sample in samples {
            writer.write_sample((sample.clamp(-1.0, 1.0) * f32::from(i16::MAX)) as i16)?;
        }
        writer.finalize()
    };
    write(&mut out).map_err(|e| AudioError::Io(io::Error::other(e)))?;
    Ok(out.into_inner())
}

/// Decodes a stored recording, as its content type says: the WAV that was
/// uploaded (read as a stream), or the Ogg Opus it was compressed to (held
/// whole: 11 MB an hour). At most `max_samples` are kept, and no more room
/// than they need is taken: 3 hours at 16 kHz are 690 MB.
pub fn read_recording(content_type: &str, source: impl Read, max_samples: usize) -> Result<Vec<f32>, AudioError> {
    let mut samples = Vec::new();
    let mut keep = |piece: &[f32], expected: usize| {
        if samples.capacity() == 0 {
            samples.reserve_exact(expected.min(max_samples));
        }
        let room = max_samples - samples.len();
        samples.extend_from_slice(&piece[..piece.len().min(room)]);
        samples.len() < max_samples
    };
    match content_type {
        opus::CONTENT_TYPE => {
            let mut bytes = Vec::new();
            BufReader::new(source).read_to_end(&mut bytes)?;
            let total = opus::length(&bytes)?;
            opus::decode_span(&bytes, 0..total, &mut |piece| keep(piece, total))?;
        }
        _ => read_wav_into(source, &mut keep)?,
    }
    Ok(samples)
}

/// A WAV or Ogg Opus file (told apart by its first bytes, not its name)
/// as 16 kHz mono samples.
pub fn read_audio_file(path: &Path) -> Result<Vec<f32>, AudioError> {
    let mut file = File::open(path)?;
    let mut start = Vec::with_capacity(4);
    (&mut file).take(4).read_to_end(&mut start)?;
    if start == b"OggS" {
        file.read_to_end(&mut start)?;
        return opus::decode(&start);
    }
    read_wav(io::Cursor::new(start).chain(file))
}

/// Decodes a WAV stream into 16 kHz mono samples in [-1, 1].
///
/// A data chunk that ends early (an upload cut short, a recorder that never
/// wrote the final length) gives the audio up to the cut: that part of a
/// meeting is still worth a transcript. A header that ends early or makes
/// no sense is an error.
pub fn read_wav(reader: impl Read) -> Result<Vec<f32>, AudioError> {
    let mut samples = Vec::new();
    read_wav_into(reader, &mut |piece, expected| {
        samples.reserve(expected.saturating_sub(samples.len()));
        samples.extend_from_slice(piece);
        true
    })?;
    Ok(samples)
}

/// What takes decoded samples a block at a time: the block, and how many
/// samples the whole recording should give (from its header); false stops
/// the reading there.
pub type Sink<'a> = dyn FnMut(&[f32], usize) -> bool + 'a;

/// [`read_wav`], handing the 16 kHz samples to `sink` a block at a time
/// instead of keeping them: memory stays at a block whatever the length.
pub fn read_wav_into(reader: impl Read, sink: &mut Sink<'_>) -> Result<(), AudioError> {
    let mut source = EndTracker { inner: BufReader::with_capacity(1 << 16, reader), ended: false };
    let mut wav = match hound::WavReader::new(&mut source) {
        Ok(wav) => wav,
        Err(e) => return Err(header_error(e, source.ended)),
    };
    let spec = wav.spec();
    if !RATES.contains(&spec.sample_rate) {
        return Err(AudioError::NotWav(format!(
            "its sample rate of {} Hz is not one a recorder uses",
            spec.sample_rate
        )));
    }
    let expected = (u64::from(wav.duration()) * u64::from(SAMPLE_RATE)).div_ceil(u64::from(spec.sample_rate));
    let resampler = Resampler::new(spec.sample_rate, SAMPLE_RATE);
    let mut stream = Downmix::new(spec.channels, resampler, expected as usize, sink);
    let failure = match spec.sample_format {
        hound::SampleFormat::Float => stream.feed(wav.samples::<f32>()),
        hound::SampleFormat::Int => {
            let scale = 2f32.powi(1 - i32::from(spec.bits_per_sample));
            stream.feed(wav.samples::<i32>().map(|s| s.map(|v| v as f32 * scale)))
        }
    };
    if let Some(e) = failure
        && !wav.into_inner().ended
    {
        return Err(decode_error(e));
    }
    stream.finish();
    Ok(())
}

/// Averages each frame's channels, resamples the result and hands it on.
struct Downmix<'s, 'a> {
    channels: usize,
    frame_sum: f32,
    in_frame: usize,
    block: Vec<f32>,
    resampler: Resampler,
    /// The resampler's output for one block, handed to `sink`.
    out: Vec<f32>,
    expected: usize,
    sink: &'s mut Sink<'a>,
    /// The sink asked for no more.
    full: bool,
}

impl<'s, 'a> Downmix<'s, 'a> {
    fn new(channels: u16, resampler: Resampler, expected: usize, sink: &'s mut Sink<'a>) -> Self {
        Self {
            channels: usize::from(channels),
            frame_sum: 0.0,
            in_frame: 0,
            block: Vec::with_capacity(BLOCK),
            resampler,
            out: Vec::new(),
            expected,
            sink,
            full: false,
        }
    }

    /// Takes samples until the stream ends or fails, or the sink is full; a
    /// failure is returned after the whole frames before it are kept (a
    /// partial frame is not).
    fn feed(&mut self, samples: impl Iterator<Item = hound::Result<f32>>) -> Option<hound::Error> {
        for sample in samples {
            match sample {
                Ok(value) => self.add(value),
                Err(e) => return Some(e),
            }
            if self.full {
                return None;
            }
        }
        None
    }

    fn add(&mut self, value: f32) {
        self.frame_sum += value;
        self.in_frame += 1;
        if self.in_frame == self.channels {
            self.block.push(self.frame_sum / self.channels as f32);
            (self.frame_sum, self.in_frame) = (0.0, 0);
            if self.block.len() == BLOCK {
                self.resampler.push(&self.block, &mut self.out);
                self.block.clear();
                self.hand_on();
            }
        }
    }

    fn hand_on(&mut self) {
        if !self.full && !self.out.is_empty() {
            self.full = !(self.sink)(&self.out, self.expected);
        }
        self.out.clear();
    }

    fn finish(self) {
        let Self { block, mut resampler, mut out, expected, sink, full, .. } = self;
        if full {
            return;
        }
        resampler.push(&block, &mut out);
        resampler.finish(&mut out);
        if !out.is_empty() {
            sink(&out, expected);
        }
    }
}

/// Remembers whether the stream ran out, which tells a file cut short from
/// one that is malformed (hound reports both as errors).
struct EndTracker<R> {
    inner: R,
    ended: bool,
}

impl<R: Read> Read for EndTracker<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.ended |= n == 0 && !buf.is_empty();
        Ok(n)
    }
}

fn header_error(e: hound::Error, ended: bool) -> AudioError {
    if ended { AudioError::NotWav("it ends inside its header".into()) } else { decode_error(e) }
}

fn decode_error(e: hound::Error) -> AudioError {
    AudioError::NotWav(match e {
        hound::Error::IoError(e) => return AudioError::Io(e),
        hound::Error::FormatError(reason) => reason.into(),
        hound::Error::Unsupported | hound::Error::TooWide | hound::Error::InvalidSampleFormat => {
            "its audio encoding is not supported; it must be PCM (8 to 32-bit) or 32-bit float".into()
        }
        hound::Error::UnfinishedSample => "it ends inside a sample".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 16 kHz mono 16-bit WAV of `seconds` of a tone.
    fn tone(seconds: usize) -> Vec<u8> {
        let samples: Vec<f32> = (0..seconds * 16_000).map(|i| (i as f32 * 0.05).sin() * 0.5).collect();
        encode_wav(&samples).unwrap()
    }

    #[test]
    fn a_recording_is_read_up_to_the_limit_and_takes_no_room_past_it() {
        let wav = tone(10);
        let all = read_recording("audio/wav", &wav[..], usize::MAX).unwrap();
        assert_eq!(all.len(), 160_000);
        assert_eq!(all.capacity(), 160_000, "room for what the header says, not a doubling");
        let cut = read_recording("audio/wav", &wav[..], 48_000).unwrap();
        assert_eq!((cut.len(), cut.capacity()), (48_000, 48_000));
        assert_eq!(cut[..], all[..48_000]);
        let ogg = opus::encode(&all).unwrap();
        let cut = read_recording(opus::CONTENT_TYPE, &ogg[..], 48_000).unwrap();
        assert_eq!((cut.len(), cut.capacity()), (48_000, 48_000));
    }

    #[test]
    fn the_wav_header_made_for_streaming_is_the_one_hound_writes() {
        let samples = [0.0, 0.5, -0.5, 1.0];
        let whole = encode_wav(&samples).unwrap();
        assert_eq!(wav_header(samples.len()), whole[..44]);
        let body: Vec<u8> = samples.iter().flat_map(|&s| pcm16(s)).collect();
        assert_eq!(body, whole[44..]);
    }
}

#[cfg(test)]
mod properties {
    use proptest::prelude::*;

    use super::*;
    use crate::domain::wav::properties::{HoundWav, hound_wav, wav_like_bytes};

    fn wav_file() -> impl Strategy<Value = HoundWav> {
        let rate = prop_oneof![
            Just(8_000u32),
            Just(16_000),
            Just(44_100),
            Just(48_000),
            4_000u32..=48_000,
            // Refused: no recorder writes them.
            1u32..4_000,
            384_001u32..=1_000_000,
        ];
        hound_wav(rate, 4, 3000)
    }

    /// The 16 kHz samples `frames` frames at `rate` give: the same duration.
    fn resampled_len(frames: usize, rate: u32) -> usize {
        (frames as u64 * u64::from(SAMPLE_RATE)).div_ceil(u64::from(rate)) as usize
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn any_bytes_decode_to_an_error_or_at_most_four_samples_a_byte(bytes in wav_like_bytes(512)) {
            // The lowest rate read is 4 kHz and a sample takes a byte at least.
            if let Ok(samples) = read_wav(&bytes[..]) {
                prop_assert!(samples.len() <= 4 * bytes.len(), "{} samples from {} bytes", samples.len(), bytes.len());
            }
        }

        #[test]
        fn a_whole_wav_decodes_to_its_duration_at_16_khz(wav in wav_file()) {
            match read_wav(&wav.bytes[..]) {
                Ok(samples) => {
                    prop_assert!(RATES.contains(&wav.rate));
                    prop_assert_eq!(samples.len(), resampled_len(wav.frames, wav.rate));
                    prop_assert!(samples.iter().all(|s| s.is_finite() && s.abs() <= 2.0));
                }
                Err(e) => prop_assert!(!RATES.contains(&wav.rate), "{e}"),
            }
        }

        #[test]
        fn a_wav_cut_anywhere_decodes_to_an_error_or_the_whole_frames_before_the_cut(wav in wav_file(), cut in any::<prop::sample::Index>()) {
            let cut = cut.index(wav.bytes.len() + 1);
            if let Ok(samples) = read_wav(&wav.bytes[..cut]) {
                prop_assert!(cut >= wav.data_offset, "a cut header is an error");
                let kept = (cut - wav.data_offset) / wav.block_align;
                prop_assert_eq!(samples.len(), resampled_len(kept, wav.rate));
            }
        }

        #[test]
        fn a_wav_with_any_byte_changed_decodes_to_an_error_or_a_bounded_output(wav in wav_file(), at in any::<prop::sample::Index>(), value in any::<u8>()) {
            let mut bytes = wav.bytes;
            let at = at.index(bytes.len());
            bytes[at] = value;
            if let Ok(samples) = read_wav(&bytes[..]) {
                prop_assert!(samples.len() <= 4 * bytes.len(), "{} samples from {} bytes", samples.len(), bytes.len());
            }
        }
    }
}

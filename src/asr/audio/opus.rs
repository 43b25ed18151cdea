//! Recordings kept as Ogg Opus (RFC 7845): 24 kbit/s of 16 kHz mono speech
//! is 11 MB an hour against the WAV's 115 MB.
//!
//! 24 kbit/s was chosen by measurement: on the LibriVox readings, Whisper's
//! transcript of the stored copy changed no word (at 16 kbit/s, one of 71).
//! The codec is pure Rust, so the binary still starts with nothing beside it
//! and cross-builds for the Raspberry Pi like the rest.

use ogg::{PacketWriteEndInfo, PacketWriter};
use opus_rs::{Application, OpusDecoder, OpusEncoder};

use super::{AudioError, SAMPLE_RATE};

pub const CONTENT_TYPE: &str = "audio/ogg";
/// Chosen by measurement (see the module's comment).
const BITRATE: i32 = 24_000;
/// 20 ms at 16 kHz: the frame size speech codecs are tuned for.
const FRAME: usize = 320;
/// Ogg granule positions count 48 kHz samples whatever the input rate.
const GRANULE_PER_SAMPLE: u64 = 48_000 / SAMPLE_RATE as u64;
/// The encoder's look-ahead at 48 kHz, which the decoder drops (libopus's
/// value, which this encoder shares: decoded audio lines up with the input).
const PRE_SKIP: u16 = 312;
/// One page a second, so a player seeking by bisection lands within a second.
const PACKETS_PER_PAGE: usize = 50;
/// Any number will do for a file with one stream; a fixed one keeps the
/// output of the same input byte for byte the same.
const SERIAL: u32 = 0x6465_6272;
/// Longest packet the encoder writes for a 20 ms frame at this bitrate,
/// with room to spare.
const PACKET_MAX: usize = 1500;
/// Longest frame a decoder may meet (120 ms at 16 kHz).
const DECODED_MAX: usize = 1920;

/// Encodes 16 kHz mono samples in [-1, 1] as an Ogg Opus file.
pub fn encode(samples: &[f32]) -> Result<Vec<u8>, AudioError> {
    let mut encoder = Encoder::new()?;
    encoder.push(samples)?;
    encoder.finish()
}

/// An Ogg Opus file written as its samples arrive: memory holds the file
/// (11 MB an hour) and one frame, never the recording.
pub struct Encoder {
    encoder: OpusEncoder,
    writer: PacketWriter<'static, Vec<u8>>,
    /// Samples of the frame being filled.
    frame: Vec<f32>,
    /// Frames encoded so far.
    frames: usize,
    /// Samples pushed so far.
    received: u64,
    /// The last packet, written once it is known whether it ends the stream.
    held: Option<Vec<u8>>,
}

impl Encoder {
    pub fn new() -> Result<Self, AudioError> {
        let mut encoder = OpusEncoder::new(SAMPLE_RATE as i32, 1, Application::Voip).map_err(codec)?;
        encoder.bitrate_bps = BITRATE;
        encoder.use_cbr = false;
        let mut writer = PacketWriter::new(Vec::new());
        writer.write_packet(head(), SERIAL, PacketWriteEndInfo::EndPage, 0)?;
        writer.write_packet(tags(), SERIAL, PacketWriteEndInfo::EndPage, 0)?;
        Ok(Self { encoder, writer, frame: Vec::with_capacity(FRAME), frames: 0, received: 0, held: None })
    }

    pub fn push(&mut self, samples: &[f32]) -> Result<(), AudioError> {
        self.received += samples.len() as u64;
        for &sample in samples {
            self.frame.push(sample);
            if self.frame.len() == FRAME {
                self.encode_frame()?;
            }
        }
        Ok(())
    }

    /// The file: the frame being filled, and frames past the end to flush
    /// the encoder's look-ahead, so the last words decode.
    pub fn finish(mut self) -> Result<Vec<u8>, AudioError> {
        let lead = u64::from(PRE_SKIP) / GRANULE_PER_SAMPLE;
        let frames = (self.received + lead).div_ceil(FRAME as u64).max(1) as usize;
        while self.frames < frames {
            self.frame.resize(FRAME, 0.0);
            self.encode_frame()?;
        }
        let end = u64::from(PRE_SKIP) + self.received * GRANULE_PER_SAMPLE;
        if let Some(last) = self.held.take() {
            self.writer.write_packet(
                last,
                SERIAL,
                PacketWriteEndInfo::EndStream,
                self.granule(self.frames).min(end),
            )?;
        }
        Ok(self.writer.into_inner())
    }

    fn encode_frame(&mut self) -> Result<(), AudioError> {
        let mut packet = [0u8; PACKET_MAX];
        let bytes = self.encoder.encode(&self.frame, FRAME, &mut packet).map_err(codec)?;
        self.frame.clear();
        // Every frame but the last ends at or before the last sample, so
        // its granule position needs no cap.
        if let Some(earlier) = self.held.replace(packet[..bytes].to_vec()) {
            let page = if self.frames.is_multiple_of(PACKETS_PER_PAGE) {
                PacketWriteEndInfo::EndPage
            } else {
                PacketWriteEndInfo::NormalPacket
            };
            self.writer.write_packet(earlier, SERIAL, page, self.granule(self.frames))?;
        }
        self.frames += 1;
        Ok(())
    }

    /// The granule position at the end of frame `n` (counted from 1).
    fn granule(&self, n: usize) -> u64 {
        u64::from(PRE_SKIP) + (n * FRAME) as u64 * GRANULE_PER_SAMPLE
    }
}

/// Decodes an Ogg Opus file this module wrote (or any mono Opus stream) into
/// 16 kHz mono samples in [-1, 1], trimmed as its granule positions say.
pub fn decode(bytes: &[u8]) -> Result<Vec<f32>, AudioError> {
    let total = length(bytes)?;
    let mut samples = Vec::with_capacity(total);
    decode_span(bytes, 0..total, &mut |piece| {
        samples.extend_from_slice(piece);
        true
    })?;
    Ok(samples)
}

/// Decoding from a page before the span asked for gives the decoder this
/// long to settle (its state is built from the packets before): 80 ms.
const PREROLL_SAMPLES: u64 = 1_280;

/// The samples a file decodes to, from its last page's granule position.
pub fn length(bytes: &[u8]) -> Result<usize, AudioError> {
    let stream = Stream::read(bytes)?;
    let end = stream.pages.last().map_or(0, |p| p.granule);
    Ok((end.saturating_sub(u64::from(stream.pre_skip)) / GRANULE_PER_SAMPLE) as usize)
}

/// Hands the samples `span` of the file to `sink`, a frame at a time, until
/// the span ends or `sink` returns false. Only the pages from just before
/// the span are decoded (with [`PREROLL_SAMPLES`] to settle): a span of a
/// long recording costs what the span costs. The decoder starts cold there,
/// so the first samples of a span may differ slightly from a decoding from
/// the start; the preroll keeps the difference under the codec's own noise.
pub fn decode_span(
    bytes: &[u8],
    span: std::ops::Range<usize>,
    sink: &mut dyn FnMut(&[f32]) -> bool,
) -> Result<(), AudioError> {
    let stream = Stream::read(bytes)?;
    let skip = u64::from(stream.pre_skip) / GRANULE_PER_SAMPLE;
    // Positions count the decoder's output, pre-skip included. The pages
    // this module writes mark their end as pre-skip plus the samples of
    // the frames before it, so a page ends at the output count its
    // granule position less the pre-skip says.
    let decoded_by = |page: &Page| page.granule.saturating_sub(u64::from(stream.pre_skip)) / GRANULE_PER_SAMPLE;
    let (from, to) = (span.start as u64 + skip, span.end as u64 + skip);
    let settle_from = from.saturating_sub(PREROLL_SAMPLES);
    let first = stream.pages.iter().position(|p| decoded_by(p) > settle_from).unwrap_or(stream.pages.len());
    let mut at = if first == 0 { 0 } else { decoded_by(&stream.pages[first - 1]) };
    let end = stream.pages.last().map_or(0, |p| p.granule / GRANULE_PER_SAMPLE).min(to);
    let mut decoder = OpusDecoder::new(SAMPLE_RATE as i32, 1).map_err(codec)?;
    let mut frame = [0f32; DECODED_MAX];
    for page in &stream.pages[first..] {
        for packet in &page.packets {
            if at >= end {
                return Ok(());
            }
            let decoded = decoder.decode(&bytes[packet.clone()], DECODED_MAX, &mut frame).map_err(codec)? as u64;
            let (keep_from, keep_to) = (from.max(at), end.min(at + decoded));
            if keep_from < keep_to && !sink(&frame[(keep_from - at) as usize..(keep_to - at) as usize]) {
                return Ok(());
            }
            at += decoded;
        }
    }
    // A stream that says it is longer than its packets: silence, as a
    // decoding from the start has always padded it.
    let silence = [0f32; DECODED_MAX];
    let mut at = at.max(from);
    while at < end {
        let n = (end - at).min(DECODED_MAX as u64);
        if !sink(&silence[..n as usize]) {
            break;
        }
        at += n;
    }
    Ok(())
}

/// An Ogg Opus file's audio pages, found without decoding a sample.
struct Stream {
    pre_skip: u16,
    pages: Vec<Page>,
}

/// A page's granule position (the stream's 48 kHz position at its end)
/// and the byte ranges of its packets.
struct Page {
    granule: u64,
    packets: Vec<std::ops::Range<usize>>,
}

impl Stream {
    /// Walks the pages: the identification and comment headers first, then
    /// audio. Only whole packets are read: a packet continued across pages
    /// (which this module never writes) is refused.
    fn read(bytes: &[u8]) -> Result<Self, AudioError> {
        let mut at = 0;
        let mut packets_seen = 0;
        let mut pre_skip = None;
        let mut pages = Vec::new();
        while at < bytes.len() {
            let header = bytes.get(at..at + 27).ok_or_else(|| not_opus("a page ends early"))?;
            if &header[..4] != b"OggS" {
                return Err(not_opus("a page does not start with OggS"));
            }
            if header[5] & 1 != 0 {
                return Err(not_opus("a packet continues across pages"));
            }
            let granule = u64::from_le_bytes(header[6..14].try_into().unwrap_or_default());
            let segments = usize::from(header[26]);
            let lacing = bytes.get(at + 27..at + 27 + segments).ok_or_else(|| not_opus("a page ends early"))?;
            let mut start = at + 27 + segments;
            let mut packets = Vec::new();
            let mut length = 0;
            for &lace in lacing {
                length += usize::from(lace);
                if lace < 255 {
                    packets.push(start..start + length);
                    start += length;
                    length = 0;
                }
            }
            if length > 0 {
                return Err(not_opus("a packet continues across pages"));
            }
            if start > bytes.len() {
                return Err(not_opus("a page ends early"));
            }
            at = start;
            let mut audio = Vec::new();
            for packet in packets {
                match packets_seen {
                    0 => pre_skip = Some(parse_head(&bytes[packet])?),
                    1 => {}
                    _ => audio.push(packet),
                }
                packets_seen += 1;
            }
            if packets_seen > 2 && !audio.is_empty() {
                pages.push(Page { granule, packets: audio });
            }
        }
        let pre_skip = pre_skip.ok_or_else(|| not_opus("the file is empty"))?;
        if packets_seen < 2 {
            return Err(not_opus("the comment header is missing"));
        }
        Ok(Self { pre_skip, pages })
    }
}

/// The identification header: version 1, mono, the pre-skip, the input
/// rate (for players that resample back), no gain, one stream.
fn head() -> Vec<u8> {
    let mut head = b"OpusHead".to_vec();
    head.extend_from_slice(&[1, 1]);
    head.extend_from_slice(&PRE_SKIP.to_le_bytes());
    head.extend_from_slice(&SAMPLE_RATE.to_le_bytes());
    head.extend_from_slice(&0i16.to_le_bytes());
    head.push(0);
    head
}

/// The comment header: who wrote it, no comments.
fn tags() -> Vec<u8> {
    let vendor = concat!("debrief ", env!("CARGO_PKG_VERSION")).as_bytes();
    let mut tags = b"OpusTags".to_vec();
    tags.extend_from_slice(&(vendor.len() as u32).to_le_bytes());
    tags.extend_from_slice(vendor);
    tags.extend_from_slice(&0u32.to_le_bytes());
    tags
}

/// The pre-skip of an identification header, checking what decoding needs.
fn parse_head(head: &[u8]) -> Result<u16, AudioError> {
    if head.len() < 19 || !head.starts_with(b"OpusHead") {
        return Err(not_opus("the first packet is no Opus header"));
    }
    if head[9] != 1 || head[18] != 0 {
        return Err(not_opus("only mono single-stream files are kept"));
    }
    Ok(u16::from_le_bytes([head[10], head[11]]))
}

fn not_opus(why: &str) -> AudioError {
    AudioError::NotOpus(why.to_owned())
}

fn codec(why: &'static str) -> AudioError {
    AudioError::NotOpus(why.to_owned())
}

impl From<ogg::OggReadError> for AudioError {
    fn from(e: ogg::OggReadError) -> Self {
        AudioError::NotOpus(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A vowel-like tone with a rising pitch: speech-band energy the
    /// codec must keep.
    fn voice(seconds: f32) -> Vec<f32> {
        let n = (seconds * SAMPLE_RATE as f32) as usize;
        (0..n)
            .map(|i| {
                let t = i as f32 / SAMPLE_RATE as f32;
                let pitch = 140.0 + 40.0 * t;
                0.3 * (2.0 * std::f32::consts::PI * pitch * t).sin()
                    + 0.15 * (2.0 * std::f32::consts::PI * 3.0 * pitch * t).sin()
            })
            .collect()
    }

    #[test]
    fn a_decoded_recording_has_the_length_and_the_energy_of_the_original() {
        let original = voice(3.3);
        let decoded = decode(&encode(&original).unwrap()).unwrap();
        assert_eq!(decoded.len(), original.len());
        let energy = |s: &[f32]| s.iter().map(|x| x * x).sum::<f32>() / s.len() as f32;
        let ratio = energy(&decoded) / energy(&original);
        assert!((0.7..1.3).contains(&ratio), "energy ratio {ratio}");
    }

    #[test]
    fn a_recording_takes_about_three_kilobytes_a_second() {
        let bytes = encode(&voice(10.0)).unwrap();
        let per_second = bytes.len() / 10;
        assert!((1_500..=4_000).contains(&per_second), "{per_second} bytes a second");
    }

    #[test]
    fn the_same_samples_encode_to_the_same_bytes() {
        let samples = voice(1.0);
        assert_eq!(encode(&samples).unwrap(), encode(&samples).unwrap());
    }

    #[test]
    fn bytes_that_are_no_ogg_opus_file_are_refused() {
        assert!(matches!(decode(b"RIFF....WAVEfmt "), Err(AudioError::NotOpus(_))));
        assert!(matches!(decode(&[]), Err(AudioError::NotOpus(_))));
    }

    #[test]
    fn the_streaming_encoder_writes_the_bytes_the_whole_buffer_encoder_wrote() {
        // The SHA-256 of this signal's file as the encoder that took the
        // whole recording at once wrote it (7 s and 123 samples).
        let samples: Vec<f32> = (0..16_000 * 7 + 123)
            .map(|i| {
                let t = i as f32 / 16_000.0;
                0.3 * (2.0 * std::f32::consts::PI * (140.0 + 40.0 * t) * t).sin()
                    + 0.05 * ((i * 7919 % 1000) as f32 / 1000.0 - 0.5)
            })
            .collect();
        let mut encoder = Encoder::new().unwrap();
        for piece in samples.chunks(777) {
            encoder.push(piece).unwrap();
        }
        let bytes = encoder.finish().unwrap();
        assert_eq!(bytes.len(), 21_907);
        assert_eq!(
            crate::store::sha256_hex(&bytes),
            "94995995a178b34074f984c7271a11041bc3670bbfb4001a95a4eb3a82f0eddd"
        );
    }

    #[test]
    fn a_span_decoded_from_the_page_before_it_matches_the_whole_decoding_within_a_hundredth() {
        let original = voice(12.0);
        let file = encode(&original).unwrap();
        let whole = decode(&file).unwrap();
        assert_eq!(length(&file).unwrap(), whole.len());
        for span in [0..400, 16_000 * 5 + 17..16_000 * 5 + 3_000, 16_000 * 11..whole.len()] {
            let mut part = Vec::new();
            decode_span(&file, span.clone(), &mut |piece| {
                part.extend_from_slice(piece);
                true
            })
            .unwrap();
            assert_eq!(part.len(), span.len(), "{span:?}");
            // Tolerance: the decoder starts cold 80 ms before the span;
            // by the span its state has converged to within a hundredth of
            // full scale (the codec's own error is larger).
            let worst = part.iter().zip(&whole[span.clone()]).map(|(a, b)| (a - b).abs()).fold(0f32, f32::max);
            assert!(worst < 0.01, "{span:?}: {worst}");
        }
    }

    #[test]
    fn a_sink_that_has_enough_stops_the_decoding() {
        let file = encode(&voice(5.0)).unwrap();
        let mut taken = 0;
        decode_span(&file, 0..80_000, &mut |piece| {
            taken += piece.len();
            taken < 1_000
        })
        .unwrap();
        assert!((1_000..2_000).contains(&taken), "{taken}");
    }
}

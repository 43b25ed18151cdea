//! Recordings are WAV files: checked by their header, never by their name.

use std::io::Cursor;

/// What the header of a WAV file says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WavHeader {
    pub sample_rate: u32,
    pub channels: u16,
    pub bits_per_sample: u16,
    /// Where the samples start.
    pub data_offset: u64,
    /// Bytes of samples the header announces.
    pub data_len: u64,
}

impl WavHeader {
    /// Reads the header from the first bytes of a file; `None` when they
    /// are not a PCM or float WAV header (or too few to tell).
    pub fn parse(head: &[u8]) -> Option<Self> {
        let mut cursor = Cursor::new(head);
        let reader = hound::WavReader::new(&mut cursor).ok()?;
        let spec = reader.spec();
        let samples = u64::from(reader.len());
        if spec.sample_rate == 0 || spec.channels == 0 {
            return None;
        }
        let bytes_per_sample = u64::from(spec.bits_per_sample.div_ceil(8));
        Some(Self {
            sample_rate: spec.sample_rate,
            channels: spec.channels,
            bits_per_sample: spec.bits_per_sample,
            data_offset: cursor.position(),
            data_len: samples * bytes_per_sample,
        })
    }

    /// Length of the announced samples, in milliseconds.
    pub fn duration_ms(&self) -> u64 {
        let frame = u64::from(self.channels) * u64::from(self.bits_per_sample.div_ceil(8));
        let frames = self.data_len / frame.max(1);
        frames * 1000 / u64::from(self.sample_rate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wav(rate: u32, channels: u16, seconds: f32) -> Vec<u8> {
        let spec = hound::WavSpec { channels, sample_rate: rate, bits_per_sample: 16, sample_format: hound::SampleFormat::Int };
        let mut out = Cursor::new(Vec::new());
        let mut writer = hound::WavWriter::new(&mut out, spec).unwrap();
        for i in 0..(rate as f32 * seconds) as u32 * u32::from(channels) {
            writer.write_sample((i % 100) as i16).unwrap();
        }
        writer.finalize().unwrap();
        out.into_inner()
    }

    #[test]
    fn a_recorder_wav_reads_with_its_duration() {
        let file = wav(16_000, 1, 2.5);
        let header = WavHeader::parse(&file[..64]).unwrap();
        assert_eq!((header.sample_rate, header.channels, header.bits_per_sample), (16_000, 1, 16));
        assert_eq!(header.data_offset, 44);
        assert_eq!(header.data_offset + header.data_len, file.len() as u64);
        assert_eq!(header.duration_ms(), 2500);
    }

    #[test]
    fn other_rates_and_channel_counts_are_read_too() {
        let header = WavHeader::parse(&wav(44_100, 2, 1.0)).unwrap();
        assert_eq!(header.duration_ms(), 1000);
        assert_eq!(header.channels, 2);
    }

    #[test]
    fn anything_else_is_not_a_wav() {
        assert!(WavHeader::parse(b"<html><body>not audio</body></html>").is_none());
        assert!(WavHeader::parse(b"RIFF\x00\x00\x00\x00WEBPVP8 ").is_none());
        assert!(WavHeader::parse(&[0x1A, 0x45, 0xDF, 0xA3, 0, 0, 0, 0]).is_none(), "WebM");
        assert!(WavHeader::parse(b"").is_none());
    }
}

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
    /// Frames (a sample for each channel) the header announces.
    pub frames: u64,
}

impl WavHeader {
    /// Reads the header from the first bytes of a file; `None` when they
    /// are not a PCM or float WAV header (or too few to tell).
    pub fn parse(head: &[u8]) -> Option<Self> {
        let mut cursor = Cursor::new(head);
        let reader = hound::WavReader::new(&mut cursor).ok()?;
        let spec = reader.spec();
        let frames = u64::from(reader.duration());
        if spec.sample_rate == 0 || spec.channels == 0 {
            return None;
        }
        // The reader stops right after the data chunk's header, which ends
        // with the chunk's length. The samples' bits do not give it: 24-bit
        // samples may come in 4-byte containers.
        let data_offset = cursor.position();
        let end = usize::try_from(data_offset).ok()?;
        let data_len = head.get(end.checked_sub(4)?..end)?.try_into().ok().map(u32::from_le_bytes)?;
        Some(Self {
            sample_rate: spec.sample_rate,
            channels: spec.channels,
            bits_per_sample: spec.bits_per_sample,
            data_offset,
            data_len: u64::from(data_len),
            frames,
        })
    }

    /// Length of the announced samples, in milliseconds.
    pub fn duration_ms(&self) -> u64 {
        self.frames * 1000 / u64::from(self.sample_rate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wav(rate: u32, channels: u16, seconds: f32) -> Vec<u8> {
        let spec = hound::WavSpec {
            channels,
            sample_rate: rate,
            bits_per_sample: 16,
            sample_format: hound::SampleFormat::Int,
        };
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

#[cfg(test)]
pub(crate) mod properties {
    use proptest::prelude::*;

    use super::*;

    /// A WAV as hound writes it, with what it was written with.
    pub(crate) struct HoundWav {
        pub bytes: Vec<u8>,
        pub rate: u32,
        /// Where the samples start.
        pub data_offset: usize,
        /// Bytes per frame (all channels).
        pub block_align: usize,
        pub frames: usize,
    }

    impl std::fmt::Debug for HoundWav {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            let header = &self.bytes[..self.data_offset];
            write!(
                f,
                "HoundWav {{ rate: {}, block_align: {}, frames: {}, header: {header:?} }}",
                self.rate, self.block_align, self.frames
            )
        }
    }

    /// WAVs hound writes at a rate from `rate`, with 1 to `channels`
    /// channels and fewer than `frames` frames, in each sample encoding
    /// hound reads (24-bit samples alone or in 4-byte containers).
    pub(crate) fn hound_wav(
        rate: impl Strategy<Value = u32>,
        channels: u16,
        frames: usize,
    ) -> impl Strategy<Value = HoundWav> {
        let encoding = prop_oneof![
            Just((8u16, 1u16, hound::SampleFormat::Int)),
            Just((16, 2, hound::SampleFormat::Int)),
            Just((24, 3, hound::SampleFormat::Int)),
            Just((24, 4, hound::SampleFormat::Int)),
            Just((32, 4, hound::SampleFormat::Int)),
            Just((32, 4, hound::SampleFormat::Float)),
        ];
        (rate, 1..=channels, encoding, 0..frames).prop_map(|(rate, channels, (bits, bytes, format), frames)| {
            let spec = hound::WavSpec { channels, sample_rate: rate, bits_per_sample: bits, sample_format: format };
            let mut out = Cursor::new(Vec::new());
            let mut writer =
                hound::WavWriter::new_with_spec_ex(&mut out, hound::WavSpecEx { spec, bytes_per_sample: bytes })
                    .unwrap();
            for i in 0..frames * usize::from(channels) {
                match format {
                    hound::SampleFormat::Float => writer.write_sample(((i % 200) as f32 - 100.0) / 100.0).unwrap(),
                    hound::SampleFormat::Int => writer.write_sample((i % 100) as i32 - 50).unwrap(),
                }
            }
            writer.finalize().unwrap();
            let block_align = usize::from(channels) * usize::from(bytes);
            let bytes = out.into_inner();
            HoundWav { data_offset: bytes.len() - frames * block_align, bytes, rate, block_align, frames }
        })
    }

    /// Up to `len` random bytes, alone or after a RIFF/WAVE/fmt opening, so
    /// that the chunks are what varies.
    pub(crate) fn wav_like_bytes(len: usize) -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..len),
            proptest::collection::vec(any::<u8>(), 0..len).prop_map(|rest| [
                b"RIFF\xff\xff\xff\xffWAVEfmt ".as_slice(),
                &rest
            ]
            .concat()),
        ]
    }

    /// Any rate, 1–8 channels.
    fn wav_file() -> impl Strategy<Value = Vec<u8>> {
        hound_wav(1u32..=384_000, 8, 200).prop_map(|wav| wav.bytes)
    }

    /// What every header the parser returns must satisfy, whatever the
    /// bytes it came from.
    fn assert_sane(header: &WavHeader, bytes: &[u8]) -> Result<(), TestCaseError> {
        prop_assert!(header.sample_rate > 0 && header.channels > 0 && header.bits_per_sample > 0, "{:?}", header);
        prop_assert!(
            header.data_offset <= bytes.len() as u64,
            "the samples cannot start after the bytes given: {:?}",
            header
        );
        // The duration is that of the announced bytes, never longer.
        let longest = header.data_len * 1000 / u64::from(header.sample_rate);
        prop_assert!(header.duration_ms() <= longest, "{:?}", header);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn any_bytes_are_read_or_refused_without_a_panic(bytes in wav_like_bytes(256)) {
            if let Some(header) = WavHeader::parse(&bytes) {
                assert_sane(&header, &bytes)?;
            }
        }

        #[test]
        fn a_whole_wav_reports_its_own_data_length_and_duration(file in wav_file()) {
            let header = WavHeader::parse(&file).expect("a WAV hound wrote is read");
            prop_assert_eq!(header.data_offset + header.data_len, file.len() as u64, "{:?}", header);
            let frame = u64::from(u16::from_le_bytes([file[32], file[33]]));
            prop_assert_eq!(header.duration_ms(), header.data_len / frame * 1000 / u64::from(header.sample_rate));
        }

        #[test]
        fn a_wav_cut_anywhere_is_refused_or_read_as_the_whole_file_announces(file in wav_file(), cut in any::<prop::sample::Index>()) {
            let whole = WavHeader::parse(&file).unwrap();
            let head = &file[..cut.index(file.len() + 1)];
            if let Some(header) = WavHeader::parse(head) {
                // Only the header is read: what it announces does not depend
                // on how much of the samples came with it.
                prop_assert_eq!(header, whole);
            }
        }

        #[test]
        fn a_wav_with_any_byte_changed_is_refused_or_read_sanely(file in wav_file(), at in any::<prop::sample::Index>(), value in any::<u8>()) {
            let mut file = file;
            let at = at.index(file.len());
            file[at] = value;
            if let Some(header) = WavHeader::parse(&file) {
                assert_sane(&header, &file)?;
            }
        }
    }
}

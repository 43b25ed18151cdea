//! A client's recording as the store keeps it: where its audio is, how it
//! is kept, and when the meeting was.

use serde::{Deserialize, Serialize};

use super::ids::BlobId;

/// What the server keeps of an uploaded recording.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Recording {
    pub blob: BlobId,
    pub size: u64,
    pub sha256: String,
    pub duration_ms: u64,
    /// When it was recorded, where the browser said.
    #[serde(default)]
    pub recorded: Option<RecordedAt>,
    /// How the bytes are kept now: the WAV uploaded, then Ogg Opus once
    /// transcribed.
    #[serde(default = "wav")]
    pub content_type: String,
    /// Bytes as kept now; `size` stays the upload's.
    #[serde(default)]
    pub stored_size: Option<u64>,
    /// When it was uploaded (Unix milliseconds); unknown for older records.
    #[serde(default)]
    pub uploaded_at: Option<i64>,
    /// When the retention policy removed the audio; the transcript, summary
    /// and next steps stay.
    #[serde(default)]
    pub removed_at: Option<i64>,
    /// The upload, kept a while after the recording was compressed, for
    /// pages still playing it by its old address.
    #[serde(default)]
    pub superseded: Option<Superseded>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Superseded {
    pub blob: BlobId,
    /// Unix milliseconds.
    pub since: i64,
}

fn wav() -> String {
    WAV.to_owned()
}

/// How a recording is uploaded.
pub const WAV: &str = "audio/wav";

impl Recording {
    /// A WAV file just uploaded as blob `blob`.
    pub fn uploaded(blob: BlobId, size: u64, sha256: String, duration_ms: u64, now: i64) -> Self {
        Self {
            blob,
            size,
            sha256,
            duration_ms,
            recorded: None,
            content_type: wav(),
            stored_size: None,
            uploaded_at: Some(now),
            removed_at: None,
            superseded: None,
        }
    }

    /// Every blob of the recording: what to delete with it.
    pub fn blobs(&self) -> impl Iterator<Item = BlobId> + '_ {
        std::iter::once(self.blob).chain(self.superseded.map(|s| s.blob))
    }

    /// The audio at the address a page was given (`v`, the blob id it
    /// names): the current one, or the upload it replaced while that is kept.
    pub fn audio_named(&self, v: Option<&str>) -> Option<BlobId> {
        let current = self.audio()?;
        match v {
            None => Some(current),
            Some(v) => {
                std::iter::once(current).chain(self.superseded.map(|s| s.blob)).find(|blob| blob.to_string() == v)
            }
        }
    }

    /// The blob holding the audio, unless the retention policy removed it.
    pub fn audio(&self) -> Option<BlobId> {
        self.removed_at.is_none().then_some(self.blob)
    }
}

/// A moment on the browser's clock and the offset of its time zone then:
/// the meeting's own date, against which "by Friday" resolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedAt {
    unix_ms: i64,
    offset_minutes: i16,
}

/// Widest offset of any time zone, in minutes (UTC+14).
const OFFSET_MAX: i16 = 14 * 60;

impl RecordedAt {
    /// Reads the `X-Recorded-At` (Unix milliseconds) and
    /// `X-Time-Zone-Offset` (minutes east of UTC) headers of an upload; a
    /// time later than `now` is taken as `now` (a phone's clock runs fast).
    pub fn parse(unix_ms: &str, offset_minutes: &str, now: i64) -> Result<Self, &'static str> {
        let unix_ms: i64 = unix_ms.trim().parse().map_err(|_| "X-Recorded-At must be a time in Unix milliseconds")?;
        let offset_minutes: i16 = offset_minutes
            .trim()
            .parse()
            .ok()
            // Not `abs()`: that of i16::MIN overflows (and wraps in release).
            .filter(|m: &i16| (-OFFSET_MAX..=OFFSET_MAX).contains(m))
            .ok_or("X-Time-Zone-Offset must be minutes east of UTC, from -840 to 840")?;
        if unix_ms < 0 {
            return Err("X-Recorded-At must be a time in Unix milliseconds");
        }
        Ok(Self { unix_ms: unix_ms.min(now), offset_minutes })
    }

    pub fn unix_ms(self) -> i64 {
        self.unix_ms
    }

    /// The day it was, where it was recorded.
    pub fn local_date(self) -> time::Date {
        self.date_of(self.unix_ms)
    }

    /// The day `unix_ms` falls on in the time zone it was recorded in.
    pub fn date_of(self, unix_ms: i64) -> time::Date {
        let offset =
            time::UtcOffset::from_whole_seconds(i32::from(self.offset_minutes) * 60).unwrap_or(time::UtcOffset::UTC);
        let at = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(unix_ms) * 1_000_000)
            .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
        at.to_offset(offset).date()
    }
}

#[cfg(test)]
mod tests {
    use super::RecordedAt;

    #[test]
    fn a_time_zone_offset_is_taken_within_fourteen_hours_either_way_and_nothing_else() {
        let parse = |offset: &str| RecordedAt::parse("1772494200000", offset, i64::MAX);
        for kept in ["0", "120", "-300", "840", "-840", " 330 "] {
            assert!(parse(kept).is_ok(), "{kept}");
        }
        // i16::MIN once passed: its absolute value wraps to itself in release.
        for refused in ["-32768", "32767", "841", "-841", "99999", "1.5", "east", ""] {
            assert!(parse(refused).is_err(), "{refused}");
        }
    }
}

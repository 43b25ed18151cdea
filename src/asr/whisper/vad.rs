//! The voice-activity gate in front of the model. Whisper fed silence or a
//! steady hiss tends to invent text ("Thank you."), so a window is decoded
//! only when enough of it rises clearly above both an absolute floor and the
//! recording's own background level. Speech has pauses between words and
//! phrases, so the quietest tenth of a recording is its background.

use std::ops::Range;

/// 20 ms at 16 kHz.
const FRAME: usize = 320;
/// About −54 dBFS: quieter than any speech a microphone picks up on purpose.
const FLOOR_RMS: f32 = 0.002;
/// Voiced frames stand at least 6 dB above the background.
const ABOVE_BACKGROUND: f32 = 2.0;
/// 0.2 s of voiced frames: a short "yes" passes, a click does not.
const MIN_VOICED_FRAMES: usize = 10;

#[derive(Debug)]
pub struct Gate {
    rms: Vec<f32>,
    threshold: f32,
}

impl Gate {
    pub fn new(samples: &[f32]) -> Self {
        let rms: Vec<f32> = samples
            .chunks(FRAME)
            .map(|c| {
                let energy: f32 = c.iter().filter(|v| v.is_finite()).map(|v| v * v).sum();
                (energy / c.len() as f32).sqrt()
            })
            .collect();
        let mut sorted = rms.clone();
        sorted.sort_unstable_by(f32::total_cmp);
        let background = sorted.get(sorted.len() / 10).copied().unwrap_or(0.0);
        Self { rms, threshold: FLOOR_RMS.max(background * ABOVE_BACKGROUND) }
    }

    /// Whether `samples` (a range of the recording) hold enough voice to decode.
    pub fn has_speech(&self, samples: Range<usize>) -> bool {
        let frames = samples.start / FRAME..samples.end.div_ceil(FRAME).min(self.rms.len());
        self.rms.get(frames).is_some_and(|f| f.iter().filter(|&&r| r > self.threshold).count() >= MIN_VOICED_FRAMES)
    }
}

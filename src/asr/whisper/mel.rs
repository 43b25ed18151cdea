//! Whisper's input: the log-mel spectrogram of a 30-second window, computed
//! as Whisper's own transcription computes it (a periodic Hann window of 400
//! samples every 160, centred frames with the start reflected, the Slaney
//! mel filterbank, log10 clamped to 8 below the window's peak, scaled to
//! about [−1, 1]). Frames past the end of the recording are zeros after
//! scaling, as Whisper and faster-whisper pad the last window: with silence
//! there instead, tiny.en misheard one of the five test clips.

use super::fft::PowerSpectrum;

pub const N_FFT: usize = 400;
pub const HOP: usize = 160;
const SAMPLE_RATE: f64 = 16_000.0;

/// One triangular mel filter over the FFT bins it touches.
#[derive(Debug, Clone)]
struct Filter {
    first_bin: usize,
    weights: Vec<f32>,
}

#[derive(Debug, Clone)]
pub struct LogMel {
    spectrum: PowerSpectrum,
    window: Vec<f32>,
    filters: Vec<Filter>,
}

impl LogMel {
    pub fn new(n_mels: usize) -> Self {
        let window = (0..N_FFT)
            .map(|i| (0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / N_FFT as f64).cos()) as f32)
            .collect();
        Self { spectrum: PowerSpectrum::new(N_FFT), window, filters: filterbank(n_mels) }
    }

    pub fn bins(&self) -> usize {
        self.filters.len()
    }

    /// `frames` frames from frame `first` on, mel-major (`[n_mels][frames]`),
    /// the layout the encoder's first convolution reads.
    pub fn window(&mut self, samples: &[f32], first: usize, frames: usize) -> Vec<f32> {
        let n_mels = self.filters.len();
        let mut mel = vec![0f32; n_mels * frames];
        let mut frame = vec![0f32; N_FFT];
        let mut power = vec![0f32; self.spectrum.bins()];
        let content = (samples.len() / HOP).saturating_sub(first).min(frames);
        for f in 0..content {
            let centre = (first + f) * HOP;
            for (i, (out, w)) in frame.iter_mut().zip(&self.window).enumerate() {
                *out = sample(samples, centre as isize + i as isize - (N_FFT / 2) as isize) * w;
            }
            self.spectrum.compute(&frame, &mut power);
            for (m, filter) in self.filters.iter().enumerate() {
                let bins = &power[filter.first_bin..filter.first_bin + filter.weights.len()];
                mel[m * frames + f] = bins.iter().zip(&filter.weights).map(|(p, w)| p * w).sum();
            }
        }
        let mut peak = f32::NEG_INFINITY;
        for row in mel.chunks_mut(frames) {
            for v in &mut row[..content] {
                *v = v.max(1e-10).log10();
                peak = peak.max(*v);
            }
        }
        for row in mel.chunks_mut(frames) {
            for v in &mut row[..content] {
                *v = (v.max(peak - 8.0) + 4.0) / 4.0;
            }
            row[content..].fill(0.0);
        }
        mel
    }
}

/// Reflected before the start (as `torch.stft(center=True)` pads), silence
/// after the end, and a non-finite sample counts as silence rather than
/// poisoning the whole window.
fn sample(samples: &[f32], i: isize) -> f32 {
    let v = if i >= 0 { samples.get(i as usize) } else { samples.get(i.unsigned_abs()) };
    v.copied().filter(|v| v.is_finite()).unwrap_or(0.0)
}

/// Slaney's mel scale: linear below 1 kHz, logarithmic above.
fn hz_to_mel(hz: f64) -> f64 {
    const STEP: f64 = 200.0 / 3.0;
    if hz < 1000.0 { hz / STEP } else { 15.0 + (hz / 1000.0).ln() / (6.4f64.ln() / 27.0) }
}

fn mel_to_hz(mel: f64) -> f64 {
    const STEP: f64 = 200.0 / 3.0;
    if mel < 15.0 { mel * STEP } else { 1000.0 * ((mel - 15.0) * (6.4f64.ln() / 27.0)).exp() }
}

/// librosa's `filters.mel(sr=16000, n_fft=400, n_mels)` with Slaney area
/// normalisation, the bank Whisper ships as a file.
fn filterbank(n_mels: usize) -> Vec<Filter> {
    let bins = N_FFT / 2 + 1;
    let top = hz_to_mel(SAMPLE_RATE / 2.0);
    let edges: Vec<f64> = (0..n_mels + 2).map(|i| mel_to_hz(top * i as f64 / (n_mels + 1) as f64)).collect();
    (0..n_mels)
        .map(|m| {
            let (lo, mid, hi) = (edges[m], edges[m + 1], edges[m + 2]);
            let norm = 2.0 / (hi - lo);
            let weights: Vec<(usize, f32)> = (0..bins)
                .filter_map(|k| {
                    let hz = k as f64 * SAMPLE_RATE / N_FFT as f64;
                    let w = ((hz - lo) / (mid - lo)).min((hi - hz) / (hi - mid)).max(0.0) * norm;
                    (w > 0.0).then_some((k, w as f32))
                })
                .collect();
            let first_bin = weights.first().map_or(0, |&(k, _)| k);
            // The bins a filter touches are contiguous, zero gaps included.
            let last_bin = weights.last().map_or(0, |&(k, _)| k);
            let mut dense = vec![0f32; last_bin + 1 - first_bin];
            for (k, w) in weights {
                dense[k - first_bin] = w;
            }
            Filter { first_bin, weights: dense }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filterbank_matches_whispers_at_known_points() {
        let bank = filterbank(80);
        // As faster-whisper computes them (the values of Whisper's mel_filters.npz).
        assert_eq!((bank[0].first_bin, bank[0].weights.len()), (1, 1));
        assert!((bank[0].weights[0] - 0.024_862_59).abs() < 1e-7, "{}", bank[0].weights[0]);
        assert_eq!(bank[40].first_bin, 42);
        for (got, want) in bank[40].weights.iter().zip([0.005_411_11, 0.014_735_57, 0.006_518_19]) {
            assert!((got - want).abs() < 1e-7, "{got} vs {want}");
        }
        assert_eq!(bank[79].first_bin + bank[79].weights.len(), 200);
    }

    #[test]
    fn silence_is_flat_padding_is_zero_and_a_tone_peaks_in_its_mel_band() {
        let mut mel = LogMel::new(80);
        let silent = mel.window(&[0.0; 16_000], 0, 150);
        assert!(silent.iter().enumerate().all(|(i, &v)| v == if i % 150 < 100 { -1.5 } else { 0.0 }));
        let tone: Vec<f32> =
            (0..16_000).map(|i| (2.0 * std::f32::consts::PI * 1000.0 * i as f32 / 16_000.0).sin()).collect();
        let spec = mel.window(&tone, 0, 100);
        let band = |m: usize| spec[m * 100 + 50];
        let loudest = (0..80).max_by(|&a, &b| band(a).total_cmp(&band(b))).unwrap_or(0);
        let centre = (hz_to_mel(1000.0) / hz_to_mel(8000.0) * 81.0).round() as usize - 1;
        assert!(loudest.abs_diff(centre) <= 1, "1 kHz peaks in mel {loudest}, expected about {centre}");
    }
}

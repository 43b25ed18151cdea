//! Band-limited sample-rate conversion, streamed: a Kaiser-windowed sinc
//! low-pass evaluated as a bank of polyphase filters, one per position
//! between input samples that an output sample can fall on.

/// Stopband attenuation: aliases end up 70 dB down, under the noise floor
/// of the microphones meetings are recorded with.
const ATTENUATION_DB: f64 = 70.0;
/// The share of the lower Nyquist frequency given to the transition band:
/// at 16 kHz, 7–8 kHz; everything above 8 kHz (which would fold back) is
/// in the stopband and everything below 7 kHz passes flat.
const TRANSITION: f64 = 0.125;
/// Odd rates (44.1 kHz has 160 positions, a rate prime to 16,000 has
/// 16,000) share the nearest of this many filters: the timing error is at
/// most 1/2048 of an input sample.
const MAX_PHASES: u64 = 1024;

pub(super) struct Resampler {
    /// Input rate over output rate, reduced: output `k` sits at input
    /// position `k * step / per`.
    step: u64,
    per: u64,
    phases: u64,
    taps: usize,
    /// `phases` rows of `taps` coefficients.
    filters: Vec<f32>,
    /// The input still needed, preceded at the start by `taps / 2 - 1`
    /// zeros so the first outputs see silence before the recording.
    /// `window[0]` is sample `start` of that padded stream.
    window: Vec<f32>,
    start: u64,
    received: u64,
    next_output: u64,
}

impl Resampler {
    pub(super) fn new(from: u32, to: u32) -> Self {
        let gcd = gcd(u64::from(from), u64::from(to));
        let (step, per) = (u64::from(from) / gcd, u64::from(to) / gcd);
        if step == per {
            // The same rate: one phase of one tap of 1.0 copies samples exactly.
            return Self::with_filters(step, per, 1, 1, vec![1.0]);
        }
        // Frequencies in cycles per input sample.
        let nyquist = 0.5 * (per as f64 / step as f64).min(1.0);
        let transition = TRANSITION * nyquist;
        let cutoff = nyquist - transition / 2.0;
        // Kaiser's estimates of the length and shape that reach the
        // attenuation across that transition band.
        let half = ((ATTENUATION_DB - 7.95) / (2.285 * 2.0 * std::f64::consts::PI * transition) / 2.0).ceil() as usize;
        let beta = 0.1102 * (ATTENUATION_DB - 8.7);
        let phases = per.min(MAX_PHASES);
        let mut filters = Vec::with_capacity(phases as usize * 2 * half);
        for phase in 0..phases {
            let offset = phase as f64 / phases as f64;
            let row: Vec<f64> = (0..2 * half)
                .map(|j| {
                    // Distance from the output's position to input tap `j`.
                    let t = offset + half as f64 - 1.0 - j as f64;
                    2.0 * cutoff * sinc(2.0 * cutoff * t) * kaiser(t / half as f64, beta)
                })
                .collect();
            // Each row sums to exactly 1, so no phase changes the level.
            let sum: f64 = row.iter().sum();
            filters.extend(row.iter().map(|c| (c / sum) as f32));
        }
        Self::with_filters(step, per, phases, 2 * half, filters)
    }

    fn with_filters(step: u64, per: u64, phases: u64, taps: usize, filters: Vec<f32>) -> Self {
        let lead = (taps / 2).saturating_sub(1);
        Self { step, per, phases, taps, filters, window: vec![0.0; lead], start: 0, received: 0, next_output: 0 }
    }

    /// Takes the next input samples and appends every output they complete.
    pub(super) fn push(&mut self, input: &[f32], out: &mut Vec<f32>) {
        self.window.extend_from_slice(input);
        self.received += input.len() as u64;
        self.emit(out, u64::MAX);
    }

    /// The outputs that wait for input after the end, which is silence: in
    /// all, `ceil(inputs * to / from)` samples, the same duration.
    pub(super) fn finish(mut self, out: &mut Vec<f32>) {
        let total = (self.received * self.per).div_ceil(self.step);
        self.window.resize(self.window.len() + self.taps, 0.0);
        self.emit(out, total);
    }

    fn emit(&mut self, out: &mut Vec<f32>, until: u64) {
        let end = self.start + self.window.len() as u64;
        while self.next_output < until {
            let (first, phase) = self.position(self.next_output);
            if first + self.taps as u64 > end {
                break;
            }
            let from = (first - self.start) as usize;
            let row = phase as usize * self.taps;
            out.push(dot(&self.window[from..from + self.taps], &self.filters[row..row + self.taps]));
            self.next_output += 1;
        }
        // Input before the next output's first tap is never needed again.
        let (first, _) = self.position(self.next_output);
        let done = (first.min(end) - self.start) as usize;
        self.window.drain(..done);
        self.start += done as u64;
    }

    /// The first padded input sample output `k` reads, and its filter.
    fn position(&self, k: u64) -> (u64, u64) {
        let at = k * self.step;
        let (first, between) = (at / self.per, at % self.per);
        let phase = (between * self.phases + self.per / 2) / self.per;
        if phase == self.phases { (first + 1, 0) } else { (first, phase) }
    }
}

/// A dot product in eight independent lanes, which the compiler can keep
/// in vector registers (one running sum could not be reordered).
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let (a8, b8) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = a8.remainder().iter().zip(b8.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in a8.zip(b8) {
        for ((lane, x), y) in lanes.iter_mut().zip(x).zip(y) {
            *lane += x * y;
        }
    }
    lanes.iter().sum::<f32>() + tail
}

fn sinc(x: f64) -> f64 {
    if x == 0.0 { 1.0 } else { (std::f64::consts::PI * x).sin() / (std::f64::consts::PI * x) }
}

/// The Kaiser window at `x` in [-1, 1].
fn kaiser(x: f64, beta: f64) -> f64 {
    bessel_i0(beta * (1.0 - x * x).max(0.0).sqrt()) / bessel_i0(beta)
}

/// The modified Bessel function I0, by its power series.
fn bessel_i0(x: f64) -> f64 {
    let quarter_square = x * x / 4.0;
    let (mut sum, mut term) = (1.0, 1.0);
    for k in 1..100 {
        term *= quarter_square / (k * k) as f64;
        sum += term;
        if term < sum * 1e-15 {
            break;
        }
    }
    sum
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

//! Softmax and exact GELU, in place, and the log-sum-exp decoding needs
//! over every logit of every step. candle's CPU versions call libm's
//! `expf`/`erff` one element at a time: on a 30-second window, 4 layers of
//! 6×1500×1500 attention scores took 0.45 s to softmax and the GELUs 0.16 s,
//! a third of the encoder's 1.7 s (one core). These are straight-line f32
//! loops the compiler vectorises, with an exponential within 3e-7
//! (relative); with them, and attention taken a head at a time, the encoder
//! takes 0.9–1.0 s.

use candle_core::{CpuStorage, InplaceOp1, Layout, Result, Tensor, bail};

/// Softmax over the last dimension, in place.
pub fn softmax(x: &Tensor) -> Result<()> {
    x.inplace_op1(&Softmax)
}

/// `x·Φ(x)`, the GELU with the normal distribution's CDF (Whisper's), in place.
pub fn gelu(x: &Tensor) -> Result<()> {
    x.inplace_op1(&Gelu)
}

struct Softmax;
struct Gelu;

fn contiguous_f32<'a>(storage: &'a mut CpuStorage, layout: &Layout, op: &str) -> Result<&'a mut [f32]> {
    let (CpuStorage::F32(data), Some((start, end))) = (storage, layout.contiguous_offsets()) else {
        bail!("{op} takes a contiguous f32 tensor");
    };
    Ok(&mut data[start..end])
}

impl InplaceOp1 for Softmax {
    fn name(&self) -> &'static str {
        "whisper-softmax"
    }

    fn cpu_fwd(&self, storage: &mut CpuStorage, layout: &Layout) -> Result<()> {
        let row = layout.dims().last().copied().unwrap_or(1).max(1);
        for r in contiguous_f32(storage, layout, self.name())?.chunks_exact_mut(row) {
            let max = reduce(r, f32::NEG_INFINITY, f32::max);
            r.iter_mut().for_each(|v| *v = exp_nonpositive(*v - max));
            let scale = 1.0 / reduce(r, 0.0, |a, b| a + b);
            r.iter_mut().for_each(|v| *v *= scale);
        }
        Ok(())
    }
}

/// ln Σ e^v, the normaliser of a softmax over `values` (−∞ when all are).
pub fn log_sum_exp(values: &[f32]) -> f32 {
    let max = reduce(values, f32::NEG_INFINITY, f32::max);
    if max == f32::NEG_INFINITY {
        return max;
    }
    let mut sum = [0f32; 8];
    for chunk in values.chunks(8) {
        for (s, &v) in sum.iter_mut().zip(chunk) {
            *s += exp_nonpositive(v - max);
        }
    }
    max + sum.iter().sum::<f32>().ln()
}

/// A reduction in eight independent lanes: one running value would chain
/// every step on the last and keep the loop scalar.
#[inline(always)]
fn reduce(values: &[f32], init: f32, op: impl Fn(f32, f32) -> f32) -> f32 {
    let mut lanes = [init; 8];
    let chunks = values.chunks_exact(8);
    let rest = chunks.remainder().iter().fold(init, |a, &b| op(a, b));
    for chunk in chunks {
        for (lane, &v) in lanes.iter_mut().zip(chunk) {
            *lane = op(*lane, v);
        }
    }
    lanes.into_iter().fold(rest, &op)
}

impl InplaceOp1 for Gelu {
    fn name(&self) -> &'static str {
        "whisper-gelu"
    }

    fn cpu_fwd(&self, storage: &mut CpuStorage, layout: &Layout) -> Result<()> {
        for v in contiguous_f32(storage, layout, self.name())?.iter_mut() {
            *v = 0.5 * *v * (1.0 + erf(*v * std::f32::consts::FRAC_1_SQRT_2));
        }
        Ok(())
    }
}

/// e^x for x ≤ 0: x = n·ln 2 + r with n whole and |r| ≤ ½ln 2 (ln 2 split
/// in two parts so n·ln 2 is exact, Cody and Waite's reduction), then 2^n
/// from the exponent bits times a degree-7 series for e^r, whose truncation
/// error is below 1e-8 on that range.
#[inline(always)]
fn exp_nonpositive(x: f32) -> f32 {
    // Below −87 the result leaves f32's normal range; clamping keeps 2^n valid.
    let x = x.clamp(-87.0, 0.0);
    // Adding and removing 1.5·2²³ rounds to the nearest whole number
    // without a call to `round`, which would stop vectorisation.
    const ROUND: f32 = 12_582_912.0;
    const LN2_HIGH: f32 = 0.693_359_4;
    const LN2_LOW: f32 = -2.121_944_4e-4;
    let n = (x * std::f32::consts::LOG2_E + ROUND) - ROUND;
    let r = (x - n * LN2_HIGH) - n * LN2_LOW;
    let series = 1.0
        + r * (1.0
            + r * (1.0 / 2.0
                + r * (1.0 / 6.0 + r * (1.0 / 24.0 + r * (1.0 / 120.0 + r * (1.0 / 720.0 + r * (1.0 / 5040.0)))))));
    f32::from_bits((((n as i32) + 127) as u32) << 23) * series
}

/// Abramowitz and Stegun 7.1.26, within 1.5e-7 of erf.
#[inline(always)]
fn erf(x: f32) -> f32 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let poly = t * (0.254_829_6 + t * (-0.284_496_72 + t * (1.421_413_8 + t * (-1.453_152_1 + t * 1.061_405_4))));
    (1.0 - poly * exp_nonpositive(-z * z)).copysign(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fast_exponential_erf_and_log_sum_exp_match_the_standard_library() {
        let mut worst = 0f64;
        for i in 0..=17_400 {
            let x = -(i as f32) * 0.005;
            let want = (x as f64).exp();
            worst = worst.max((exp_nonpositive(x) as f64 - want).abs() / want);
        }
        assert!(worst < 3e-7, "relative error {worst}");
        assert!(exp_nonpositive(-1000.0) < 1e-37 && exp_nonpositive(0.0) == 1.0);
        let values: Vec<f32> = (0..21).map(|i| i as f32 * 0.3 - 2.0).collect();
        let want = values.iter().map(|v| (*v as f64).exp()).sum::<f64>().ln();
        assert!((log_sum_exp(&values) as f64 - want).abs() < 1e-6);
        assert_eq!(log_sum_exp(&[f32::NEG_INFINITY; 3]), f32::NEG_INFINITY);
        // erf(0.5), erf(1), erf(2) and erf(−1).
        for (x, want) in [(0.5, 0.520_499_9), (1.0, 0.842_700_8), (2.0, 0.995_322_3), (-1.0, -0.842_700_8)] {
            assert!((erf(x) - want).abs() < 3e-7, "erf({x}) = {}", erf(x));
        }
    }

    #[test]
    fn softmax_and_gelu_in_place_match_candles() -> Result<()> {
        let device = candle_core::Device::Cpu;
        let x = Tensor::arange(0u32, 24, &device)?
            .to_dtype(candle_core::DType::F32)?
            .affine(0.37, -4.0)?
            .reshape((2, 3, 4))?;
        let expected = [candle_nn::ops::softmax_last_dim(&x)?, x.gelu_erf()?];
        for (op, expected) in [softmax as fn(&Tensor) -> Result<()>, gelu].into_iter().zip(expected) {
            let y = x.copy()?;
            op(&y)?;
            let diff = (y - expected)?.abs()?.flatten_all()?.max(0)?.to_scalar::<f32>()?;
            assert!(diff < 1e-6, "{diff}");
        }
        Ok(())
    }
}

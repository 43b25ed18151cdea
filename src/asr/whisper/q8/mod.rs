//! Int8 × int8 products for the decoder's projections, with the widest
//! integer dot-product instructions the processor has, picked at run time.
//!
//! The weights are blocks of [`BLOCK`] signed bytes, each with a scale (see
//! `int8`). The input row is quantised the same way once per product, so a
//! block's dot product is exact in 32-bit integers and only its two scales
//! are floats: one instruction multiplies and adds 4 byte pairs per lane
//! (VNNI's `vpdpbusd`, ARM's `sdot`) where the float path converted every
//! weight to f32 first. A block of the input loses at most half a step of
//! its own scale, as the weights do; faster-whisper's int8 quantises its
//! inputs too, with one scale a row.
//!
//! Every kernel computes the same integer sums; only the order in which the
//! blocks' float products are added differs, so each is tested against the
//! portable one wherever the processor runs it, and at run time a kernel is
//! only picked once it gave the portable result (`doctor` names any passed over).

#[cfg(target_arch = "aarch64")]
mod arm;
#[cfg(target_arch = "x86_64")]
mod x86;

use std::sync::OnceLock;

/// Weights (and inputs) sharing a scale, as in GGML's q8_0.
pub const BLOCK: usize = 32;

/// The instructions a product runs on, widest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// 512-bit `vpdpbusd` (AVX-512 VNNI): two blocks an instruction.
    #[cfg(target_arch = "x86_64")]
    Avx512Vnni,
    /// 256-bit `vpdpbusd` without AVX-512 (AVX-VNNI).
    #[cfg(target_arch = "x86_64")]
    AvxVnni,
    /// `vpmaddubsw` then `vpmaddwd`: a block in two instructions.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// `sdot` (ARMv8.2 dot product: a Raspberry Pi 5's Cortex-A76).
    #[cfg(target_arch = "aarch64")]
    NeonDotprod,
    /// Widening multiplies and pairwise adds (a Raspberry Pi 4's Cortex-A72).
    #[cfg(target_arch = "aarch64")]
    Neon,
    Portable,
}

impl Kernel {
    /// The widest kernel this processor runs that gives the portable
    /// result, found once: a kernel that does not is never used.
    pub fn best() -> Self {
        static BEST: OnceLock<Kernel> = OnceLock::new();
        *BEST.get_or_init(|| Self::available().into_iter().find(|k| k.agrees_with_portable()).unwrap_or(Self::Portable))
    }

    /// The wider kernels the processor runs that [`Self::best`] passed over
    /// because they gave other sums: none, unless one of them is wrong.
    pub fn refused() -> Vec<Self> {
        Self::available().into_iter().take_while(|&k| k != Self::best()).collect()
    }

    /// Every kernel this processor runs, widest first; [`Self::Portable`] last.
    pub fn available() -> Vec<Self> {
        let mut kernels = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if has!("avx512f") && has!("avx512bw") && has!("avx512vnni") {
                kernels.push(Self::Avx512Vnni);
            }
            if has!("avx2") && has!("fma") && has!("avxvnni") {
                kernels.push(Self::AvxVnni);
            }
            if has!("avx2") && has!("fma") {
                kernels.push(Self::Avx2);
            }
        }
        #[cfg(target_arch = "aarch64")]
        {
            if std::arch::is_aarch64_feature_detected!("dotprod") {
                kernels.push(Self::NeonDotprod);
            }
            kernels.push(Self::Neon);
        }
        kernels.push(Self::Portable);
        kernels
    }

    pub fn name(self) -> &'static str {
        match self {
            #[cfg(target_arch = "x86_64")]
            Self::Avx512Vnni => "avx512-vnni",
            #[cfg(target_arch = "x86_64")]
            Self::AvxVnni => "avx-vnni",
            #[cfg(target_arch = "x86_64")]
            Self::Avx2 => "avx2",
            #[cfg(target_arch = "aarch64")]
            Self::NeonDotprod => "neon-dotprod",
            #[cfg(target_arch = "aarch64")]
            Self::Neon => "neon",
            Self::Portable => "portable",
        }
    }

    /// `out[o] = Σ_blocks wscale · xscale · Σ w[o, i] · x[i]` over the rows
    /// of `weights` (each `x.len()` long, in blocks of [`BLOCK`] with one
    /// scale each in `scales`).
    pub fn matvec(self, weights: &[i8], scales: &[f32], x: &Quantised, out: &mut [f32]) {
        let inputs = x.values.len();
        assert!(
            inputs.is_multiple_of(BLOCK)
                && weights.len() == out.len() * inputs
                && scales.len() * BLOCK == weights.len()
        );
        match self {
            // SAFETY (each arm): `available` listed the kernel only where
            // the processor has its instructions, and `best` or a caller
            // with a kernel from `available` is the only way here.
            #[cfg(target_arch = "x86_64")]
            Self::Avx512Vnni => unsafe { x86::matvec_avx512vnni(weights, scales, x, out) },
            #[cfg(target_arch = "x86_64")]
            Self::AvxVnni => unsafe { x86::matvec_avxvnni(weights, scales, x, out) },
            #[cfg(target_arch = "x86_64")]
            Self::Avx2 => unsafe { x86::matvec_avx2(weights, scales, x, out) },
            #[cfg(target_arch = "aarch64")]
            Self::NeonDotprod => unsafe { arm::matvec_dotprod(weights, scales, x, out) },
            #[cfg(target_arch = "aarch64")]
            Self::Neon => unsafe { arm::matvec_neon(weights, scales, x, out) },
            Self::Portable => matvec_portable(weights, scales, x, out),
        }
    }

    /// Whether this kernel gives the portable result on a product of the
    /// decoder's shape.
    pub fn agrees_with_portable(self) -> bool {
        let (weights, scales, x) = sample(96, 384);
        let (mut ours, mut portable) = (vec![0f32; 96], vec![0f32; 96]);
        self.matvec(&weights, &scales, &x, &mut ours);
        Self::Portable.matvec(&weights, &scales, &x, &mut portable);
        ours.iter().zip(&portable).all(|(a, b)| (a - b).abs() <= 1e-4 * b.abs().max(1.0))
    }
}

/// An input row in blocks of [`BLOCK`] signed bytes with a scale each, and
/// on x86 the bytes' magnitudes, which its instructions take unsigned.
#[derive(Debug, Clone)]
pub struct Quantised {
    values: Vec<i8>,
    #[cfg(target_arch = "x86_64")]
    magnitudes: Vec<u8>,
    scales: Vec<f32>,
}

impl Quantised {
    /// `x.len()` must be a multiple of [`BLOCK`]. A block's largest
    /// magnitude maps to 127, never to −128, so a magnitude fits a signed
    /// byte too and a pair of products never saturates a 16-bit sum.
    pub fn new(x: &[f32]) -> Self {
        let mut values = Vec::with_capacity(x.len());
        let mut scales = Vec::with_capacity(x.len() / BLOCK);
        for block in x.chunks_exact(BLOCK) {
            let largest = block.iter().fold(0f32, |m, v| m.max(v.abs()));
            let scale = if largest > 0.0 { largest / 127.0 } else { 1.0 };
            let inverse = 1.0 / scale;
            // Half away from zero, as `round` does, without its call into libm
            // (baseline x86_64 has no rounding instruction), so this vectorises.
            values.extend(block.iter().map(|v| {
                let scaled = v * inverse;
                (scaled + 0.5f32.copysign(scaled)).clamp(-127.0, 127.0) as i8
            }));
            scales.push(scale);
        }
        Self {
            #[cfg(target_arch = "x86_64")]
            magnitudes: values.iter().map(|v| v.unsigned_abs()).collect(),
            values,
            scales,
        }
    }
}

/// The reference every kernel is held to: exact integer sums per block.
fn matvec_portable(weights: &[i8], scales: &[f32], x: &Quantised, out: &mut [f32]) {
    each_row(weights, scales, x, out, |row, row_scales| {
        let blocks = row.chunks_exact(BLOCK).zip(x.values.chunks_exact(BLOCK)).zip(row_scales).zip(&x.scales);
        blocks.map(|(((w, v), ws), xs)| block_dot(w, v) as f32 * (ws * xs)).sum()
    });
}

/// The loop every kernel shares: `out[o] = row_sum(row o, its block scales)`.
#[inline(always)]
fn each_row(
    weights: &[i8],
    scales: &[f32],
    x: &Quantised,
    out: &mut [f32],
    mut row_sum: impl FnMut(&[i8], &[f32]) -> f32,
) {
    let inputs = x.values.len();
    for ((row, row_scales), o) in weights.chunks_exact(inputs).zip(scales.chunks_exact(inputs / BLOCK)).zip(out) {
        *o = row_sum(row, row_scales);
    }
}

/// The exact dot product of the first [`BLOCK`] bytes of `w` and `x`.
fn block_dot(w: &[i8], x: &[i8]) -> i32 {
    w[..BLOCK].iter().zip(&x[..BLOCK]).map(|(&a, &b)| a as i32 * b as i32).sum()
}

/// Weights with every byte value, −127 and 127 included, scales of mixed
/// sizes, and an input with negative, zero and large values.
fn sample(outputs: usize, inputs: usize) -> (Vec<i8>, Vec<f32>, Quantised) {
    let weights = (0..outputs * inputs).map(|i| ((i * 7919 + 13) % 255) as i32 - 127).map(|v| v as i8).collect();
    let scales = (0..outputs * inputs / BLOCK).map(|i| 0.001 + (i % 17) as f32 * 0.003).collect();
    let x: Vec<f32> =
        (0..inputs).map(|i| (((i * 104_729) % 2001) as f32 - 1000.0) * if i % 7 == 0 { 0.0 } else { 0.01 }).collect();
    (weights, scales, Quantised::new(&x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_this_processor_runs_gives_the_portable_result() {
        let kernels = Kernel::available();
        assert_eq!(kernels.last(), Some(&Kernel::Portable));
        // Rows of an odd number of block pairs too (the 512-bit kernel
        // takes two blocks at once).
        for inputs in [BLOCK, 3 * BLOCK, 384, 1536] {
            let (weights, scales, x) = sample(37, inputs);
            let mut want = vec![0f32; 37];
            Kernel::Portable.matvec(&weights, &scales, &x, &mut want);
            for &kernel in &kernels {
                let mut got = vec![0f32; 37];
                kernel.matvec(&weights, &scales, &x, &mut got);
                for (o, (a, b)) in got.iter().zip(&want).enumerate() {
                    assert!((a - b).abs() <= 1e-4 * b.abs().max(1.0), "{} output {o}: {a} against {b}", kernel.name());
                }
            }
        }
        assert!(kernels.iter().all(|k| k.agrees_with_portable()));
    }

    #[test]
    fn a_quantised_input_is_within_half_a_step_of_each_value() {
        let x: Vec<f32> = (0..64).map(|i| (i as f32 - 20.0).powi(3) * 1e-3).collect();
        let q = Quantised::new(&x);
        for (i, v) in x.iter().enumerate() {
            let scale = q.scales[i / BLOCK];
            assert!((q.values[i] as f32 * scale - v).abs() <= scale / 2.0 + 1e-6, "value {i}");
            #[cfg(target_arch = "x86_64")]
            assert_eq!(q.magnitudes[i] as i32, (q.values[i] as i32).abs());
        }
        assert!(q.values.iter().all(|&v| v != i8::MIN));
        // A block of zeros keeps a usable scale.
        assert_eq!(Quantised::new(&[0.0; BLOCK]).scales, vec![1.0]);
    }

    #[test]
    fn the_best_kernel_is_the_widest_available_when_every_one_gives_the_portable_result() {
        assert_eq!(Kernel::best(), Kernel::available()[0]);
        assert!(Kernel::refused().is_empty());
    }
}

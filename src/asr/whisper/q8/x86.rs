//! The x86_64 kernels. `vpdpbusd` and `vpmaddubsw` multiply unsigned bytes
//! by signed ones, so the input goes in as its magnitudes and its signs move
//! onto the weights (`vpsignb`, or a masked negation on AVX-512): |x|·(±w)
//! is x·w, and no product overflows since neither side holds −128.

use std::arch::x86_64::*;

use super::{BLOCK, Quantised, block_dot, each_row};

/// Two blocks an instruction: lanes 0–7 hold the first block's partial
/// sums, 8–15 the second's, and each half is scaled by its own pair of
/// scales before the running sum.
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
pub unsafe fn matvec_avx512vnni(weights: &[i8], scales: &[f32], x: &Quantised, out: &mut [f32]) {
    let pairs = x.values.len() / BLOCK / 2;
    let halves = _mm512_set_epi32(1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0);
    let zero = _mm512_setzero_si512();
    each_row(weights, scales, x, out, |row, row_scales| {
        let mut sum = _mm512_setzero_ps();
        for p in 0..pairs {
            let at = p * 2 * BLOCK;
            // SAFETY: `at + 64 ≤ inputs` and `2p + 2 ≤ blocks`, the lengths
            // of the row, the input and their scales.
            let (w, values, magnitudes, pair_scale) = unsafe {
                (
                    _mm512_loadu_si512(row.as_ptr().add(at).cast()),
                    _mm512_loadu_si512(x.values.as_ptr().add(at).cast()),
                    _mm512_loadu_si512(x.magnitudes.as_ptr().add(at).cast()),
                    _mm_mul_ps(two(row_scales.as_ptr().add(2 * p)), two(x.scales.as_ptr().add(2 * p))),
                )
            };
            let signed = _mm512_mask_sub_epi8(w, _mm512_movepi8_mask(values), zero, w);
            let dot = _mm512_dpbusd_epi32(zero, magnitudes, signed);
            let scale = _mm512_permutexvar_ps(halves, _mm512_castps128_ps512(pair_scale));
            sum = _mm512_fmadd_ps(_mm512_cvtepi32_ps(dot), scale, sum);
        }
        _mm512_reduce_add_ps(sum) + odd_block(row, row_scales, x)
    });
}

/// The scales of blocks `i` and `i + 1` in the low two lanes.
///
/// # Safety
/// `at` points at two readable floats.
#[inline(always)]
unsafe fn two(at: *const f32) -> __m128 {
    // SAFETY: the caller's.
    unsafe { _mm_castpd_ps(_mm_load_sd(at.cast())) }
}

/// The last block of a row of an odd number of blocks, which the 512-bit
/// loop leaves.
#[inline(always)]
fn odd_block(row: &[i8], row_scales: &[f32], x: &Quantised) -> f32 {
    let blocks = row_scales.len();
    if blocks.is_multiple_of(2) {
        return 0.0;
    }
    let at = (blocks - 1) * BLOCK;
    block_dot(&row[at..], &x.values[at..]) as f32 * (row_scales[blocks - 1] * x.scales[blocks - 1])
}

/// 256-bit `vpdpbusd`: a block an instruction.
#[target_feature(enable = "avx2,fma,avxvnni")]
pub unsafe fn matvec_avxvnni(weights: &[i8], scales: &[f32], x: &Quantised, out: &mut [f32]) {
    // SAFETY: the same features are enabled here.
    unsafe {
        rows_256(weights, scales, x, out, |magnitudes, signed| {
            _mm256_dpbusd_avx_epi32(_mm256_setzero_si256(), magnitudes, signed)
        })
    }
}

/// Pairs of byte products summed into 16 bits, then pairs of those into 32.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn matvec_avx2(weights: &[i8], scales: &[f32], x: &Quantised, out: &mut [f32]) {
    // SAFETY: the same features are enabled here.
    unsafe {
        rows_256(weights, scales, x, out, |magnitudes, signed| {
            _mm256_madd_epi16(_mm256_maddubs_epi16(magnitudes, signed), _mm256_set1_epi16(1))
        })
    }
}

/// The row loop of the 256-bit kernels: `dot(|x|, ±w)` gives a block's sum
/// in eight 32-bit parts.
///
/// # Safety
/// The processor has AVX2 and FMA, and whatever `dot` uses.
#[inline(always)]
unsafe fn rows_256(
    weights: &[i8],
    scales: &[f32],
    x: &Quantised,
    out: &mut [f32],
    dot: impl Fn(__m256i, __m256i) -> __m256i,
) {
    // SAFETY: the caller's: this runs inlined into a kernel compiled with
    // the instructions it uses; the loads stay within the row and the input.
    unsafe {
        each_row(weights, scales, x, out, |row, row_scales| {
            let mut sum = _mm256_setzero_ps();
            for (b, (row_scale, x_scale)) in row_scales.iter().zip(&x.scales).enumerate() {
                let at = b * BLOCK;
                // `at + 32 ≤ inputs`, the length of the row and the input.
                let w = _mm256_loadu_si256(row.as_ptr().add(at).cast());
                let values = _mm256_loadu_si256(x.values.as_ptr().add(at).cast());
                let magnitudes = _mm256_loadu_si256(x.magnitudes.as_ptr().add(at).cast());
                let block = _mm256_cvtepi32_ps(dot(magnitudes, _mm256_sign_epi8(w, values)));
                sum = _mm256_fmadd_ps(block, _mm256_set1_ps(row_scale * x_scale), sum);
            }
            let half = _mm_add_ps(_mm256_castps256_ps128(sum), _mm256_extractf128_ps(sum, 1));
            let quarter = _mm_add_ps(half, _mm_movehl_ps(half, half));
            _mm_cvtss_f32(_mm_add_ss(quarter, _mm_shuffle_ps(quarter, quarter, 1)))
        });
    }
}

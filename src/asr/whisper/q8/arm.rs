//! The aarch64 kernels: NEON is always there; the dot-product instructions
//! (ARMv8.2, `sdot`) only from the Cortex-A76 (Raspberry Pi 5) on. Both
//! multiply signed bytes by signed bytes, so the input goes in as it is.

use std::arch::aarch64::*;

use super::{BLOCK, Quantised, each_row};

/// A block in two `sdot`s: each adds four byte products into each of four
/// 32-bit lanes.
#[target_feature(enable = "neon,dotprod")]
pub unsafe fn matvec_dotprod(weights: &[i8], scales: &[f32], x: &Quantised, out: &mut [f32]) {
    // SAFETY: the same features are enabled here.
    unsafe { rows(weights, scales, x, out, |w, v| sdot(sdot(vdupq_n_s32(0), w[0], v[0]), w[1], v[1])) }
}

/// A block in four widening multiplies: two byte products per 16-bit lane
/// (at most 2·127² = 32,258, which fits), then pairs of lanes into 32 bits.
#[target_feature(enable = "neon")]
pub unsafe fn matvec_neon(weights: &[i8], scales: &[f32], x: &Quantised, out: &mut [f32]) {
    // SAFETY: the same features are enabled here.
    unsafe {
        rows(weights, scales, x, out, |w, v| {
            let first = vmlal_high_s8(vmull_s8(vget_low_s8(w[0]), vget_low_s8(v[0])), w[0], v[0]);
            let second = vmlal_high_s8(vmull_s8(vget_low_s8(w[1]), vget_low_s8(v[1])), w[1], v[1]);
            vpadalq_s16(vpaddlq_s16(first), second)
        })
    }
}

/// `acc` plus the dot products of each four bytes of `a` and `b`. The
/// intrinsic is not stable in Rust yet; the instruction is.
#[inline(always)]
unsafe fn sdot(acc: int32x4_t, a: int8x16_t, b: int8x16_t) -> int32x4_t {
    let mut acc = acc;
    // SAFETY: only called from functions compiled with `dotprod`, which the
    // processor was found to have.
    unsafe {
        std::arch::asm!(
            "sdot {acc:v}.4s, {a:v}.16b, {b:v}.16b",
            acc = inout(vreg) acc,
            a = in(vreg) a,
            b = in(vreg) b,
            options(pure, nomem, nostack, preserves_flags)
        );
    }
    acc
}

/// The row loop of both kernels: `dot(w, x)` gives a block's sum in four
/// 32-bit parts from its two halves.
///
/// # Safety
/// The processor has NEON, and whatever `dot` uses.
#[inline(always)]
unsafe fn rows(
    weights: &[i8],
    scales: &[f32],
    x: &Quantised,
    out: &mut [f32],
    dot: impl Fn([int8x16_t; 2], [int8x16_t; 2]) -> int32x4_t,
) {
    // SAFETY: the caller's: this runs inlined into a kernel compiled with
    // the instructions it uses; the loads stay within the row and the input.
    unsafe {
        each_row(weights, scales, x, out, |row, row_scales| {
            let mut sum = vdupq_n_f32(0.0);
            for (b, (row_scale, x_scale)) in row_scales.iter().zip(&x.scales).enumerate() {
                let at = b * BLOCK;
                // `at + 32 ≤ inputs`, the length of the row and the input.
                let (w, v) = (row.as_ptr().add(at), x.values.as_ptr().add(at));
                let (w, v) = ([vld1q_s8(w), vld1q_s8(w.add(16))], [vld1q_s8(v), vld1q_s8(v.add(16))]);
                sum = vfmaq_n_f32(sum, vcvtq_f32_s32(dot(w, v)), row_scale * x_scale);
            }
            vaddvq_f32(sum)
        });
    }
}

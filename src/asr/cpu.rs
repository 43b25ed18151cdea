//! Which of this processor's vector instructions speech runs on: the int8
//! kernel of Whisper's decoder (picked by `whisper`) and the width of the
//! f32 matrix products (gemm, under candle, picks AVX-512 where the
//! processor has the x86-64-v4 set, else AVX2 with FMA). `doctor` and
//! `transcribe --json` report it, so a speed figure says where it was
//! measured.

use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Kernels {
    /// The processor's name, as the kernel reports it.
    pub cpu: String,
    /// The int8 kernel, which gave the portable result when checked.
    pub int8: &'static str,
    /// Wider int8 kernels that did not, and are not used.
    pub int8_refused: Vec<&'static str>,
    pub f32: &'static str,
}

impl Kernels {
    pub fn detect() -> Self {
        let (int8, int8_refused) = super::whisper::int8_kernel();
        Self { cpu: cpu_name(), int8, int8_refused, f32: f32_width() }
    }
}

fn f32_width() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        if has!("avx512f") && has!("avx512bw") && has!("avx512cd") && has!("avx512dq") && has!("avx512vl") {
            return "avx512";
        }
        if has!("avx2") && has!("fma") {
            return "avx2";
        }
        "sse2"
    }
    #[cfg(target_arch = "aarch64")]
    {
        "neon"
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        "portable"
    }
}

/// `model name` on x86, `Model` (a Raspberry Pi's board) or the CPU part
/// on ARM; "unknown" where /proc says neither.
fn cpu_name() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        info.lines()
            .filter_map(|line| line.split_once(':'))
            .find(|(key, _)| key.trim() == name)
            .map(|(_, value)| value.trim().to_owned())
    };
    field("model name")
        .or_else(|| field("Model"))
        .or_else(|| field("CPU part").map(|part| format!("ARM part {part}")))
        .unwrap_or_else(|| "unknown".to_owned())
}

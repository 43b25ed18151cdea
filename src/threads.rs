//! How many threads candle's CPU kernels use, decided once at start-up.
//!
//! candle runs f32 matrix products on rayon, and its quantised kernels and
//! large element-wise steps on a pool of its own whose caller spins until
//! every thread of the pool is done. Measured on a 2-core box that other
//! work kept busy, that pool with a second thread made SmolLM2-135M in Q8_0
//! write its 200-token answer in 130–180 s instead of 20 s and read its
//! 1,700-token prompt no faster (70–80 s either way), for 2.6× the CPU. On
//! the same box when quiet, the second thread made the quantised model
//! 1.7× and the MiniLM summariser 1.2× faster, and made no difference to
//! Whisper or to an f32 LLM, whose products run on rayon, which sleeps
//! instead of spinning and keeps every core. A bounded loss when the box is
//! quiet against a manifold one whenever anything else runs: one thread.
//! And with neither variable set, candle counts the cores in /proc/cpuinfo
//! before every matrix product: setting them took an f32 SmolLM2 summary's
//! kernel time from 9 s to 6 s.

/// Sets `RAYON_NUM_THREADS` to candle's own default (the physical cores)
/// and `CANDLE_NUM_THREADS` to 1, unless the user set either, which then
/// decides as candle documents. Call it first thing in `main`, before any
/// other thread exists: changing the environment is unsound once another
/// thread may read it.
pub fn init() {
    if std::env::var_os("RAYON_NUM_THREADS").is_some() || std::env::var_os("CANDLE_NUM_THREADS").is_some() {
        return;
    }
    let cores = candle_core::utils::get_num_threads();
    // SAFETY: `main` calls this before starting any thread, so nothing reads
    // the environment concurrently.
    unsafe {
        std::env::set_var("RAYON_NUM_THREADS", cores.to_string());
        std::env::set_var("CANDLE_NUM_THREADS", "1");
    }
}

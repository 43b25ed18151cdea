//! The power spectrum of a real frame through a mixed-radix FFT. Whisper's
//! frames are 400 samples, not a power of two: a 400-point real transform is
//! a 200-point complex one (even samples real, odd imaginary) split back into
//! halves, and 200 = 4·2·5·5 runs as self-sorting (Stockham) radix-4, -2 and
//! -5 passes. A direct DFT would cost 80,000 multiply-adds a frame, this ≈3,000.

use std::f64::consts::PI;

#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct C {
    re: f32,
    im: f32,
}

impl C {
    fn add(self, o: C) -> C {
        C { re: self.re + o.re, im: self.im + o.im }
    }
    fn sub(self, o: C) -> C {
        C { re: self.re - o.re, im: self.im - o.im }
    }
    fn mul(self, o: C) -> C {
        C { re: self.re * o.re - self.im * o.im, im: self.re * o.im + self.im * o.re }
    }
    fn scale(self, s: f32) -> C {
        C { re: self.re * s, im: self.im * s }
    }
    /// Multiplied by −i.
    fn rot(self) -> C {
        C { re: self.im, im: -self.re }
    }
    fn conj(self) -> C {
        C { re: self.re, im: -self.im }
    }
    /// e^(−2πi·k/n), the forward transform's root of unity.
    fn root(k: usize, n: usize) -> C {
        let a = -2.0 * PI * k as f64 / n as f64;
        C { re: a.cos() as f32, im: a.sin() as f32 }
    }
}

/// One radix pass: sub-transforms of length `len` become length `len·radix`.
#[derive(Debug, Clone)]
struct Pass {
    radix: usize,
    len: usize,
    /// The twiddle of input `v` (1 ≤ v < radix) of sub-transform bin `j`.
    twiddles: Vec<C>,
}

/// A forward complex FFT whose length factors into 2s and 5s.
#[derive(Debug, Clone)]
struct Fft {
    n: usize,
    passes: Vec<Pass>,
}

impl Fft {
    fn new(n: usize) -> Self {
        let mut radices = Vec::new();
        let mut rest = n;
        for radix in [4, 2, 5] {
            while rest.is_multiple_of(radix) {
                radices.push(radix);
                rest /= radix;
            }
        }
        assert_eq!(rest, 1, "the FFT length {n} must factor into 2s and 5s");
        let mut len = 1;
        let passes = radices
            .into_iter()
            .map(|radix| {
                let twiddles = (0..len).flat_map(|j| (1..radix).map(move |v| C::root(v * j, len * radix))).collect();
                let pass = Pass { radix, len, twiddles };
                len *= radix;
                pass
            })
            .collect();
        Self { n, passes }
    }

    /// Transforms `data` in place (`scratch` is the same length): after a
    /// pass over sub-transforms of length L, element `j·r + q` holds bin j of
    /// the L-point DFT of the inputs q, q + r, q + 2r, … (r = n / L).
    fn run(&self, data: &mut [C], scratch: &mut [C]) {
        let (mut src, mut dst) = (data, scratch);
        for pass in &self.passes {
            let p = pass.radix;
            let len = pass.len;
            let groups = self.n / (len * p);
            let stride = groups * p;
            for j in 0..len {
                let tw = &pass.twiddles[j * (p - 1)..(j + 1) * (p - 1)];
                for q in 0..groups {
                    let at = |v: usize| src[j * stride + q + groups * v];
                    let out = |s: usize| (j + len * s) * groups + q;
                    match p {
                        2 => {
                            let a0 = at(0);
                            let a1 = at(1).mul(tw[0]);
                            dst[out(0)] = a0.add(a1);
                            dst[out(1)] = a0.sub(a1);
                        }
                        4 => {
                            let a0 = at(0);
                            let a1 = at(1).mul(tw[0]);
                            let a2 = at(2).mul(tw[1]);
                            let a3 = at(3).mul(tw[2]);
                            let (t0, t1) = (a0.add(a2), a0.sub(a2));
                            let (t2, t3) = (a1.add(a3), a1.sub(a3).rot());
                            dst[out(0)] = t0.add(t2);
                            dst[out(1)] = t1.add(t3);
                            dst[out(2)] = t0.sub(t2);
                            dst[out(3)] = t1.sub(t3);
                        }
                        _ => {
                            let a0 = at(0);
                            let a1 = at(1).mul(tw[0]);
                            let a2 = at(2).mul(tw[1]);
                            let a3 = at(3).mul(tw[2]);
                            let a4 = at(4).mul(tw[3]);
                            let (t1, t2) = (a1.add(a4), a2.add(a3));
                            let (t3, t4) = (a1.sub(a4), a2.sub(a3));
                            let m1 = a0.add(t1.scale(COS1)).add(t2.scale(COS2));
                            let m2 = a0.add(t1.scale(COS2)).add(t2.scale(COS1));
                            let n1 = t3.scale(SIN1).add(t4.scale(SIN2)).rot();
                            let n2 = t3.scale(SIN2).sub(t4.scale(SIN1)).rot();
                            dst[out(0)] = a0.add(t1).add(t2);
                            dst[out(1)] = m1.add(n1);
                            dst[out(2)] = m2.add(n2);
                            dst[out(3)] = m2.sub(n2);
                            dst[out(4)] = m1.sub(n1);
                        }
                    }
                }
            }
            std::mem::swap(&mut src, &mut dst);
        }
        if self.passes.len() % 2 == 1 {
            dst.copy_from_slice(src);
        }
    }
}

const COS1: f32 = 0.309_017; // cos(2π/5)
const COS2: f32 = -0.809_017; // cos(4π/5)
const SIN1: f32 = 0.951_056_5; // sin(2π/5)
const SIN2: f32 = 0.587_785_24; // sin(4π/5)

/// |X[k]|² for k = 0..=n/2 of a real frame of even length n.
#[derive(Debug, Clone)]
pub struct PowerSpectrum {
    half: Fft,
    /// e^(−2πi·k/n): recombines the even and odd halves.
    roots: Vec<C>,
    packed: Vec<C>,
    scratch: Vec<C>,
}

impl PowerSpectrum {
    pub fn new(n: usize) -> Self {
        let half = n / 2;
        Self {
            half: Fft::new(half),
            roots: (0..=half).map(|k| C::root(k, n)).collect(),
            packed: vec![C::default(); half],
            scratch: vec![C::default(); half],
        }
    }

    pub fn bins(&self) -> usize {
        self.half.n + 1
    }

    /// `frame` has n samples, `power` n/2 + 1 bins.
    pub fn compute(&mut self, frame: &[f32], power: &mut [f32]) {
        let h = self.half.n;
        for (z, pair) in self.packed.iter_mut().zip(frame.chunks_exact(2)) {
            *z = C { re: pair[0], im: pair[1] };
        }
        self.half.run(&mut self.packed, &mut self.scratch);
        let z = &self.packed;
        for (k, out) in power.iter_mut().enumerate().take(h + 1) {
            let a = z[k % h];
            let b = z[(h - k % h) % h].conj();
            // The transforms of the even and of the odd samples, at bin k.
            let even = a.add(b).scale(0.5);
            let odd = a.sub(b).scale(0.5).rot();
            let x = even.add(self.roots[k].mul(odd));
            *out = x.re * x.re + x.im * x.im;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_power(frame: &[f32]) -> Vec<f64> {
        let n = frame.len();
        (0..=n / 2)
            .map(|k| {
                let (mut re, mut im) = (0f64, 0f64);
                for (t, &x) in frame.iter().enumerate() {
                    let a = -2.0 * PI * (k * t) as f64 / n as f64;
                    re += x as f64 * a.cos();
                    im += x as f64 * a.sin();
                }
                re * re + im * im
            })
            .collect()
    }

    #[test]
    fn power_spectrum_matches_a_direct_dft_for_every_supported_length() {
        for n in [400, 8, 10, 40, 50, 160] {
            let frame: Vec<f32> = (0..n).map(|i| ((i * 7919) % 101) as f32 / 50.0 - 1.0).collect();
            let mut spectrum = PowerSpectrum::new(n);
            let mut power = vec![0f32; spectrum.bins()];
            spectrum.compute(&frame, &mut power);
            let expected = naive_power(&frame);
            let peak = expected.iter().cloned().fold(0.0, f64::max);
            for (k, (&got, &want)) in power.iter().zip(&expected).enumerate() {
                assert!((got as f64 - want).abs() <= 1e-4 * peak, "n {n} bin {k}: {got} vs {want}");
            }
        }
    }
}

//! The decoder's projections in 8-bit integers. A decoder step multiplies
//! one row by every weight matrix, so it is bound by reading the weights,
//! not by arithmetic: the output projection alone is 51,864 × 384 floats,
//! 80 MB read per token. Stored as one signed byte per weight and one scale
//! per block of [`BLOCK`] weights of a row (symmetric: the block's largest
//! magnitude maps to 127), the same product reads under a third of the
//! bytes. The input row is quantised the same way (see `q8`), so a block's
//! products are integer dot products. The error per weight (and input) is
//! at most half a step of its block's scale. Small as that is, over the
//! 51,864 logits of a step it can swap the two likeliest tokens (tiny.en
//! heard "ill-disposed" as "old-sposed" on a LibriVox clip the f32 decoder
//! gets right, with a scale per row or per block alike): the output
//! projection also keeps its residual, and the decoder scores its likeliest
//! tokens again with it and the input in floats.

use candle_core::{D, Module, Result, Tensor};

use super::q8::{BLOCK, Kernel, Quantised};

/// Rows converted at once while quantising.
const QUANTIZE_ROWS: usize = 1024;

#[derive(Debug, Clone)]
pub struct Int8Linear {
    inputs: usize,
    /// [`BLOCK`], or the whole row when a row is not made of blocks.
    block: usize,
    weights: Vec<i8>,
    /// One per block, row after row.
    scales: Vec<f32>,
    /// What the weights lose to their step, itself in int8 (see
    /// [`Self::with_residual`]).
    residual: Option<(Vec<i8>, Vec<f32>)>,
    bias: Option<Vec<f32>>,
}

impl Int8Linear {
    /// `weight` is `[outputs, inputs]`, as candle's `Linear` holds it.
    pub fn quantize(weight: &Tensor, bias: Option<&Tensor>) -> Result<Self> {
        let (outputs, inputs) = weight.dims2()?;
        let block = if inputs.is_multiple_of(BLOCK) { BLOCK } else { inputs };
        let (mut weights, mut scales) = (Vec::with_capacity(outputs * inputs), Vec::new());
        for_row_blocks(weight, |_, rows| quantize_into(&rows, block, &mut weights, &mut scales))?;
        let bias = bias.map(|b| b.to_vec1()).transpose()?;
        Ok(Self { inputs, block, weights, scales, bias, residual: None })
    }

    /// Keeps `weight`'s remainder after quantising, quantised too, for
    /// [`Self::refine`] and [`Self::row`]: to within 1/127 of a step.
    pub fn with_residual(mut self, weight: &Tensor) -> Result<Self> {
        let (mut weights, mut scales) = (Vec::with_capacity(self.weights.len()), Vec::new());
        for_row_blocks(weight, |first, mut rows| {
            for (i, w) in rows.iter_mut().enumerate() {
                let at = first * self.inputs + i;
                *w -= self.weights[at] as f32 * self.scales[at / self.block];
            }
            quantize_into(&rows, self.block, &mut weights, &mut scales);
        })?;
        self.residual = Some((weights, scales));
        Ok(self)
    }

    /// Computes the outputs `rows` of `out` again with the input in floats
    /// and the residual added: to within 1/127 of a step of the float
    /// weights, where [`Self::apply`] quantised the input too.
    pub fn refine(&self, x: &[f32], rows: &[usize], out: &mut [f32]) {
        let Some((residual, residual_scales)) = &self.residual else { return };
        let (inputs, per_row) = (self.inputs, self.inputs / self.block);
        for &row in rows {
            let mut sums = [0f32; 2];
            for (sum, (weights, scales)) in
                sums.iter_mut().zip([(&self.weights, &self.scales), (residual, residual_scales)])
            {
                let weights = &weights[row * inputs..(row + 1) * inputs];
                let scales = &scales[row * per_row..(row + 1) * per_row];
                matvec(weights, scales, self.block, x, std::slice::from_mut(sum));
            }
            out[row] = sums[0] + sums[1] + self.bias.as_ref().map_or(0.0, |bias| bias[row]);
        }
    }

    pub fn outputs(&self) -> usize {
        self.weights.len() / self.inputs
    }

    /// Row `row` of the weights, as floats again (an embedding lookup),
    /// the residual added when kept.
    pub fn row(&self, row: usize) -> Vec<f32> {
        let mut values = dequantize(&self.weights, &self.scales, self.inputs, self.block, row);
        if let Some((weights, scales)) = &self.residual {
            let rest = dequantize(weights, scales, self.inputs, self.block, row);
            values.iter_mut().zip(rest).for_each(|(v, r)| *v += r);
        }
        values
    }

    /// `out[o] = Σ_blocks scale · Σ q[o, i] · x[i] + bias[o]` for one input
    /// row, the input quantised too (see `q8`) when the row is made of blocks.
    pub fn apply(&self, x: &[f32], out: &mut [f32]) {
        if self.block == BLOCK {
            Kernel::best().matvec(&self.weights, &self.scales, &Quantised::new(x), out);
        } else {
            matvec(&self.weights, &self.scales, self.block, x, out);
        }
        if let Some(bias) = &self.bias {
            out.iter_mut().zip(bias).for_each(|(o, b)| *o += b);
        }
    }
}

impl Module for Int8Linear {
    /// `[rows, inputs]` (or `[1, rows, inputs]`) → the same with `outputs`.
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        let dims = x.dims().to_vec();
        let inputs = x.dim(D::Minus1)?;
        if inputs != self.inputs {
            candle_core::bail!("int8 projection of {} inputs fed {inputs}", self.inputs);
        }
        let flat: Vec<f32> = x.flatten_all()?.to_vec1()?;
        let rows = flat.len() / inputs;
        let mut out = vec![0f32; rows * self.outputs()];
        for (input, output) in flat.chunks_exact(inputs).zip(out.chunks_exact_mut(self.outputs())) {
            self.apply(input, output);
        }
        let mut shape = dims;
        *shape.last_mut().expect("a tensor with a last dimension") = self.outputs();
        Tensor::from_vec(out, shape, x.device())
    }
}

/// Calls `f(first, rows)` with the weights of `weight` a block of rows at a
/// time, flat: a float copy of the whole output projection would be 80 MB
/// more at the peak of loading.
fn for_row_blocks(weight: &Tensor, mut f: impl FnMut(usize, Vec<f32>)) -> Result<()> {
    let outputs = weight.dim(0)?;
    for first in (0..outputs).step_by(QUANTIZE_ROWS) {
        f(first, weight.narrow(0, first, QUANTIZE_ROWS.min(outputs - first))?.flatten_all()?.to_vec1()?);
    }
    Ok(())
}

/// Appends `values`, blocks of `block`, as bytes and a scale per block.
fn quantize_into(values: &[f32], block: usize, weights: &mut Vec<i8>, scales: &mut Vec<f32>) {
    for part in values.chunks_exact(block) {
        let largest = part.iter().fold(0f32, |m, w| m.max(w.abs()));
        let scale = if largest > 0.0 { largest / 127.0 } else { 1.0 };
        weights.extend(part.iter().map(|w| (w / scale).round().clamp(-127.0, 127.0) as i8));
        scales.push(scale);
    }
}

fn dequantize(weights: &[i8], scales: &[f32], inputs: usize, block: usize, row: usize) -> Vec<f32> {
    let weights = &weights[row * inputs..(row + 1) * inputs];
    let scales = &scales[row * inputs / block..];
    weights.chunks_exact(block).zip(scales).flat_map(|(q, &s)| q.iter().map(move |&q| q as f32 * s)).collect()
}

/// The product with the input in floats, for the few rows [`Int8Linear::refine`]
/// computes again and for rows not made of blocks. Written so the compiler
/// vectorises it: per block, sixteen partial sums, one per lane, scaled
/// into sixteen running sums; one horizontal sum a row.
fn matvec(weights: &[i8], scales: &[f32], block: usize, x: &[f32], out: &mut [f32]) {
    const LANES: usize = 16;
    let inputs = x.len();
    let lanes = block / LANES * LANES;
    for ((row, scales), o) in weights.chunks_exact(inputs).zip(scales.chunks_exact(inputs / block)).zip(out.iter_mut())
    {
        let mut sums = [0f32; LANES];
        let mut tail = 0f32;
        for ((part, xs), &scale) in row.chunks_exact(block).zip(x.chunks_exact(block)).zip(scales) {
            let mut partial = [0f32; LANES];
            for (w, v) in part[..lanes].chunks_exact(LANES).zip(xs[..lanes].chunks_exact(LANES)) {
                for lane in 0..LANES {
                    partial[lane] += w[lane] as f32 * v[lane];
                }
            }
            for lane in 0..LANES {
                sums[lane] += partial[lane] * scale;
            }
            tail += part[lanes..].iter().zip(&xs[lanes..]).map(|(&w, v)| w as f32 * v).sum::<f32>() * scale;
        }
        *o = sums.iter().sum::<f32>() + tail;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Device;

    #[test]
    fn an_int8_projection_stays_within_half_a_step_a_weight_and_an_input_of_the_float_one() {
        for inputs in [70, 96] {
            projection_within_bounds(37, inputs);
        }
    }

    fn projection_within_bounds(outputs: usize, inputs: usize) {
        let w: Vec<f32> = (0..outputs * inputs).map(|i| ((i * 7919 % 1000) as f32 / 500.0 - 1.0) * 0.3).collect();
        let b: Vec<f32> = (0..outputs).map(|i| i as f32 * 0.01).collect();
        let x: Vec<f32> = (0..2 * inputs).map(|i| ((i * 104_729 % 1000) as f32 / 500.0) - 1.0).collect();
        let weight = Tensor::from_vec(w.clone(), (outputs, inputs), &Device::Cpu).unwrap();
        let bias = Tensor::from_vec(b, outputs, &Device::Cpu).unwrap();
        let input = Tensor::from_vec(x.clone(), (2, inputs), &Device::Cpu).unwrap();
        let exact = candle_nn::Linear::new(weight.clone(), Some(bias.clone())).forward(&input).unwrap();
        let int8 = Int8Linear::quantize(&weight, Some(&bias)).unwrap();
        let approx = int8.forward(&input).unwrap();
        let (exact, approx): (Vec<Vec<f32>>, Vec<Vec<f32>>) = (exact.to_vec2().unwrap(), approx.to_vec2().unwrap());
        for r in 0..2 {
            let x = &x[r * inputs..(r + 1) * inputs];
            let x_sum: f32 = x.iter().map(|v| v.abs()).sum();
            // Rows of 70 are not made of blocks: the input stays in floats.
            let x_step =
                if inputs.is_multiple_of(BLOCK) { x.iter().fold(0f32, |m, v| m.max(v.abs())) / 127.0 } else { 0.0 };
            for o in 0..outputs {
                let row = &w[o * inputs..(o + 1) * inputs];
                let step = row.iter().fold(0f32, |m, v| m.max(v.abs())) / 127.0;
                let w_sum: f32 = row.iter().map(|v| v.abs()).sum();
                let bound = step / 2.0 * x_sum + x_step / 2.0 * (w_sum + step / 2.0 * inputs as f32) + 1e-4;
                assert!((exact[r][o] - approx[r][o]).abs() <= bound, "row {r} output {o}");
            }
        }
        let row = int8.row(3);
        assert!(row.iter().zip(&w[3 * inputs..4 * inputs]).all(|(a, b)| (a - b).abs() <= 0.3 / 127.0));

        // With the residual, the refined outputs are within 1/127 of that.
        let int8 = int8.with_residual(&weight).unwrap();
        let mut refined = vec![0f32; outputs];
        int8.apply(&x[..inputs], &mut refined);
        int8.refine(&x[..inputs], &[0, 5], &mut refined);
        let x_sum: f32 = x[..inputs].iter().map(|v| v.abs()).sum();
        for o in [0, 5] {
            assert!((exact[0][o] - refined[o]).abs() <= 0.3 / 127.0 / 127.0 * x_sum + 1e-4, "output {o}");
        }
        assert!(int8.row(3).iter().zip(&w[3 * inputs..4 * inputs]).all(|(a, b)| (a - b).abs() <= 1e-5));
    }
}

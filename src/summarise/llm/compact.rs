//! A quantised weight matrix multiplied in the blocks the file stores.
//!
//! candle's `QMatMul` keeps, beside every Q4_K matrix (and every Q6_K one
//! once more than one row is multiplied), a second copy repacked for its
//! tiled kernels: for a 1.5B model in Q4_K_M that is ~1.1 GB more than the
//! file, which is what kept a 30-minute meeting over a 2 GB box. Here the
//! k-quant types go through candle's untiled product on the file's own
//! blocks (16 rows a tile, the same dot products ggml uses), split over
//! rayon's threads, so the weights are held once; any other type keeps
//! `QMatMul`.

use candle_core::quantized::k_quants::{self, BlockQ4K, BlockQ5K, BlockQ6K, BlockQ8_0, GgmlType};
use candle_core::quantized::{GgmlDType, QMatMul, QTensor};
use candle_core::{DType, Module, Result, Tensor};
use rayon::prelude::*;

pub enum Compact {
    Blocks { weight: QTensor, rows: usize, width: usize },
    Candle(QMatMul),
}

impl Compact {
    /// `weight` is `[rows, width]`, multiplied transposed as a linear layer's.
    pub fn new(weight: QTensor) -> Result<Self> {
        let untiled = matches!(weight.dtype(), GgmlDType::Q4K | GgmlDType::Q5K | GgmlDType::Q6K | GgmlDType::Q8_0)
            && weight.device().is_cpu();
        match weight.shape().dims() {
            &[rows, width] if untiled => Ok(Self::Blocks { weight, rows, width }),
            _ => Ok(Self::Candle(QMatMul::from_qtensor(weight)?)),
        }
    }

    /// `x · weightᵀ` for `x` of `[.., width]`.
    pub fn forward(&self, x: &Tensor) -> Result<Tensor> {
        match self {
            Self::Blocks { weight, rows, width } => untiled(weight, *rows, *width, x),
            Self::Candle(matmul) => matmul.forward(x),
        }
    }
}

fn untiled(weight: &QTensor, rows: usize, width: usize, x: &Tensor) -> Result<Tensor> {
    let mut shape = x.dims().to_vec();
    if shape.last() != Some(&width) {
        candle_core::bail!("an input of {shape:?} for a {rows} × {width} weight");
    }
    let input = x.to_dtype(DType::F32)?.flatten_all()?.to_vec1::<f32>()?;
    let data = weight.data()?;
    let out = match weight.dtype() {
        GgmlDType::Q4K => split(&input, blocks::<BlockQ4K>(&data)?, rows, width)?,
        GgmlDType::Q5K => split(&input, blocks::<BlockQ5K>(&data)?, rows, width)?,
        GgmlDType::Q6K => split(&input, blocks::<BlockQ6K>(&data)?, rows, width)?,
        GgmlDType::Q8_0 => split(&input, blocks::<BlockQ8_0>(&data)?, rows, width)?,
        other => candle_core::bail!("no untiled product for {other:?}"),
    };
    if let Some(last) = shape.last_mut() {
        *last = rows;
    }
    Tensor::from_vec(out, shape, x.device())
}

/// `input · weightᵀ` with the weight's rows split over rayon's threads.
/// candle's own pool for this product is kept at one thread (its caller
/// spins while it waits, see `threads.rs`), so without the split the LLM
/// would run on one core; rayon's threads sleep instead.
fn split<T: GgmlType + Sync>(input: &[f32], weight: &[T], rows: usize, width: usize) -> Result<Vec<f32>> {
    let m = input.len() / width;
    let per_row = weight.len() / rows;
    // Two pieces a thread, in fours (the kernel's column quads).
    let piece = rows.div_ceil(rayon::current_num_threads() * 2).next_multiple_of(4).min(rows);
    let pieces: Vec<Vec<f32>> = weight
        .par_chunks(piece * per_row)
        .map(|part| {
            let mut out = vec![0f32; m * (part.len() / per_row)];
            k_quants::matmul((m, width, part.len() / per_row), input, part, &mut out).map(|()| out)
        })
        .collect::<Result<_>>()?;
    // Each piece is `[m, its rows]`: laid side by side into `[m, rows]`.
    let mut out = Vec::with_capacity(m * rows);
    for at in 0..m {
        for part in &pieces {
            let n = part.len() / m;
            out.extend_from_slice(&part[at * n..(at + 1) * n]);
        }
    }
    Ok(out)
}

/// The blocks `bytes` holds. candle stores a CPU tensor as a vector of its
/// block type and lends its bytes, so they are aligned for it; a loan that
/// is not is refused rather than read.
fn blocks<T: GgmlType>(bytes: &[u8]) -> Result<&[T]> {
    let size = std::mem::size_of::<T>();
    if !bytes.as_ptr().cast::<T>().is_aligned() || !bytes.len().is_multiple_of(size) {
        candle_core::bail!("quantised weights not laid out as {:?} blocks", T::DTYPE);
    }
    // SAFETY: aligned and a whole number of blocks (checked above); every
    // block type is plain data (integers and f16 scales), valid for any
    // bytes, and the slice borrows `bytes`.
    Ok(unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<T>(), bytes.len() / size) })
}

#[cfg(test)]
mod tests {
    use candle_core::Device;

    use super::*;

    /// The largest difference between two tensors of the same shape.
    fn largest_difference(a: &Tensor, b: &Tensor) -> f32 {
        (a - b).unwrap().abs().unwrap().flatten_all().unwrap().max(0).unwrap().to_scalar::<f32>().unwrap()
    }

    #[test]
    fn the_untiled_product_is_as_close_to_the_float_one_as_candles_for_every_k_quant() {
        let device = Device::Cpu;
        let input = Tensor::randn(0f32, 1.0, (1, 5, 512), &device).unwrap();
        // 36 rows: pieces of 12 for two threads, 8 for four, a short last one for three.
        for (rows, dtype) in [
            (64, GgmlDType::Q4K),
            (36, GgmlDType::Q4K),
            (64, GgmlDType::Q5K),
            (36, GgmlDType::Q6K),
            (64, GgmlDType::Q8_0),
        ] {
            let weight = Tensor::randn(0f32, 1.0, (rows, 512), &device).unwrap();
            let quantised = || QTensor::quantize(&weight, dtype).unwrap();
            let exact = input.broadcast_matmul(&quantised().dequantize(&device).unwrap().t().unwrap()).unwrap();
            let ours = Compact::new(quantised()).unwrap();
            assert!(matches!(ours, Compact::Blocks { .. }), "{dtype:?} takes the untiled product");
            let ours = ours.forward(&input).unwrap();
            let candles = QMatMul::from_qtensor(quantised()).unwrap().forward(&input).unwrap();
            assert_eq!(ours.dims(), &[1, 5, rows]);
            let (ours, candles) = (largest_difference(&ours, &exact), largest_difference(&candles, &exact));
            assert!(
                ours <= candles.max(0.05) * 1.5,
                "{dtype:?}: off the float product by {ours}, candle's by {candles}"
            );
        }
    }

    #[test]
    fn an_input_of_the_wrong_width_is_refused() {
        let device = Device::Cpu;
        let weight =
            QTensor::quantize(&Tensor::zeros((32, 256), DType::F32, &device).unwrap(), GgmlDType::Q4K).unwrap();
        let input = Tensor::zeros((2, 255), DType::F32, &device).unwrap();
        assert!(Compact::new(weight).unwrap().forward(&input).is_err());
    }
}

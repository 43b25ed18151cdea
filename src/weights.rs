//! Model weights read from a safetensors file one tensor at a time, each
//! converted as it is read. Reading the whole file first and converting
//! from it (candle's buffered loader) holds the file and the converted
//! weights at once: for Whisper tiny.en, 75 MB of f16 beside 150 MB of
//! f32, which set the transcription job's peak memory. Largest first, so
//! the peak is the converted weights and one tensor in flight.

use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use serde::Deserialize;

/// A header larger than this is not a model's (tiny.en's is 40 KB).
const MAX_HEADER: u64 = 64 << 20;

#[derive(Deserialize)]
struct Entry {
    dtype: String,
    shape: Vec<usize>,
    data_offsets: [u64; 2],
}

/// The tensors of the safetensors file at `path`, those of floating point
/// as `dtype` (integers, such as position ids, as stored), ready to build
/// a model from. The error says what is wrong with the file.
pub fn read(path: &Path, dtype: DType) -> Result<VarBuilder<'static>, String> {
    let mut file = File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    let size = file.metadata().map_err(|e| format!("cannot read: {e}"))?.len();
    let mut length = [0u8; 8];
    file.read_exact(&mut length).map_err(|_| "not a safetensors file: too short".to_string())?;
    let length = u64::from_le_bytes(length);
    if length > MAX_HEADER || 8 + length > size {
        return Err("not a safetensors file: its header does not fit".into());
    }
    let mut header = vec![0u8; length as usize];
    file.read_exact(&mut header).map_err(|e| format!("cannot read: {e}"))?;
    let mut entries: HashMap<String, serde_json::Value> =
        serde_json::from_slice(&header).map_err(|e| format!("not a safetensors file: {e}"))?;
    entries.remove("__metadata__");
    let mut entries = entries
        .into_iter()
        .map(|(name, value)| {
            let entry: Entry = serde_json::from_value(value).map_err(|e| format!("tensor {name}: {e}"))?;
            Ok((name, entry))
        })
        .collect::<Result<Vec<_>, String>>()?;
    entries.sort_by_key(|(_, e)| std::cmp::Reverse(e.data_offsets[1].saturating_sub(e.data_offsets[0])));
    let data = 8 + length;
    let mut tensors = HashMap::with_capacity(entries.len());
    for (name, entry) in entries {
        let tensor = read_tensor(&mut file, data, size, &entry)
            .and_then(|t| if t.dtype().is_float() { t.to_dtype(dtype).map_err(|e| e.to_string()) } else { Ok(t) })
            .map_err(|e| format!("tensor {name}: {e}"))?;
        tensors.insert(name, tensor);
    }
    Ok(VarBuilder::from_tensors(tensors, dtype, &Device::Cpu))
}

/// One tensor as stored; its bytes are let go before it is converted.
fn read_tensor(file: &mut File, data: u64, size: u64, entry: &Entry) -> Result<Tensor, String> {
    let stored = match entry.dtype.as_str() {
        "F32" => DType::F32,
        "F16" => DType::F16,
        "BF16" => DType::BF16,
        "F64" => DType::F64,
        "I64" => DType::I64,
        "U32" => DType::U32,
        "U8" => DType::U8,
        other => return Err(format!("unsupported type {other}")),
    };
    let [begin, end] = entry.data_offsets;
    let elements: usize = entry.shape.iter().product();
    if end < begin || data + end > size || (end - begin) as usize != elements * stored.size_in_bytes() {
        return Err("its bytes do not match its shape or lie outside the file".into());
    }
    let mut bytes = vec![0u8; (end - begin) as usize];
    file.seek(SeekFrom::Start(data + begin)).and_then(|_| file.read_exact(&mut bytes)).map_err(|e| e.to_string())?;
    Tensor::from_raw_buffer(&bytes, stored, &entry.shape, &Device::Cpu).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tensors_read_one_by_one_equal_those_candle_reads_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("model.safetensors");
        let big = Tensor::arange(0f32, 600.0, &Device::Cpu).unwrap().reshape((20, 30)).unwrap();
        let small = Tensor::new(&[1.5f32, -2.25, 3.0], &Device::Cpu).unwrap();
        let ids = Tensor::new(&[0i64, 1, 2, 3], &Device::Cpu).unwrap();
        let stored = HashMap::from([
            ("big".to_string(), big.to_dtype(DType::F16).unwrap()),
            ("small".to_string(), small.to_dtype(DType::BF16).unwrap()),
            ("ids".to_string(), ids),
        ]);
        candle_core::safetensors::save(&stored, &path).unwrap();
        let vb = read(&path, DType::F32).unwrap();
        let read_big: Vec<Vec<f32>> = vb.get((20, 30), "big").unwrap().to_vec2().unwrap();
        assert_eq!(read_big, big.to_vec2::<f32>().unwrap());
        assert_eq!(vb.get(3, "small").unwrap().to_vec1::<f32>().unwrap(), [1.5, -2.25, 3.0]);
        let ids = vb.get_unchecked_dtype("ids", DType::I64).unwrap();
        assert_eq!(ids.to_vec1::<i64>().unwrap(), [0, 1, 2, 3]);
    }

    #[test]
    fn a_file_cut_short_or_not_safetensors_is_refused_with_a_reason() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("model.safetensors");
        let tensors = HashMap::from([("w".to_string(), Tensor::zeros((64, 64), DType::F32, &Device::Cpu).unwrap())]);
        candle_core::safetensors::save(&tensors, &path).unwrap();
        let whole = std::fs::read(&path).unwrap();
        std::fs::write(&path, &whole[..whole.len() - 100]).unwrap();
        assert!(read(&path, DType::F32).err().unwrap().contains("outside the file"));
        std::fs::write(&path, b"{\"not\": \"weights\"}").unwrap();
        assert!(read(&path, DType::F32).err().unwrap().starts_with("not a safetensors file"));
    }
}

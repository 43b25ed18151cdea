//! Reading business cards on the box: the photo is decoded (honouring its
//! EXIF orientation), prepared for OCR, read by the `tesseract` program
//! (run, not linked, so the binary starts without it), and the text turned
//! into client fields.

pub mod fields;

use std::io::{Cursor, Write};
use std::process::{Command, Stdio};

use image::{DynamicImage, ImageDecoder, ImageReader};

pub use fields::CardFields;

/// The program, found on PATH.
const TESSERACT: &str = "tesseract";
/// Words read with less mean confidence than this send us to try rotations.
const CONFIDENT: f32 = 70.0;

#[derive(Debug, thiserror::Error)]
pub enum OcrError {
    #[error("Business-card scanning needs Tesseract on the server: install the Debian packages tesseract-ocr and tesseract-ocr-eng")]
    NotInstalled,
    #[error("{0}")]
    Unreadable(String),
    #[error("tesseract failed: {0}")]
    Failed(String),
}

/// Tesseract's version line, or `None` when it is not installed.
pub fn tesseract_version() -> Option<String> {
    let out = Command::new(TESSERACT).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    text.lines().next().map(str::to_owned)
}

/// Reads the card in `bytes` (JPEG, PNG or WebP).
pub fn scan(bytes: &[u8]) -> Result<CardFields, OcrError> {
    let image = prepare(decode_upright(bytes)?);
    let mut best = read(&image)?;
    if best.confidence < CONFIDENT {
        for turned in [image.rotate90(), image.rotate180(), image.rotate270()] {
            let reading = read(&turned)?;
            if reading.score() > best.score() {
                best = reading;
            }
        }
    }
    Ok(fields::extract(&best.text))
}

/// Decodes a photo and turns it as its EXIF orientation says, the way a
/// phone shows it.
pub fn decode_upright(bytes: &[u8]) -> Result<DynamicImage, OcrError> {
    let unreadable = |e: image::ImageError| OcrError::Unreadable(format!("the image cannot be read: {e}"));
    let reader = ImageReader::new(Cursor::new(bytes)).with_guessed_format().map_err(|e| OcrError::Unreadable(e.to_string()))?;
    let mut decoder = reader.into_decoder().map_err(unreadable)?;
    let orientation = decoder.orientation().map_err(unreadable)?;
    let mut image = DynamicImage::from_decoder(decoder).map_err(unreadable)?;
    image.apply_orientation(orientation);
    Ok(image)
}

/// Gray, at a size where card text is 20–40 pixels high, with its
/// contrast stretched: what Tesseract reads best.
fn prepare(image: DynamicImage) -> DynamicImage {
    let (w, _) = (image.width(), image.height());
    let target = w.clamp(1800, 2600);
    let scaled = if w == target { image } else { image.resize(target, target * 4, image::imageops::FilterType::Triangle) };
    let mut gray = scaled.to_luma8();
    let mut histogram = [0u32; 256];
    gray.pixels().for_each(|p| histogram[p.0[0] as usize] += 1);
    let total: u32 = histogram.iter().sum();
    let percentile = |fraction: f32| {
        let mut seen = 0;
        for (value, count) in histogram.iter().enumerate() {
            seen += count;
            if seen as f32 >= total as f32 * fraction {
                return value as f32;
            }
        }
        255.0
    };
    let (low, high) = (percentile(0.01), percentile(0.99));
    if high - low > 10.0 {
        for p in gray.pixels_mut() {
            p.0[0] = (((p.0[0] as f32 - low) / (high - low)) * 255.0).clamp(0.0, 255.0) as u8;
        }
    }
    DynamicImage::ImageLuma8(gray)
}

struct Reading {
    text: String,
    confidence: f32,
    words: usize,
}

impl Reading {
    /// Confident readings of more words win.
    fn score(&self) -> f32 {
        self.confidence * (self.words.min(12) as f32 / 12.0)
    }
}

fn read(image: &DynamicImage) -> Result<Reading, OcrError> {
    let mut png = Vec::new();
    image.write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png).map_err(|e| OcrError::Failed(e.to_string()))?;
    let mut child = Command::new(TESSERACT)
        .args(["stdin", "stdout", "-l", "eng", "--psm", "3", "tsv"])
        // One thread each: on a small box, parallel scans beat OpenMP.
        .env("OMP_THREAD_LIMIT", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| if e.kind() == std::io::ErrorKind::NotFound { OcrError::NotInstalled } else { OcrError::Failed(e.to_string()) })?;
    let mut stdin = child.stdin.take().ok_or_else(|| OcrError::Failed("no stdin".into()))?;
    let writer = std::thread::spawn(move || stdin.write_all(&png));
    let out = child.wait_with_output().map_err(|e| OcrError::Failed(e.to_string()))?;
    let _ = writer.join();
    if !out.status.success() {
        return Err(OcrError::Failed(String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or_default().to_owned()));
    }
    Ok(parse_tsv(&String::from_utf8_lossy(&out.stdout)))
}

/// Tesseract's TSV: one row per word with its block, paragraph and line
/// numbers and its confidence; rebuilt into lines of text.
fn parse_tsv(tsv: &str) -> Reading {
    let mut lines: Vec<((u32, u32, u32), Vec<String>)> = Vec::new();
    let (mut confidence_sum, mut words) = (0.0f32, 0usize);
    for row in tsv.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        if cols.len() < 12 || cols[0] != "5" {
            continue;
        }
        let word = cols[11].trim();
        let conf: f32 = cols[10].parse().unwrap_or(-1.0);
        if word.is_empty() || conf < 0.0 {
            continue;
        }
        let key = (cols[2].parse().unwrap_or(0), cols[3].parse().unwrap_or(0), cols[4].parse().unwrap_or(0));
        match lines.last_mut() {
            Some((k, ws)) if *k == key => ws.push(word.to_owned()),
            _ => lines.push((key, vec![word.to_owned()])),
        }
        confidence_sum += conf;
        words += 1;
    }
    let text = lines.into_iter().map(|(_, ws)| ws.join(" ")).collect::<Vec<_>>().join("\n");
    Reading { text, confidence: if words == 0 { 0.0 } else { confidence_sum / words as f32 }, words }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tesseract_rows_become_lines_with_a_mean_confidence() {
        let tsv = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n\
                   1\t1\t0\t0\t0\t0\t0\t0\t100\t100\t-1\t\n\
                   5\t1\t1\t1\t1\t1\t0\t0\t10\t10\t90\tJane\n\
                   5\t1\t1\t1\t1\t2\t0\t0\t10\t10\t80\tDoe\n\
                   5\t1\t1\t1\t2\t1\t0\t0\t10\t10\t70\tCEO\n";
        let reading = parse_tsv(tsv);
        assert_eq!(reading.text, "Jane Doe\nCEO");
        assert_eq!(reading.words, 3);
        assert!((reading.confidence - 80.0).abs() < 0.01);
    }

    #[test]
    fn a_file_that_is_no_image_is_unreadable() {
        assert!(matches!(decode_upright(b"<html></html>"), Err(OcrError::Unreadable(_))));
    }
}

//! Reading business cards on the box: the photo is decoded (honouring its
//! EXIF orientation), prepared for OCR, read by the `tesseract` program
//! (run, not linked, so the binary starts without it), and the text turned
//! into client fields.

pub mod fields;
mod prepare;
mod skew;
mod worker;

use std::io::Write;
use std::process::{Command, Stdio};

use image::GrayImage;
use image::imageops;

pub use fields::CardFields;
pub use prepare::decode_upright;
pub use worker::Scanner;

/// The program, found on PATH.
const TESSERACT: &str = "tesseract";
/// Words read with less mean confidence than this send us to read the card
/// turned half round too.
const CONFIDENT: f32 = 70.0;

#[derive(Debug, thiserror::Error)]
pub enum OcrError {
    #[error(
        "Business-card scanning needs Tesseract on the server: install the Debian packages tesseract-ocr and tesseract-ocr-eng"
    )]
    NotInstalled,
    #[error("{0}")]
    Unreadable(String),
    #[error("The photo has too many pixels to be read: take it at 100 megapixels or less")]
    TooLarge,
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
    let image = prepare::prepare(bytes)?;
    let mut best = read(&image)?;
    // Tesseract's layout analysis finds a card turned a quarter clockwise
    // by itself; one upside down or turned a quarter the other way it reads
    // as gibberish of low confidence, and half a turn brings either to a
    // way it reads.
    if best.confidence < CONFIDENT {
        let turned = read(&imageops::rotate180(&image))?;
        if turned.score() > best.score() {
            best = turned;
        }
    }
    Ok(fields::extract(&best.text))
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

fn read(image: &GrayImage) -> Result<Reading, OcrError> {
    // Uncompressed PGM: Tesseract reads it from stdin as readily as PNG,
    // and neither side spends time on compression.
    let mut pgm = format!("P5\n{} {}\n255\n", image.width(), image.height()).into_bytes();
    pgm.extend_from_slice(image.as_raw());
    let mut child = Command::new(TESSERACT)
        .args(["stdin", "stdout", "-l", "eng", "--psm", "3", "tsv"])
        // Tesseract's OpenMP threads spin while they wait for work: on a
        // 2-core box that also runs transcriptions, two threads took 3 to 5
        // times the CPU and the time of one.
        .env("OMP_THREAD_LIMIT", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                OcrError::NotInstalled
            } else {
                OcrError::Failed(e.to_string())
            }
        })?;
    let mut stdin = child.stdin.take().ok_or_else(|| OcrError::Failed("no stdin".into()))?;
    let writer = std::thread::spawn(move || stdin.write_all(&pgm));
    let out = child.wait_with_output().map_err(|e| OcrError::Failed(e.to_string()))?;
    let _ = writer.join();
    if !out.status.success() {
        return Err(OcrError::Failed(
            String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or_default().to_owned(),
        ));
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
}

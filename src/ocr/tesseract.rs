//! The `tesseract` program, run (not linked, so the binary starts without
//! it) on one thread, reading a gray image from its standard input.

use std::io::Write;
use std::process::{Command, Stdio};

use image::GrayImage;

use super::OcrError;
use super::reading::{Reading, parse_tsv};

/// The program, found on PATH.
const PROGRAM: &str = "tesseract";

/// Debian's Latin-script model (tesseract-ocr-script-latn): English and the
/// languages of Europe written in Latin letters, accents and all.
pub const LATIN: &str = "Latin";
/// The English model alone reads "Dupré" as "Dupre".
pub const ENGLISH: &str = "eng";

/// How Tesseract finds the lines on what it is given.
#[derive(Debug, Clone, Copy)]
pub enum Layout {
    /// A page of blocks it finds itself: a card.
    Page,
    /// One block of lines of similar size: lines cut out of a card.
    Block,
}

/// Tesseract's version line, or `None` when it is not installed.
pub fn version() -> Option<String> {
    let out = Command::new(PROGRAM).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    text.lines().next().map(str::to_owned)
}

/// The language data installed, `None` when Tesseract is not.
pub fn installed_languages() -> Option<Vec<String>> {
    let out = Command::new(PROGRAM).arg("--list-langs").output().ok()?;
    // The list follows a heading line ("List of available languages …").
    let text = String::from_utf8_lossy(&out.stdout);
    Some(text.lines().skip(1).map(|l| l.trim().to_owned()).filter(|l| !l.is_empty()).collect())
}

/// The language data scans read with: the Latin script when installed,
/// else English.
pub fn language() -> Result<&'static str, OcrError> {
    let installed = installed_languages().ok_or(OcrError::NotInstalled)?;
    [LATIN, ENGLISH].into_iter().find(|l| installed.iter().any(|i| i == l)).ok_or(OcrError::NotInstalled)
}

/// Reads `image` with the `language` data.
pub fn read(image: &GrayImage, language: &str, layout: Layout) -> Result<Reading, OcrError> {
    // Uncompressed PGM: Tesseract reads it from stdin as readily as PNG,
    // and neither side spends time on compression.
    let mut pgm = format!("P5\n{} {}\n255\n", image.width(), image.height()).into_bytes();
    pgm.extend_from_slice(image.as_raw());
    let psm = match layout {
        Layout::Page => "3",
        Layout::Block => "6",
    };
    let mut child = Command::new(PROGRAM)
        .args(["stdin", "stdout", "-l", language, "--psm", psm, "tsv"])
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

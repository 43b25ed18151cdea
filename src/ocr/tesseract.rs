//! The `tesseract` program, run (not linked, so the binary starts without
//! it) on one thread, reading a gray image from its standard input.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use image::GrayImage;

use super::reading::{Reading, parse_tsv};
use super::{OcrError, tessdata};

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

/// What Tesseract has installed: where its language data lives and which.
pub struct Installed {
    pub folder: Option<PathBuf>,
    pub languages: Vec<String>,
}

/// The language data installed, `None` when Tesseract is not.
pub fn installed() -> Option<Installed> {
    let out = Command::new(PROGRAM).arg("--list-langs").output().ok()?;
    // The list follows a heading line naming the folder:
    // List of available languages in "/usr/share/tesseract-ocr/5/tessdata/" (11):
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    let folder = lines.next().and_then(|heading| heading.split('"').nth(1)).map(PathBuf::from);
    let languages = lines.map(|l| l.trim().to_owned()).filter(|l| !l.is_empty()).collect();
    Some(Installed { folder, languages })
}

/// The language data a scan reads with, and the folder it is in when that
/// is not Tesseract's own.
#[derive(Debug, Clone)]
pub struct Language {
    pub name: &'static str,
    folder: Option<PathBuf>,
}

impl Language {
    /// The Latin script when installed, else English. The Latin data is
    /// read from its lean copy in `lean_folder` when one can be made there.
    pub fn choose(lean_folder: &Path) -> Result<Self, OcrError> {
        let installed = installed().ok_or(OcrError::NotInstalled)?;
        let name = [LATIN, ENGLISH]
            .into_iter()
            .find(|l| installed.languages.iter().any(|i| i == l))
            .ok_or(OcrError::NotInstalled)?;
        let folder =
            installed.folder.filter(|_| name == LATIN).and_then(|from| tessdata::lean_copy(&from, name, lean_folder));
        Ok(Self { name, folder })
    }
}

/// Reads `image` with the `language` data.
pub fn read(image: &GrayImage, language: &Language, layout: Layout) -> Result<Reading, OcrError> {
    // Uncompressed PGM: Tesseract reads it from stdin as readily as PNG,
    // and neither side spends time on compression.
    let mut pgm = format!("P5\n{} {}\n255\n", image.width(), image.height()).into_bytes();
    pgm.extend_from_slice(image.as_raw());
    let psm = match layout {
        Layout::Page => "3",
        Layout::Block => "6",
    };
    let mut command = Command::new(PROGRAM);
    if let Some(folder) = &language.folder {
        command.arg("--tessdata-dir").arg(folder);
    }
    // The tab-separated output asked for by its setting, not by the `tsv`
    // configuration file, which a lean data folder does not hold.
    let mut child = command
        .args(["stdin", "stdout", "-l", language.name, "--psm", psm, "-c", "tessedit_create_tsv=1"])
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

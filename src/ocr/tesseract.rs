//! The `tesseract` program, run (not linked, so the binary starts without
//! it) on one thread, reading a gray image from its standard input.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

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

/// Reads for one scan: its language, and whether its client still waits.
pub struct Reader<'a> {
    pub language: &'a Language,
    pub abandoned: super::Abandoned<'a>,
}

/// How often a running Tesseract is asked whether its client still waits.
const WATCH: Duration = Duration::from_millis(20);

impl Reader<'_> {
    /// The text of `image`, laid out as `layout` says; Tesseract is killed
    /// as soon as the scan is abandoned.
    pub fn read(&self, image: &GrayImage, layout: Layout) -> Result<Reading, OcrError> {
        if (self.abandoned)() {
            return Err(OcrError::Abandoned);
        }
        let language = self.language;
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
        let (stdout, stderr) = (drain(child.stdout.take()), drain(child.stderr.take()));
        let status = loop {
            match child.try_wait().map_err(|e| OcrError::Failed(e.to_string()))? {
                Some(status) => break status,
                None if (self.abandoned)() => {
                    // Its pipes close with it, so the threads below end too.
                    let _ = child.kill();
                    let _ = child.wait();
                    let _ = (writer.join(), stdout.join(), stderr.join());
                    return Err(OcrError::Abandoned);
                }
                None => std::thread::sleep(WATCH),
            }
        };
        let _ = writer.join();
        let (stdout, stderr) = (stdout.join().unwrap_or_default(), stderr.join().unwrap_or_default());
        if !status.success() {
            return Err(OcrError::Failed(
                String::from_utf8_lossy(&stderr).lines().last().unwrap_or_default().to_owned(),
            ));
        }
        Ok(parse_tsv(&String::from_utf8_lossy(&stdout)))
    }
}

/// Reads a child's pipe to its end on a thread of its own, so neither pipe
/// fills while the other is waited on.
fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    })
}

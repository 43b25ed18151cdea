//! Mutated multipart bodies sent to the two upload endpoints: broken
//! framing, odd boundaries, hostile file names, wrong types, flipped bytes
//! in real WAV and JPEG files. Whatever arrives, the server answers below
//! 500 with a JSON message on a 4xx, never repeats the file's name, writes
//! no file of its own, and stays up.

use std::collections::BTreeSet;
use std::path::Path;

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use serde_json::Value;

use crate::browser::signed_in_user;
use crate::clients::{ELF, create};
use crate::harness::{client, spawn_app};

/// Every hostile file name holds this, so a reply that repeats one shows.
const MARK: &str = "evil";

#[derive(Debug, Clone, Copy, PartialEq)]
enum Target {
    Recording,
    Card,
}

impl Target {
    fn field(self) -> &'static str {
        match self {
            Target::Recording => "recording",
            Target::Card => "businessCard",
        }
    }
}

#[derive(Debug, Clone)]
enum Content {
    Wav,
    Jpeg,
    /// The file with bytes (at the indices) set to the values.
    Flipped(bool, Vec<(Index, u8)>),
    /// The JPEG with the height and width its frame header gives changed.
    Resized(u16, u16),
    /// The file cut at the index.
    Cut(bool, Index),
    Bytes(Vec<u8>),
    Text(&'static str),
}

#[derive(Debug, Clone)]
struct Part {
    name: Option<String>,
    filename: Option<String>,
    content_type: Option<&'static str>,
    content: Content,
}

/// What is done to the body once it is built.
#[derive(Debug, Clone)]
enum Framing {
    Intact,
    CutAt(Index),
    /// One of its CRLFs dropped.
    DropCrlf(Index),
    LfOnly,
    NoClosingBoundary,
    /// The boundary line inside the first part's content.
    BoundaryInContent(Index),
    Preamble,
    DoubleDashes,
}

#[derive(Debug, Clone)]
enum Header {
    /// Quoted when the boundary needs it, as browsers do.
    Multipart,
    Unquoted,
    Quoted,
    NoBoundary,
    OtherBoundary,
    Json,
    Missing,
}

#[derive(Debug, Clone)]
struct Case {
    target: Target,
    boundary: String,
    header: Header,
    parts: Vec<Part>,
    framing: Framing,
}

fn filename() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        3 => Just(None),
        2 => Just(Some("recording.wav".to_owned())),
        1 => Just(Some("card.jpg".to_owned())),
        2 => Just(Some(format!("../../{MARK}.sh"))),
        1 => Just(Some(format!("..\\..\\{MARK}.exe"))),
        1 => Just(Some(format!("/etc/{MARK}"))),
        1 => Just(Some(String::new())),
        1 => (1usize..5000).prop_map(|n| Some(format!("{MARK}{}", "A".repeat(n)))),
        1 => Just(Some(format!("{MARK}\u{202e}gpj.sh"))),
        1 => Just(Some(format!("{MARK}\".wav"))),
        1 => Just(Some(format!("{MARK}\r\nContent-Type: text/html"))),
        1 => "[^\"\r\n]{0,40}".prop_map(|s| Some(format!("{MARK}{s}"))),
    ]
}

fn content(target: Target) -> impl Strategy<Value = Content> {
    // A scan that decodes runs Tesseract (a second or two): few of them.
    let (wav, jpeg, resized) = if target == Target::Recording { (6, 1, 1) } else { (1, 1, 3) };
    prop_oneof![
        wav => Just(Content::Wav),
        jpeg => Just(Content::Jpeg),
        4 => (any::<bool>(), proptest::collection::vec((any::<Index>(), any::<u8>()), 1..4)).prop_map(|(wav, at)| Content::Flipped(wav, at)),
        // One side small, the other anything a fuzzer would try. (Both
        // large is a picture of hundreds of megapixels: refused, or read
        // and scanned, which takes seconds.)
        resized => (0u16..=20, prop_oneof![0u16..=20, Just(1000), Just(16_384), Just(16_385), Just(u16::MAX)], any::<bool>())
            .prop_map(|(small, other, tall)| if tall { Content::Resized(other, small) } else { Content::Resized(small, other) }),
        3 => (any::<bool>(), any::<Index>()).prop_map(|(wav, at)| Content::Cut(wav, at)),
        2 => proptest::collection::vec(any::<u8>(), 0..300).prop_map(Content::Bytes),
        1 => prop_oneof![
            Just(Content::Text("<html><script>alert(1)</script></html>")),
            Just(Content::Text("<svg xmlns='http://www.w3.org/2000/svg'/>")),
            Just(Content::Text("\0\0\0\x18ftypheic\0\0\0\0")),
            Just(Content::Text("RIFF\x04\0\0\0WAVE")),
            Just(Content::Text("")),
        ],
        1 => Just(Content::Bytes([ELF, &[0u8; 64]].concat())),
    ]
}

fn part(target: Target) -> impl Strategy<Value = Part> {
    let name = prop_oneof![
        6 => Just(Some(target.field().to_owned())),
        1 => Just(Some("recording".to_owned())),
        1 => Just(Some("businessCard".to_owned())),
        1 => Just(Some("userId".to_owned())),
        1 => Just(None),
        1 => "[a-zA-Z ]{0,12}".prop_map(Some),
    ];
    let content_type = prop_oneof![
        Just(None),
        Just(Some("audio/wav")),
        Just(Some("image/jpeg")),
        Just(Some("text/html")),
        Just(Some("application/x-sh")),
        Just(Some("multipart/mixed; boundary=inner")),
    ];
    (name, filename(), content_type, content(target)).prop_map(|(name, filename, content_type, content)| Part {
        name,
        filename,
        content_type,
        content,
    })
}

fn case() -> impl Strategy<Value = Case> {
    prop_oneof![3 => case_for(Target::Recording), 1 => case_for(Target::Card)]
}

fn case_for(target: Target) -> impl Strategy<Value = Case> {
    let boundary = prop_oneof![
        3 => Just("----fuzz-boundary".to_owned()),
        1 => Just("x".to_owned()),
        1 => Just("a".repeat(70)),
        1 => Just("with space".to_owned()),
        2 => "[A-Za-z0-9_-]{1,70}",
        1 => "[A-Za-z0-9'()+_,./:=? -]{1,70}",
    ];
    let header = prop_oneof![
        8 => Just(Header::Multipart),
        1 => Just(Header::Unquoted),
        1 => Just(Header::Quoted),
        1 => Just(Header::NoBoundary),
        1 => Just(Header::OtherBoundary),
        1 => Just(Header::Json),
        1 => Just(Header::Missing),
    ];
    let framing = prop_oneof![
        4 => Just(Framing::Intact),
        2 => any::<Index>().prop_map(Framing::CutAt),
        2 => any::<Index>().prop_map(Framing::DropCrlf),
        1 => Just(Framing::LfOnly),
        1 => Just(Framing::NoClosingBoundary),
        1 => any::<Index>().prop_map(Framing::BoundaryInContent),
        1 => Just(Framing::Preamble),
        1 => Just(Framing::DoubleDashes),
    ];
    (boundary, header, proptest::collection::vec(part(target), 0..3), framing)
        .prop_map(move |(boundary, header, parts, framing)| Case { target, boundary, header, parts, framing })
}

/// A quarter of a second of 16 kHz speech-like tone, as the recorder makes.
fn wav() -> Vec<u8> {
    crate::clients::wav(0.25)
}

/// A small card-shaped photo: paper with a few dark bars of "text".
fn jpeg() -> Vec<u8> {
    let image = image::GrayImage::from_fn(105, 60, |x, y| {
        image::Luma([if (10..95).contains(&x) && y % 12 < 4 && y > 8 { 30 } else { 235 }])
    });
    let mut out = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageLuma8(image).write_to(&mut out, image::ImageFormat::Jpeg).unwrap();
    out.into_inner()
}

fn bytes_of(content: &Content, wav: &[u8], jpeg: &[u8]) -> Vec<u8> {
    let file = |is_wav: bool| if is_wav { wav.to_vec() } else { jpeg.to_vec() };
    match content {
        Content::Wav => wav.to_vec(),
        Content::Jpeg => jpeg.to_vec(),
        Content::Flipped(is_wav, at) => {
            let mut bytes = file(*is_wav);
            for (i, value) in at {
                let i = i.index(bytes.len());
                bytes[i] = *value;
            }
            bytes
        }
        Content::Resized(height, width) => {
            let mut bytes = jpeg.to_vec();
            let sof = bytes.windows(2).position(|w| w == [0xFF, 0xC0]).expect("a baseline JPEG");
            bytes[sof + 5..sof + 7].copy_from_slice(&height.to_be_bytes());
            bytes[sof + 7..sof + 9].copy_from_slice(&width.to_be_bytes());
            bytes
        }
        Content::Cut(is_wav, at) => {
            let bytes = file(*is_wav);
            bytes[..at.index(bytes.len() + 1)].to_vec()
        }
        Content::Bytes(bytes) => bytes.clone(),
        Content::Text(text) => text.as_bytes().to_vec(),
    }
}

fn body(case: &Case, wav: &[u8], jpeg: &[u8]) -> Vec<u8> {
    let b = &case.boundary;
    let mut body = Vec::new();
    if matches!(case.framing, Framing::Preamble) {
        body.extend_from_slice(b"a preamble a client may send\r\n");
    }
    for (i, part) in case.parts.iter().enumerate() {
        body.extend_from_slice(format!("--{b}\r\nContent-Disposition: form-data").as_bytes());
        if let Some(name) = &part.name {
            body.extend_from_slice(format!("; name=\"{name}\"").as_bytes());
        }
        if let Some(filename) = &part.filename {
            body.extend_from_slice(format!("; filename=\"{filename}\"").as_bytes());
        }
        body.extend_from_slice(b"\r\n");
        if let Some(content_type) = part.content_type {
            body.extend_from_slice(format!("Content-Type: {content_type}\r\n").as_bytes());
        }
        body.extend_from_slice(b"\r\n");
        let mut content = bytes_of(&part.content, wav, jpeg);
        if let (0, Framing::BoundaryInContent(at)) = (i, &case.framing) {
            let at = at.index(content.len() + 1);
            content.splice(at..at, format!("\r\n--{b}\r\n").into_bytes());
        }
        body.extend_from_slice(&content);
        body.extend_from_slice(b"\r\n");
    }
    match case.framing {
        Framing::NoClosingBoundary => {}
        Framing::DoubleDashes => body.extend_from_slice(format!("--{b}--\r\n--{b}--\r\n").as_bytes()),
        _ => body.extend_from_slice(format!("--{b}--\r\n").as_bytes()),
    }
    match case.framing {
        Framing::CutAt(at) => body.truncate(at.index(body.len() + 1)),
        Framing::DropCrlf(at) => {
            let crlfs: Vec<usize> =
                body.windows(2).enumerate().filter(|(_, w)| *w == b"\r\n").map(|(i, _)| i).collect();
            if !crlfs.is_empty() {
                let i = crlfs[at.index(crlfs.len())];
                body.drain(i..i + 2);
            }
        }
        Framing::LfOnly => {
            let mut lf = Vec::with_capacity(body.len());
            for (i, &byte) in body.iter().enumerate() {
                if !(byte == b'\r' && body.get(i + 1) == Some(&b'\n')) {
                    lf.push(byte);
                }
            }
            body = lf;
        }
        _ => {}
    }
    body
}

fn content_type(case: &Case) -> Option<String> {
    let b = &case.boundary;
    match case.header {
        Header::Multipart if b.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) => {
            Some(format!("multipart/form-data; boundary={b}"))
        }
        Header::Multipart | Header::Quoted => Some(format!("multipart/form-data; boundary=\"{b}\"")),
        Header::Unquoted => Some(format!("multipart/form-data; boundary={b}")),
        Header::NoBoundary => Some("multipart/form-data".to_owned()),
        Header::OtherBoundary => Some("multipart/form-data; boundary=not-the-one-used".to_owned()),
        Header::Json => Some("application/json".to_owned()),
        Header::Missing => None,
    }
}

/// Caps the memory the process `pid` may map.
fn limit_address_space(pid: u32, bytes: u64) {
    let limit = libc::rlimit { rlim_cur: bytes, rlim_max: bytes };
    // SAFETY: prlimit only reads `limit`, and no old value is asked for.
    let done = unsafe { libc::prlimit(pid as libc::pid_t, libc::RLIMIT_AS, &limit, std::ptr::null_mut()) };
    assert_eq!(done, 0, "prlimit: {}", std::io::Error::last_os_error());
}

/// Every file under `dir`, relative to it.
fn files(dir: &Path) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(at) = pending.pop() {
        for entry in std::fs::read_dir(&at).unwrap().map(Result::unwrap) {
            if entry.file_type().unwrap().is_dir() {
                pending.push(entry.path());
            } else {
                found.insert(entry.path().strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    found
}

#[test]
fn mutated_uploads_get_a_json_4xx_or_are_stored_and_the_server_stays_up() {
    let app = spawn_app();
    // Far more than any upload needs: a server that reaches it aborts, and
    // the next request shows it.
    limit_address_space(app.pid(), 3 << 30);
    let mut user = signed_in_user(&app.url, "fuzz@example.com", "correct horse");
    let id = create(&mut user, "Fuzz Client");
    let cookie = user.cookie.clone().unwrap();
    let (wav, jpeg) = (wav(), jpeg());
    let before = files(&app.data_dir);

    // Not shrunk: the server keeps state between cases (a case that stops it
    // fails every later one), so the case reported is the first that failed.
    let config = Config { cases: 200, failure_persistence: None, max_shrink_iters: 0, ..Config::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let result = runner.run(&case(), |case| {
        let path = match case.target {
            Target::Recording => format!("/api/clients/{id}/recording"),
            Target::Card => "/api/business-card/scan".to_owned(),
        };
        let mut req = client()
            .post(format!("{}{path}", app.url))
            .header("Cookie", format!("debrief_session={cookie}"))
            .header("Origin", &app.url);
        if let Some(content_type) = content_type(&case) {
            req = req.header("Content-Type", content_type);
        }
        let mut res =
            req.send(&body(&case, &wav, &jpeg)[..]).map_err(|e| TestCaseError::fail(format!("no answer: {e}")))?;
        let status = res.status().as_u16();
        let text = res.body_mut().read_to_string().unwrap_or_default();
        prop_assert!(status < 500, "{status}: {text}");
        if status >= 400 {
            let json: Value = serde_json::from_str(&text)
                .map_err(|e| TestCaseError::fail(format!("{status} without JSON ({e}): {text}")))?;
            prop_assert!(json["message"].is_string(), "{}: {}", status, text);
        }
        prop_assert!(!text.to_lowercase().contains(MARK), "the reply repeats the file's name: {}", text);
        if status == 200 && case.target == Target::Recording && matches!(case.framing, Framing::Intact) {
            let stored = case.parts.iter().find(|p| p.name.as_deref() == Some("recording")).unwrap();
            let json: Value = serde_json::from_str(&text).unwrap();
            prop_assert_eq!(
                json["size"].as_u64(),
                Some(bytes_of(&stored.content, &wav, &jpeg).len() as u64),
                "{}",
                text
            );
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}\n\nserver output:\n{}", app.printed());
    }

    let health = client().get(format!("{}/api/health", app.url)).call().unwrap();
    assert_eq!(health.status().as_u16(), 200);
    let after = files(&app.data_dir);
    // The card reader's lean copy of its language data, written at the first
    // scan, is the server's own file, and stored uploads are blob files.
    let stray: Vec<&String> =
        after.difference(&before).filter(|f| !f.starts_with("tessdata/") && !f.starts_with("blobs/")).collect();
    assert!(stray.is_empty(), "uploads left files in the data directory: {stray:?}");
    let pending: Vec<&String> = after.iter().filter(|f| f.ends_with(".part")).collect();
    assert!(pending.is_empty(), "refused uploads left their bytes: {pending:?}");
    // A start sweeps every file no record names: none may be left to sweep.
    let (data_dir, mut app) = (app.data_dir.clone(), app);
    assert!(app.terminate().success());
    let mut again = crate::harness::spawn_with(&data_dir, &["--http"]).unwrap();
    let swept = again.printed();
    assert!(again.terminate().success());
    assert!(!swept.contains("removed the chunks of interrupted uploads"), "orphan files were left: {swept}");
}

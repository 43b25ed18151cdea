//! Business cards made with ImageMagick (several fonts and layouts; turned,
//! blurred, noisy, faint, photographed at an angle on a table) and read back
//! by the real Tesseract through the scanning code and the endpoint.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::json;

use crate::browser::signed_in_user;
use debrief::ocr::tesseract::{self, Language};

use crate::harness::{client, spawn_app};

/// Debian's ImageMagick (a stand-in `convert` may come first on PATH).
const CONVERT: &str = "/usr/bin/convert";

struct Card {
    name: &'static str,
    position: &'static str,
    company: &'static str,
    email: &'static str,
    phone: &'static str,
    /// Another line: a fax number, a web address, an address.
    extra: &'static str,
    font: &'static str,
    centred: bool,
    effect: &'static [&'static str],
}

const FONTS: [&str; 4] = ["DejaVu-Sans", "DejaVu-Serif", "DejaVu-Sans-Mono", "DejaVu-Sans-Bold"];
const TABLE: &[&str] = &["-bordercolor", "#6b5a48", "-border", "140"];
const ANGLE: &[&str] = &[
    "-bordercolor",
    "#8a7f70",
    "-border",
    "60",
    "-virtual-pixel",
    "background",
    "-background",
    "#8a7f70",
    "-distort",
    "Perspective",
    "0,0 40,30  1170,0 1120,60  0,720 20,700  1170,720 1150,650",
];

fn cards() -> Vec<Card> {
    let people = [
        (
            "Jane Doe",
            "Chief Technology Officer",
            "Globex Corporation",
            "jane.doe@globex.com",
            "+1 (555) 123-4567",
            "www.globex.com",
        ),
        (
            "Ana Lopez",
            "Managing Partner",
            "Lopez & Reyes LLP",
            "ana@lopezreyes.com",
            "+34 612 345 678",
            "Fax: +34 911 000 111",
        ),
        (
            "Michael Grant",
            "Sales Director",
            "Grant Holdings Ltd",
            "m.grant@grantholdings.co.uk",
            "+44 7700 900123",
            "12 Baker Street, London",
        ),
        (
            "Priya Raman",
            "Senior Consultant",
            "Brightwave Solutions",
            "priya.raman@brightwave.io",
            "+91 98765 43210",
            "brightwave.io",
        ),
        (
            "Tom Becker",
            "Software Engineer",
            "Nordlicht GmbH",
            "tom.becker@nordlicht.de",
            "+49 30 1234 5678",
            "Fax: +49 30 1234 5600",
        ),
        (
            "Sofia Rossi",
            "Marketing Manager",
            "Vela Design Studio",
            "sofia@veladesign.it",
            "+39 333 123 4567",
            "www.veladesign.it",
        ),
        (
            "Liam O'Connor",
            "Founder and CEO",
            "Harbor Analytics Inc.",
            "liam@harboranalytics.com",
            "(617) 555-0199",
            "Boston, MA",
        ),
        (
            "Chloe Martin",
            "Product Designer",
            "Atelier Bleu SA",
            "chloe.martin@atelierbleu.fr",
            "+33 6 12 34 56 78",
            "Paris",
        ),
        (
            "David Kim",
            "Head of Operations",
            "Pinecrest Logistics LLC",
            "dkim@pinecrest.com",
            "+1 212 555 0147",
            "Fax: +1 212 555 0100",
        ),
        (
            "Emma Wilson",
            "Financial Analyst",
            "Summit Capital Partners",
            "emma.wilson@summitcap.com",
            "+1 415 555 0123",
            "www.summitcap.com",
        ),
        (
            "Lucas Silva",
            "Project Manager",
            "Oceano Engenharia SA",
            "lucas.silva@oceano.com.br",
            "+55 11 91234 5678",
            "Sao Paulo",
        ),
    ];
    let effects: [&[&str]; 11] = [
        &[],
        &["-rotate", "90"],
        &["-blur", "0x1.3"],
        &["-attenuate", "0.6", "+noise", "Gaussian"],
        &["+level", "40%,70%"],
        TABLE,
        ANGLE,
        &["-rotate", "180"],
        &["-rotate", "3", "-background", "white", "-flatten"],
        &["-quality", "70"],
        &["-blur", "0x0.8", "-attenuate", "0.4", "+noise", "Gaussian"],
    ];
    let mut all = Vec::new();
    for (round, effect_shift) in [(0usize, 0usize), (1, 5)] {
        for (i, p) in people.iter().enumerate() {
            all.push(Card {
                name: p.0,
                position: p.1,
                company: p.2,
                email: p.3,
                phone: p.4,
                extra: p.5,
                font: FONTS[(i + round) % FONTS.len()],
                centred: (i + round) % 3 == 0,
                effect: effects[(i + effect_shift) % effects.len()],
            });
        }
    }
    all
}

fn render(card: &Card, dir: &Path, n: usize) -> PathBuf {
    let path = dir.join(format!("card-{n:02}.{}", if n.is_multiple_of(2) { "jpg" } else { "png" }));
    let mut cmd = Command::new(CONVERT);
    cmd.args(["-size", "1050x600", "xc:white", "-fill", "#1d2733", "-font", card.font]);
    if card.centred {
        cmd.args(["-gravity", "North"]);
    }
    let x = if card.centred { 0 } else { 70 };
    for (size, y, text) in [
        (56, 70, card.name),
        (32, 150, card.position),
        (38, 230, card.company),
        (30, 360, card.email),
        (30, 420, card.phone),
        (28, 480, card.extra),
    ] {
        cmd.args(["-pointsize", &size.to_string(), "-annotate", &format!("+{x}+{y}"), text]);
    }
    cmd.args(["-gravity", "NorthWest"]).args(card.effect).arg(&path);
    let out = cmd.output().unwrap_or_else(|e| panic!("{CONVERT} cannot run ({e}); scripts/test installs imagemagick"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    path
}

#[test]
fn generated_cards_are_read_with_at_least_90_percent_of_fields_exact() {
    let dir = tempfile::tempdir().unwrap();
    let cards = cards();
    assert!(cards.len() >= 20);
    let paths: Vec<PathBuf> = cards.iter().enumerate().map(|(n, c)| render(c, dir.path(), n)).collect();

    let language = Language::choose(&dir.path().join("tessdata")).expect("tesseract is installed");
    let language = &language;
    let started = std::time::Instant::now();
    let results: Vec<debrief::ocr::CardFields> = std::thread::scope(|scope| {
        let halves: Vec<_> = paths
            .chunks(paths.len().div_ceil(2))
            .map(|chunk| {
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|p| {
                            debrief::ocr::scan(&std::fs::read(p).unwrap(), language, &|| false)
                                .expect("tesseract reads the card")
                                .fields
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        halves.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    let per_scan = started.elapsed() / cards.len() as u32 * 2;

    let mut exact = [0usize; 5];
    for (n, (card, got)) in cards.iter().zip(&results).enumerate() {
        let pairs = [
            (card.name, &got.name),
            (card.email, &got.email),
            (card.phone, &got.phone),
            (card.company, &got.company),
            (card.position, &got.position),
        ];
        for (field, (want, have)) in pairs.iter().enumerate() {
            if want == *have {
                exact[field] += 1;
            } else {
                println!("card {n:02} ({}, {:?}): expected {want:?}, read {have:?}", card.font, card.effect);
            }
        }
    }
    let total: usize = exact.iter().sum();
    let fields = ["name", "email", "phone", "company", "position"];
    for (field, count) in fields.iter().zip(exact) {
        println!("{field:<9} {count}/{} exact", cards.len());
    }
    let accuracy = total as f64 / (cards.len() * 5) as f64;
    println!("all fields: {:.1} % exact; a typical scan took {:?}", accuracy * 100.0, per_scan);
    assert!(accuracy >= 0.90, "only {:.1} % of fields exact", accuracy * 100.0);
}

fn post_card(base: &str, cookie: Option<&str>, bytes: &[u8], file_name: &str) -> (u16, serde_json::Value) {
    let boundary = "----card-boundary";
    let mut body = format!("--{boundary}\r\nContent-Disposition: form-data; name=\"businessCard\"; filename=\"{file_name}\"\r\nContent-Type: image/jpeg\r\n\r\n").into_bytes();
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    let mut req = client()
        .post(format!("{base}/api/business-card/scan"))
        .header("Origin", base)
        .header("Content-Type", format!("multipart/form-data; boundary={boundary}"));
    if let Some(cookie) = cookie {
        req = req.header("Cookie", format!("debrief_session={cookie}"));
    }
    let mut res = req.send(&body[..]).unwrap();
    let status = res.status().as_u16();
    (status, serde_json::from_str(&res.body_mut().read_to_string().unwrap_or_default()).unwrap_or(json!(null)))
}

#[test]
fn the_endpoint_reads_a_card_and_refuses_what_is_not_a_photo() {
    let dir = tempfile::tempdir().unwrap();
    let cards = cards();
    let card = render(&cards[0], dir.path(), 0);
    let app = spawn_app();
    let user = signed_in_user(&app.url, "scanner@example.com", "correct horse");
    let cookie = user.cookie.as_deref();

    let (status, fields) = post_card(&app.url, cookie, &std::fs::read(&card).unwrap(), "card.jpg");
    assert_eq!(status, 200, "{fields}");
    assert_eq!(fields["email"], "jane.doe@globex.com");
    assert_eq!(fields["name"], "Jane Doe");

    let (status, body) = post_card(&app.url, cookie, b"just some text, named like a photo", "card.jpg");
    assert_eq!(status, 415, "{body}");
    let mut heic = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00".to_vec();
    heic.extend_from_slice(&[0u8; 64]);
    let (status, body) = post_card(&app.url, cookie, &heic, "IMG_0001.HEIC");
    assert_eq!(status, 415);
    assert!(body["message"].as_str().unwrap().contains("Most Compatible"));
    let (status, _) = post_card(&app.url, None, &std::fs::read(&card).unwrap(), "card.jpg");
    assert_eq!(status, 401);
    let status = crate::harness::status_before_body(
        &app.url,
        "/api/business-card/scan",
        cookie.unwrap(),
        "multipart/form-data; boundary=x",
        16 * 1024 * 1024,
    );
    assert_eq!(status, 413);
}

#[test]
fn the_server_reads_cards_with_a_copy_of_the_latin_data_left_without_its_word_list() {
    let dir = tempfile::tempdir().unwrap();
    let accented = Card {
        name: "Élodie Dupré",
        position: "Directrice générale",
        company: "Boulangerie Lefèvre",
        email: "elodie@lefevre.fr",
        phone: "+33 1 42 68 53 00",
        extra: "12 rue de Rivoli, Paris",
        font: FONTS[0],
        centred: false,
        effect: &[],
    };
    let card = render(&accented, dir.path(), 0);
    let app = spawn_app();
    let user = signed_in_user(&app.url, "lean@example.com", "correct horse");
    let installed = tesseract::installed().expect("tesseract is installed");
    let original = installed.folder.expect("tesseract names its data folder").join("Latin.traineddata");

    let (status, fields) = post_card(&app.url, user.cookie.as_deref(), &std::fs::read(&card).unwrap(), "card.jpg");
    assert_eq!(status, 200, "{fields}");
    assert_eq!(fields["name"], "Élodie Dupré", "accents are read without the word list: {fields}");
    assert_eq!(fields["company"], "Boulangerie Lefèvre", "{fields}");
    let lean =
        std::fs::metadata(app.data_dir.join("tessdata").join("Latin.traineddata")).expect("the lean copy is made");
    let full = std::fs::metadata(&original).unwrap();
    assert!(lean.len() * 20 < full.len(), "lean {} bytes, installed {} bytes", lean.len(), full.len());
    let made = lean.modified().unwrap();

    let (status, _) = post_card(&app.url, user.cookie.as_deref(), &std::fs::read(&card).unwrap(), "card.jpg");
    assert_eq!(status, 200);
    let again = std::fs::metadata(app.data_dir.join("tessdata").join("Latin.traineddata")).unwrap();
    assert_eq!(again.modified().unwrap(), made, "the copy is written once");
}

#[test]
fn without_tesseract_the_endpoint_says_which_package_to_install() {
    let dir = tempfile::tempdir().unwrap();
    let card = render(&cards()[0], dir.path(), 1);
    let data = tempfile::tempdir().unwrap();
    // A PATH without Tesseract: the server must start and say what is missing.
    let mut child = Command::new(crate::harness::BIN)
        .args(["serve", "--http", "--bind", "127.0.0.1:0", "--data-dir"])
        .arg(data.path())
        .env("PATH", "/nonexistent")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let url = std::io::BufRead::lines(stdout)
        .map_while(Result::ok)
        .find_map(|l| l.strip_prefix("ready: ").map(str::to_owned))
        .unwrap();
    let user = signed_in_user(&url, "nocr@example.com", "correct horse");
    let (status, body) = post_card(&url, user.cookie.as_deref(), &std::fs::read(&card).unwrap(), "card.png");
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(status, 503, "{body}");
    assert!(body["message"].as_str().unwrap().contains("tesseract-ocr"), "{body}");

    let doctor = Command::new(crate::harness::BIN)
        .args(["doctor", "--data-dir"])
        .arg(data.path())
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&doctor.stdout);
    assert!(
        report.lines().any(|l| l.starts_with("ocr") && l.contains("missing") && l.contains("tesseract-ocr")),
        "{report}"
    );
}

/// `jpeg` with an EXIF APP1 segment whose Orientation tag is `orientation`.
fn with_exif_orientation(jpeg: &[u8], orientation: u8) -> Vec<u8> {
    let tiff: [u8; 26] = [
        b'M',
        b'M',
        0,
        42,
        0,
        0,
        0,
        8, // big-endian TIFF header, IFD at 8
        0,
        1, // one entry
        0x01,
        0x12,
        0,
        3,
        0,
        0,
        0,
        1,
        0,
        orientation,
        0,
        0, // Orientation, SHORT, 1 value
        0,
        0,
        0,
        0, // no next IFD
    ];
    let mut segment = vec![0xFF, 0xE1, 0, (2 + 6 + tiff.len()) as u8];
    segment.extend_from_slice(b"Exif\0\0");
    segment.extend_from_slice(&tiff);
    [&jpeg[..2], &segment, &jpeg[2..]].concat()
}

#[test]
fn a_photo_turned_by_its_exif_orientation_is_read_upright() {
    let dir = tempfile::tempdir().unwrap();
    let upright = render(&cards()[0], dir.path(), 2);
    // The pixels lie on their side, as a phone held upright stores them;
    // the EXIF tag (6: turn 90° clockwise) says how to show them.
    let sideways = dir.path().join("sideways.jpg");
    let out = Command::new(CONVERT).arg(&upright).args(["-rotate", "-90"]).arg(&sideways).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = with_exif_orientation(&std::fs::read(&sideways).unwrap(), 6);
    let shown = debrief::ocr::decode_upright(&bytes).unwrap();
    assert!(shown.width() > shown.height(), "turned back to landscape: {}x{}", shown.width(), shown.height());
    let language = Language::choose(&dir.path().join("tessdata")).unwrap();
    let fields = debrief::ocr::scan(&bytes, &language, &|| false).unwrap().fields;
    assert_eq!(fields.email, "jane.doe@globex.com");
    assert_eq!(fields.name, "Jane Doe");
}

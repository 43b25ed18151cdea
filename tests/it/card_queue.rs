//! Card scans run one at a time on their own thread: a client that leaves
//! takes its scan with it, the queue has a bound (503 with `Retry-After`
//! past it), and no photo decodes past the memory limit, a progressive
//! JPEG's coefficients included.

use std::io::Write;
use std::net::TcpStream;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::browser::signed_in_user;
use crate::harness::{client, spawn_app};
use crate::probe::{multipart, peak_rss_mb, post_bytes};

const SCAN: &str = "/api/business-card/scan";

/// A card photographed at 12 MP, as a phone sends it.
fn card_photo() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("card.jpg");
    let out = Command::new("/usr/bin/convert")
        .args(["-size", "4000x3000", "xc:white", "-fill", "#1d2733", "-font", "DejaVu-Sans", "-pointsize", "150"])
        .args(["-annotate", "+300+700", "Jane Doe", "-pointsize", "100", "-annotate", "+300+1000"])
        .args(["Chief Technology Officer", "-annotate", "+300+1300", "Globex Corporation"])
        .args(["-annotate", "+300+1900", "jane.doe@globex.com", "-annotate", "+300+2200", "+1 (555) 123-4567"])
        .arg(&path)
        .output()
        .expect("ImageMagick's convert runs (scripts/test installs imagemagick)");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::read(path).unwrap()
}

/// Sends a whole scan request and hangs up `after`, before the answer.
fn abandon_scan(url: &str, cookie: &str, photo: &[u8], after: Duration) {
    let (content_type, body) = multipart("businessCard", photo);
    let address = url.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).unwrap();
    let head = format!(
        "POST {SCAN} HTTP/1.1\r\nHost: {address}\r\nOrigin: {url}\r\nCookie: debrief_session={cookie}\r\n\
         Content-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(&body).unwrap();
    std::thread::sleep(after);
    drop(stream);
}

#[test]
fn abandoned_card_scans_are_dropped_so_a_real_scan_after_them_is_answered_promptly() {
    let app = spawn_app();
    let user = signed_in_user(&app.url, "scanner@example.com", "correct horse");
    let cookie = user.cookie.clone().unwrap();
    let photo = card_photo();
    let (content_type, body) = multipart("businessCard", &photo);

    let started = Instant::now();
    let (status, fields) = post_bytes(&app, &cookie, SCAN, &content_type, &body);
    let one_scan = started.elapsed();
    assert_eq!(status, 200, "{fields}");
    assert!(fields.contains("jane.doe@globex.com"), "{fields}");

    // Clients that give up a moment after sending, more than the queue holds.
    std::thread::scope(|s| {
        for _ in 0..5 {
            s.spawn(|| abandon_scan(&app.url, &cookie, &photo, Duration::from_millis(300)));
        }
    });
    std::thread::sleep(Duration::from_millis(1000));
    let started = Instant::now();
    let (status, fields) = post_bytes(&app, &cookie, SCAN, &content_type, &body);
    let after_them = started.elapsed();
    assert_eq!(status, 200, "{fields}");
    // Had the five run, this scan would wait for all of them.
    assert!(after_them < one_scan * 3, "{after_them:?} after the abandoned scans, one scan takes {one_scan:?}");
}

#[test]
fn past_the_queue_a_scan_is_refused_with_503_and_when_to_come_back_and_the_rest_are_read() {
    let app = spawn_app();
    let user = signed_in_user(&app.url, "scanner@example.com", "correct horse");
    let cookie = user.cookie.clone().unwrap();
    let photo = card_photo();
    let (content_type, body) = multipart("businessCard", &photo);
    let answers: Vec<(u16, Option<String>)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..8)
            .map(|_| {
                s.spawn(|| {
                    let mut res = client()
                        .post(format!("{}{SCAN}", app.url))
                        .header("Cookie", format!("debrief_session={cookie}"))
                        .header("Origin", &app.url)
                        .header("Content-Type", &content_type)
                        .send(&body[..])
                        .unwrap();
                    let retry = res.headers().get("retry-after").map(|v| v.to_str().unwrap().to_owned());
                    let _ = res.body_mut().read_to_string();
                    (res.status().as_u16(), retry)
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let read = answers.iter().filter(|(status, _)| *status == 200).count();
    let refused: Vec<_> = answers.iter().filter(|(status, _)| *status == 503).collect();
    assert_eq!(read + refused.len(), answers.len(), "{answers:?}");
    assert!((1..=5).contains(&read), "one running and four waiting at most: {answers:?}");
    assert!(!refused.is_empty(), "eight at once overflow a queue of four: {answers:?}");
    for (_, retry) in refused {
        let seconds: u64 = retry.as_deref().expect("Retry-After on a 503").parse().unwrap();
        assert!((1..=60).contains(&seconds), "{seconds}");
    }
}

/// A real progressive CMYK JPEG whose frame header then claims 16,384 ×
/// 7,320 pixels: within the pixel limit, a gigabyte to decode.
fn progressive_cmyk_claiming_a_gigabyte() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("small.jpg");
    let out = Command::new("/usr/bin/convert")
        .args(["-size", "64x32", "plasma:", "-colorspace", "CMYK", "-interlace", "JPEG"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut jpeg = std::fs::read(path).unwrap();
    let frame = jpeg.windows(2).position(|w| w == [0xFF, 0xC2]).expect("a progressive frame header");
    jpeg[frame + 5..frame + 7].copy_from_slice(&7_320u16.to_be_bytes());
    jpeg[frame + 7..frame + 9].copy_from_slice(&16_384u16.to_be_bytes());
    jpeg
}

#[test]
fn a_progressive_cmyk_card_claiming_a_gigabyte_of_coefficients_is_refused_without_decoding_it() {
    let app = spawn_app();
    let user = signed_in_user(&app.url, "scanner@example.com", "correct horse");
    let cookie = user.cookie.clone().unwrap();
    let (content_type, body) = multipart("businessCard", &progressive_cmyk_claiming_a_gigabyte());
    for _ in 0..3 {
        let (status, answer) = post_bytes(&app, &cookie, SCAN, &content_type, &body);
        assert_eq!(status, 413, "{answer}");
    }
    let peak = peak_rss_mb(&app);
    assert!(peak < 200, "the server held {peak} MB at its peak");
}

//! What an outside probe of the release binary found, reproduced as it was
//! found: a picture whose header claims gigabytes, sign-in guesses raced
//! past the throttle, and uploads that held memory without bound.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Barrier;
use std::time::Duration;

use serde_json::json;

use crate::admin::create_admin;
use crate::browser::{Browser, signed_in_user};
use crate::clients::create;
use crate::harness::{TestApp, client, spawn_app, spawn_app_with};

const PASSWORD: &str = "correct horse";

/// A real JPEG of a few hundred bytes whose frame header claims `width` ×
/// `height`: 171 bytes of such a file took the server down.
fn jpeg_claiming(width: u16, height: u16) -> Vec<u8> {
    let mut jpeg = Vec::new();
    image::DynamicImage::ImageLuma8(image::GrayImage::new(16, 16))
        .write_to(&mut std::io::Cursor::new(&mut jpeg), image::ImageFormat::Jpeg)
        .unwrap();
    let frame = jpeg.windows(2).position(|w| w == [0xFF, 0xC0]).expect("a baseline frame header");
    jpeg[frame + 5..frame + 7].copy_from_slice(&height.to_be_bytes());
    jpeg[frame + 7..frame + 9].copy_from_slice(&width.to_be_bytes());
    jpeg
}

/// Caps the memory the server may map, as the probe did.
pub fn limit_address_space(app: &TestApp, bytes: u64) {
    let limit = libc::rlimit { rlim_cur: bytes, rlim_max: bytes };
    // SAFETY: prlimit only reads `limit`, and no old value is asked for.
    let done = unsafe { libc::prlimit(app.pid() as libc::pid_t, libc::RLIMIT_AS, &limit, std::ptr::null_mut()) };
    assert_eq!(done, 0, "prlimit: {}", std::io::Error::last_os_error());
}

/// The most memory the server has held at once since it started, in MB.
pub fn peak_rss_mb(app: &TestApp) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", app.pid())).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).expect("VmHWM in /proc/PID/status");
    line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() / 1024
}

pub fn multipart(field: &str, content: &[u8]) -> (String, Vec<u8>) {
    let boundary = "probe-boundary-7f3a";
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"card.jpg\"\r\n\
         Content-Type: image/jpeg\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(content);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

pub fn post_bytes(app: &TestApp, cookie: &str, path: &str, content_type: &str, body: &[u8]) -> (u16, String) {
    let mut res = client()
        .post(format!("{}{path}", app.url))
        .header("Cookie", format!("debrief_session={cookie}"))
        .header("Origin", &app.url)
        .header("Content-Type", content_type)
        .send(body)
        .expect("the server answers");
    (res.status().as_u16(), res.body_mut().read_to_string().unwrap_or_default())
}

fn data_url(bytes: &[u8]) -> String {
    use base64::Engine;
    format!("data:image/jpeg;base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes))
}

fn health(app: &TestApp) -> u16 {
    client().get(format!("{}/api/health", app.url)).call().map(|r| r.status().as_u16()).unwrap_or(0)
}

#[test]
fn a_small_picture_claiming_65000_by_65000_pixels_is_refused_on_every_image_route_and_the_server_stays_up() {
    let app = spawn_app();
    limit_address_space(&app, 3 << 30);
    let mut user = signed_in_user(&app.url, "bomb@example.com", PASSWORD);
    let cookie = user.cookie.clone().unwrap();
    let bomb = jpeg_claiming(65_000, 65_000);
    assert!(bomb.len() < 1024, "{} bytes", bomb.len());

    let (content_type, body) = multipart("businessCard", &bomb);
    let (status, text) = post_bytes(&app, &cookie, "/api/business-card/scan", &content_type, &body);
    assert_eq!(status, 413, "{text}");
    assert!(text.contains("too many pixels"), "{text}");
    assert_eq!(health(&app), 200, "the server is still up");

    let id = create(&mut user, "Bomb Client");
    let photo = user.post(&format!("/api/clients/{id}/photo"), json!({"photo": data_url(&bomb)}));
    assert_eq!(photo.status, 413, "{}", photo.text);
    let avatar = user.post("/api/profile/picture", json!({"picture": data_url(&bomb)}));
    assert_eq!(avatar.status, 413, "{}", avatar.text);

    // A picture just under the side limit but far over the pixel limit.
    let (content_type, body) = multipart("businessCard", &jpeg_claiming(16_000, 16_000));
    assert_eq!(post_bytes(&app, &cookie, "/api/business-card/scan", &content_type, &body).0, 413);
    assert_eq!(health(&app), 200, "the server is still up");
}

/// Sign-ins from one address at once, one per body; their statuses in order.
fn concurrent_logins(base: &str, path: &str, bodies: Vec<serde_json::Value>) -> Vec<u16> {
    let barrier = Barrier::new(bodies.len());
    std::thread::scope(|scope| {
        let handles: Vec<_> = bodies
            .into_iter()
            .map(|body| {
                let barrier = &barrier;
                scope.spawn(move || {
                    let mut browser = Browser::new(base);
                    barrier.wait();
                    browser.post(path, body).status
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

#[test]
fn sixty_concurrent_wrong_passwords_get_at_most_ten_401s_and_the_rest_429() {
    let app = spawn_app();
    signed_in_user(&app.url, "victim@example.com", PASSWORD);
    let guesses = (0..60).map(|n| json!({"email": "victim@example.com", "password": format!("guess {n}")})).collect();
    let statuses = concurrent_logins(&app.url, "/api/auth/login", guesses);
    let unauthorised = statuses.iter().filter(|s| **s == 401).count();
    let throttled = statuses.iter().filter(|s| **s == 429).count();
    assert!(unauthorised <= 10, "{unauthorised} guesses were checked: {statuses:?}");
    assert_eq!(unauthorised + throttled, 60, "{statuses:?}");
}

#[test]
fn the_right_password_late_in_a_burst_of_fifty_guesses_does_not_sign_in() {
    let app = spawn_app();
    signed_in_user(&app.url, "victim@example.com", PASSWORD);
    let burst: Vec<_> = (0..50)
        .map(|n| {
            let password = if n == 49 { PASSWORD.to_owned() } else { format!("guess {n}") };
            json!({"email": "victim@example.com", "password": password})
        })
        .collect();
    let barrier = Barrier::new(2);
    let statuses = std::thread::scope(|scope| {
        let guesses = scope.spawn(|| {
            barrier.wait();
            concurrent_logins(&app.url, "/api/auth/login", burst[..49].to_vec())
        });
        barrier.wait();
        // The right password arrives once the guesses are under way.
        std::thread::sleep(Duration::from_millis(300));
        let last = Browser::new(&app.url).post("/api/auth/login", burst[49].clone()).status;
        (guesses.join().unwrap(), last)
    });
    assert_eq!(statuses.1, 429, "the account is locked after ten failures: {:?}", statuses.0);
}

#[test]
fn thirty_concurrent_wrong_admin_passwords_get_at_most_five_401s() {
    let app = spawn_app();
    assert!(create_admin(&app.data_dir, "root").status.success());
    let guesses = (0..30).map(|n| json!({"username": "root", "password": format!("guess {n}")})).collect();
    let statuses = concurrent_logins(&app.url, "/api/admin/login", guesses);
    let unauthorised = statuses.iter().filter(|s| **s == 401).count();
    assert!(unauthorised <= 5, "{unauthorised} admin guesses were checked: {statuses:?}");
    assert!(statuses.iter().all(|s| *s == 401 || *s == 429), "{statuses:?}");
}

#[test]
fn forty_concurrent_fifteen_megabyte_card_uploads_keep_the_server_under_160_mb() {
    let app = spawn_app_with(&["--login-max-failures", "100"]);
    let user = signed_in_user(&app.url, "cards@example.com", PASSWORD);
    let cookie = user.cookie.clone().unwrap();
    // A PNG's signature, then noise: each is read to the end, then refused.
    let mut photo = b"\x89PNG\r\n\x1a\n".to_vec();
    photo.resize(15 * 1024 * 1024 - 1024, 0x5A);
    let (content_type, body) = multipart("businessCard", &photo);
    let statuses: Vec<u16> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..40)
            .map(|_| scope.spawn(|| post_bytes(&app, &cookie, "/api/business-card/scan", &content_type, &body).0))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(statuses.iter().all(|s| (400..500).contains(s) || *s == 503), "{statuses:?}");
    let peak = peak_rss_mb(&app);
    assert!(peak < 160, "the server held {peak} MB at its peak");
    assert_eq!(health(&app), 200);
}

/// Sends a chunked multipart body whose part header never ends, until the
/// server stops reading or `limit` bytes went out; returns the status the
/// server answered, if it did.
fn endless_part_header(app: &TestApp, cookie: &str, path: &str, limit: usize) -> Option<u16> {
    let address = app.url.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).unwrap();
    stream.set_write_timeout(Some(Duration::from_secs(10))).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nOrigin: {}\r\nCookie: debrief_session={cookie}\r\n\
         Content-Type: multipart/form-data; boundary=b\r\nTransfer-Encoding: chunked\r\n\r\n",
        app.url
    );
    stream.write_all(head.as_bytes()).unwrap();
    let opening = b"--b\r\nContent-Disposition: form-data; name=\"x\"; filename=\"";
    let _ = stream.write_all(format!("{:x}\r\n", opening.len()).as_bytes());
    let _ = stream.write_all(opening);
    let _ = stream.write_all(b"\r\n");
    let piece = vec![b'a'; 64 * 1024];
    let mut sent = 0;
    while sent < limit {
        let chunk = [format!("{:x}\r\n", piece.len()).as_bytes(), &piece, b"\r\n"].concat();
        if stream.write_all(&chunk).is_err() {
            break;
        }
        sent += piece.len();
    }
    let mut answer = [0u8; 12];
    stream.read_exact(&mut answer).ok()?;
    String::from_utf8_lossy(&answer[9..12]).parse().ok()
}

#[test]
fn an_endless_chunked_part_header_is_refused_on_both_upload_routes_without_buffering_it() {
    let app = spawn_app();
    let mut user = signed_in_user(&app.url, "chunks@example.com", PASSWORD);
    let cookie = user.cookie.clone().unwrap();
    let id = create(&mut user, "Chunk Client");
    for path in ["/api/business-card/scan".to_owned(), format!("/api/clients/{id}/recording")] {
        let status = endless_part_header(&app, &cookie, &path, 300 << 20);
        assert!(matches!(status, Some(413) | None), "{path}: {status:?}");
    }
    let peak = peak_rss_mb(&app);
    assert!(peak < 100, "the server held {peak} MB at its peak");
    assert_eq!(health(&app), 200);
}

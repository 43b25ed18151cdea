//! Pictures whose headers claim any size, up to 65535 pixels a side, sent
//! to every route that decodes an image: the card scan, the client photo
//! and the profile picture. Whatever the header says, the server answers
//! below 500 (a 4xx with a JSON message, or the picture taken) and stays
//! up under a 3 GiB address-space cap.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use serde_json::{Value, json};

use crate::browser::signed_in_user;
use crate::clients::create;
use crate::harness::{client, spawn_app};

#[derive(Debug, Clone, Copy)]
enum Route {
    CardScan,
    ClientPhoto,
    ProfilePicture,
}

#[derive(Debug, Clone, Copy)]
enum Format {
    Jpeg,
    Png,
}

/// A real 16 × 16 picture whose header claims `width` × `height`.
fn picture_claiming(format: Format, width: u16, height: u16) -> Vec<u8> {
    let mut bytes = Vec::new();
    let image = image::DynamicImage::ImageLuma8(image::GrayImage::from_fn(16, 16, |x, y| image::Luma([(x * y) as u8])));
    let kind = match format {
        Format::Jpeg => image::ImageFormat::Jpeg,
        Format::Png => image::ImageFormat::Png,
    };
    image.write_to(&mut std::io::Cursor::new(&mut bytes), kind).unwrap();
    match format {
        Format::Jpeg => {
            let frame = bytes.windows(2).position(|w| w == [0xFF, 0xC0]).expect("a baseline frame header");
            bytes[frame + 5..frame + 7].copy_from_slice(&height.to_be_bytes());
            bytes[frame + 7..frame + 9].copy_from_slice(&width.to_be_bytes());
        }
        Format::Png => {
            // IHDR follows the 8-byte signature: length, type, then width and
            // height; its checksum is made anew so the header reads as valid.
            bytes[16..20].copy_from_slice(&u32::from(width).to_be_bytes());
            bytes[20..24].copy_from_slice(&u32::from(height).to_be_bytes());
            let crc = crc32(&bytes[12..29]);
            bytes[29..33].copy_from_slice(&crc.to_be_bytes());
        }
    }
    bytes
}

fn data_url(format: Format, bytes: &[u8]) -> String {
    use base64::Engine;
    let mime = match format {
        Format::Jpeg => "image/jpeg",
        Format::Png => "image/png",
    };
    format!("data:{mime};base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes))
}

/// CRC-32 as PNG chunks carry it (IEEE, reflected).
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for byte in data {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// Mostly sizes past the limits, some ordinary ones.
fn side() -> impl Strategy<Value = u16> {
    prop_oneof![1 => 1u16..4000, 3 => 4000u16..=u16::MAX]
}

fn case() -> impl Strategy<Value = (Route, Format, u16, u16)> {
    let route = prop_oneof![Just(Route::CardScan), Just(Route::ClientPhoto), Just(Route::ProfilePicture)];
    let format = prop_oneof![Just(Format::Jpeg), Just(Format::Png)];
    (route, format, side(), side())
}

#[test]
fn pictures_claiming_any_size_get_a_json_4xx_or_are_taken_on_every_image_route_and_the_server_stays_up() {
    let app = spawn_app();
    crate::probe::limit_address_space(&app, 3 << 30);
    let mut user = signed_in_user(&app.url, "sizes@example.com", "correct horse");
    let id = create(&mut user, "Sizes Client");
    let cookie = user.cookie.clone().unwrap();
    // The runner takes a `Fn`: the signed-in browser is borrowed through a cell.
    let user = std::cell::RefCell::new(user);

    // Not shrunk: the server keeps state between cases, so the case reported
    // is the first that failed.
    let config = Config { cases: 48, failure_persistence: None, max_shrink_iters: 0, ..Config::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let result = runner.run(&case(), |(route, format, width, height)| {
        let picture = picture_claiming(format, width, height);
        let (status, text) = match route {
            Route::CardScan => {
                let (content_type, body) = crate::probe::multipart("businessCard", &picture);
                crate::probe::post_bytes(&app, &cookie, "/api/business-card/scan", &content_type, &body)
            }
            Route::ClientPhoto => {
                let reply = user
                    .borrow_mut()
                    .post(&format!("/api/clients/{id}/photo"), json!({"photo": data_url(format, &picture)}));
                (reply.status, reply.text)
            }
            Route::ProfilePicture => {
                let reply =
                    user.borrow_mut().post("/api/profile/picture", json!({"picture": data_url(format, &picture)}));
                (reply.status, reply.text)
            }
        };
        prop_assert!(status < 500, "{route:?} {format:?} {width}×{height}: {status} {text}");
        if status >= 400 {
            let json: Value = serde_json::from_str(&text)
                .map_err(|e| TestCaseError::fail(format!("{status} without JSON ({e}): {text}")))?;
            prop_assert!(json["message"].is_string(), "{status}: {text}");
        }
        let health = client().get(format!("{}/api/health", app.url)).call().map(|r| r.status().as_u16());
        prop_assert_eq!(
            health.ok(),
            Some(200),
            "the server went down after {:?} {:?} {}×{}",
            route,
            format,
            width,
            height
        );
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}\n\nserver output:\n{}", app.printed());
    }
}

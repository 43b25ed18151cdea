//! What the writers send, random from the run's seed and each one distinct:
//! contact details, PNG photos and WAV recordings, and the SHA-256 by which
//! stored files are compared. Other suites use the photos and recordings too.

use rand::RngExt;
use rand::rngs::StdRng;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::harness::wav_of;

pub fn sha(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

fn letters(rng: &mut StdRng, n: usize) -> String {
    (0..n).map(|_| char::from(b'a' + rng.random_range(0..26u8))).collect()
}

/// Contact details already in the form the server stores them in.
pub(super) fn contact(rng: &mut StdRng) -> Value {
    json!({
        "name": format!("Client {}", letters(rng, 8)),
        "email": format!("{}@client.example", letters(rng, 6)),
        "phone": format!("555 {:03} {:04}", rng.random_range(0..1000), rng.random_range(0..10_000)),
        "company": format!("Company {}", rng.random::<u32>()),
        "position": format!("Position {}", rng.random::<u32>()),
    })
}

/// A PNG of noise of a random size: every photo distinct.
pub fn photo(rng: &mut StdRng) -> Vec<u8> {
    let (w, h) = (rng.random_range(1..64u32), rng.random_range(1..64u32));
    let mut pixels = vec![0u8; (w * h * 3) as usize];
    rng.fill(&mut pixels[..]);
    let mut png = Vec::new();
    image::write_buffer_with_format(
        &mut std::io::Cursor::new(&mut png),
        &pixels,
        w,
        h,
        image::ExtendedColorType::Rgb8,
        image::ImageFormat::Png,
    )
    .unwrap();
    png
}

/// A recording of a random length: mostly short, one in five over a chunk
/// (1 MiB) so the kill also lands between the chunks of one upload.
pub(super) fn recording(rng: &mut StdRng) -> Vec<u8> {
    let seconds = if rng.random_bool(0.2) { rng.random_range(33.0..36.0) } else { rng.random_range(0.1..2.0) };
    wav(rng, seconds)
}

/// A 16 kHz mono 16-bit WAV of noise: every recording distinct.
pub fn wav(rng: &mut StdRng, seconds: f64) -> Vec<u8> {
    wav_of((0..(16_000.0 * seconds) as u32).map(|_| rng.random::<i16>() / 4))
}

pub(super) fn multipart(file: &[u8]) -> (String, Vec<u8>) {
    let boundary = "----debrief-crash-boundary";
    let mut body = Vec::new();
    body.extend_from_slice(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"recording\"; filename=\"recording.wav\"\r\nContent-Type: audio/wav\r\n\r\n").as_bytes());
    body.extend_from_slice(file);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

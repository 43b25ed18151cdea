//! Turning a card photographed askew back level. Tesseract reads lines
//! tilted by a few degrees much worse than level ones (letters misread,
//! lines lost), and a card on a table is rarely square to the phone.
//!
//! The tilt is measured on a small copy: the card's ink is projected onto
//! rows at each candidate angle, and the angle that stacks it into the
//! sharpest rows wins.

use std::borrow::Cow;

use image::{GrayImage, Luma, imageops};

use super::summed::SummedArea;

/// The copy the tilt is measured on is this wide: small enough to be quick,
/// large enough for text lines to stay apart.
const MEASURE_WIDTH: u32 = 1000;
/// Tilts looked for, either way, in half degrees and then tenths.
const LARGEST_TILT: f32 = 10.0;
/// Smaller tilts are left to Tesseract, which copes with them; turning
/// blurs the letters a little.
const SMALLEST_TILT: f32 = 1.0;
/// A tilt is believed when it stacks the ink this much sharper than level
/// does: askew cards measure 6–10 times, level or sideways ones 1.2 at most.
const CLEAR_GAIN: f64 = 1.5;
/// Ink is at least this much darker than the paper around it…
const INK_MARGIN: u64 = 25;
/// …and the paper around it this bright (after the contrast stretch), so
/// the table's grain and the card's edges do not count as ink.
const PAPER: u64 = 170;
/// Fewer ink pixels than this are no text to level by.
const LEAST_INK: usize = 500;

/// `gray` turned level when its text lies clearly askew, else as it was.
pub fn level(gray: GrayImage) -> GrayImage {
    match tilt(&gray) {
        Some(degrees) if degrees.abs() >= SMALLEST_TILT => turn(&gray, degrees),
        _ => gray,
    }
}

/// The turn, in degrees, that lays the text level; `None` when no angle
/// stands out (no text, or text running sideways).
fn tilt(gray: &GrayImage) -> Option<f32> {
    let small = if gray.width() > MEASURE_WIDTH {
        let height = (u64::from(gray.height()) * u64::from(MEASURE_WIDTH) / u64::from(gray.width())).max(1) as u32;
        Cow::Owned(imageops::thumbnail(gray, MEASURE_WIDTH, height))
    } else {
        Cow::Borrowed(gray)
    };
    let ink = ink(&small);
    if ink.len() < LEAST_INK {
        return None;
    }
    let rows = (small.width() + small.height()) as usize + 2;
    let level = sharpness(&ink, rows, 0.0);
    let sharpest = |degrees: &mut dyn Iterator<Item = f32>| {
        degrees
            .map(|d| (d, sharpness(&ink, rows, d)))
            .fold((0.0, level), |best, next| if next.1 > best.1 { next } else { best })
    };
    let steps = (LARGEST_TILT * 2.0) as i32;
    let (coarse, _) = sharpest(&mut (-steps..=steps).map(|i| i as f32 * 0.5));
    let (fine, score) = sharpest(&mut (-4..=4).map(|i| coarse + i as f32 * 0.1));
    (score >= level * CLEAR_GAIN).then_some(fine)
}

/// Pixels clearly darker than the paper around them, as offsets from the
/// centre. "Around" is a window a 20th of the width across, its mean read
/// from a summed-area table.
fn ink(gray: &GrayImage) -> Vec<(f32, f32)> {
    let (width, height) = (gray.width() as usize, gray.height() as usize);
    let pixels = gray.as_raw();
    let table = SummedArea::new(gray);
    let reach = (width / 40).max(2);
    let (middle_x, middle_y) = (width as f32 / 2.0, height as f32 / 2.0);
    let mut ink = Vec::new();
    for y in 0..height {
        for x in 0..width {
            let (sum, area) = table.around(x, y, reach);
            if sum > PAPER * area && (u64::from(pixels[y * width + x]) + INK_MARGIN) * area < sum {
                ink.push((x as f32 - middle_x, y as f32 - middle_y));
            }
        }
    }
    ink
}

/// How sharply the ink stacks into rows when turned by `degrees`: the sum
/// of squared steps between neighbouring rows' ink counts. Level text makes
/// tall, steep peaks; tilted text smears them.
fn sharpness(ink: &[(f32, f32)], rows: usize, degrees: f32) -> f64 {
    let (sin, cos) = degrees.to_radians().sin_cos();
    let middle = rows as f32 / 2.0;
    let mut counts = vec![0u32; rows];
    for &(x, y) in ink {
        if let Some(count) = counts.get_mut((y * cos - x * sin + middle) as usize) {
            *count += 1;
        }
    }
    counts.windows(2).map(|pair| (f64::from(pair[1]) - f64::from(pair[0])).powi(2)).sum()
}

/// `gray` turned by `degrees` about its centre, bilinear in fixed point;
/// what comes from outside the photo is white, like paper.
fn turn(gray: &GrayImage, degrees: f32) -> GrayImage {
    const ONE: f64 = 65536.0;
    let (width, height) = gray.dimensions();
    let mut out = GrayImage::from_pixel(width, height, Luma([255]));
    if width < 2 || height < 2 {
        return out;
    }
    let (sin, cos) = f64::from(degrees).to_radians().sin_cos();
    let (middle_x, middle_y) = (f64::from(width) / 2.0, f64::from(height) / 2.0);
    let (step_x, step_y) = ((cos * ONE) as i64, (sin * ONE) as i64);
    let (last_x, last_y) = (i64::from(width) - 1, i64::from(height) - 1);
    let source = gray.as_raw();
    let stride = width as usize;
    for (y, row) in out.chunks_exact_mut(stride).enumerate() {
        let dy = y as f64 - middle_y;
        // Where the row's first pixel comes from; each next one steps
        // along the turned row.
        let mut sx = ((middle_x - middle_x * cos - dy * sin) * ONE) as i64;
        let mut sy = ((middle_y - middle_x * sin + dy * cos) * ONE) as i64;
        for pixel in row.iter_mut() {
            let (x0, y0) = (sx >> 16, sy >> 16);
            if (0..last_x).contains(&x0) && (0..last_y).contains(&y0) {
                let (fx, fy) = ((sx & 0xFFFF) >> 8, (sy & 0xFFFF) >> 8);
                let i = y0 as usize * stride + x0 as usize;
                let upper = i64::from(source[i]) * (256 - fx) + i64::from(source[i + 1]) * fx;
                let lower = i64::from(source[i + stride]) * (256 - fx) + i64::from(source[i + stride + 1]) * fx;
                *pixel = ((upper * (256 - fy) + lower * fy) >> 16) as u8;
            }
            sx += step_x;
            sy += step_y;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A white page with eight lines of dark "words".
    fn page() -> GrayImage {
        GrayImage::from_fn(1800, 1100, |x, y| {
            let in_line = (150..950).contains(&y) && (y - 150) % 100 < 30;
            let in_word = (200..1600).contains(&x) && (x / 40 + y / 100) % 5 != 0 && x % 40 < 34;
            Luma([if in_line && in_word { 20 } else { 245 }])
        })
    }

    #[test]
    fn a_page_turned_a_few_degrees_is_measured_and_turned_back() {
        for degrees in [4.0f32, -2.5] {
            let askew = turn(&page(), degrees);
            let found = tilt(&askew).expect("a clear tilt");
            assert!((found + degrees).abs() <= 0.2, "turned {degrees}, measured {found}");
        }
    }

    #[test]
    fn a_level_page_or_a_blank_one_is_left_alone() {
        assert!(tilt(&page()).is_none_or(|d| d.abs() < SMALLEST_TILT));
        let blank = GrayImage::from_pixel(1800, 1100, Luma([240]));
        assert!(tilt(&blank).is_none());
        assert_eq!(level(blank.clone()), blank);
    }

    #[test]
    fn turning_by_nothing_keeps_every_pixel() {
        let page = page();
        let same = turn(&page, 0.0);
        let inside = |x: u32, y: u32| x + 1 < page.width() && y + 1 < page.height();
        assert!(page.enumerate_pixels().filter(|(x, y, _)| inside(*x, *y)).all(|(x, y, p)| same.get_pixel(x, y) == p));
    }
}

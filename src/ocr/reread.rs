//! A second look at the e-mail and phone lines when the first reading was
//! unsure of them: each line is cut out, enlarged, and read again twice,
//! sharpened and in pure black and white, all in one run of Tesseract.
//! The readings then vote.
//!
//! A poor photo misreads a letter here and there, but rarely the same
//! letter the same way on differently prepared copies: readings that agree
//! are right far more often than any one reading is.

use image::imageops::{self, FilterType};
use image::{GrayImage, Luma};

use super::OcrError;
use super::contact::{self, Found};
use super::fields::Card;
use super::reading::{Bounds, Line};
use super::summed::SummedArea;
use super::tesseract::{self, Layout};

/// Readings surer than this are not read again.
const SURE: f32 = 0.9;
/// Lines are enlarged to about this height, in pixels, where Tesseract
/// reads best; never shrunk.
const LINE_HEIGHT: f32 = 56.0;
/// White between the lines stacked for the second reading.
const GAP: u32 = 40;

#[derive(Clone, Copy, PartialEq)]
enum Field {
    Email,
    Phone,
}

/// Whether the e-mail or the phone number is worth a second look.
pub fn worth_it(card: &Card) -> bool {
    [&card.email, &card.phone].iter().any(|f| f.as_ref().is_some_and(|f| f.confidence < SURE))
}

/// Reads the unsure e-mail and phone lines of `image` again and lets the
/// readings vote; `card` keeps the winners.
pub fn settle(card: &mut Card, image: &GrayImage, ocr: &tesseract::Reader<'_>) -> Result<(), OcrError> {
    let mut wanted: Vec<(Field, Bounds)> = Vec::new();
    for (field, found) in [(Field::Email, &card.email), (Field::Phone, &card.phone)] {
        if let Some(found) = found.as_ref().filter(|f| f.confidence < SURE && f.bounds.height > 0) {
            wanted.push((field, found.bounds));
        }
    }
    if wanted.is_empty() {
        return Ok(());
    }
    let crops: Vec<(Field, GrayImage)> = wanted
        .iter()
        .flat_map(|&(field, bounds)| {
            let line = enlarged(image, bounds);
            [(field, sharpened(&line)), (field, binarised(&line))]
        })
        .collect();
    let (sheet, slots) = stack(crops.iter().map(|(_, crop)| crop));
    let reading = ocr.read(&sheet, Layout::Block)?;
    let mut votes: Vec<(Field, Vec<Found>)> = vec![(Field::Email, Vec::new()), (Field::Phone, Vec::new())];
    for ((field, _), (top, bottom)) in crops.iter().zip(slots) {
        let lines: Vec<Line> = reading
            .lines
            .iter()
            .filter(|l| (top..bottom).contains(&(l.bounds.top + l.bounds.height / 2)))
            .cloned()
            .collect();
        let found = match field {
            Field::Email => contact::find_email(&lines),
            Field::Phone => contact::find_phone(&lines),
        };
        if let Some((_, ballot)) = votes.iter_mut().find(|(f, _)| f == field) {
            ballot.extend(found);
        }
    }
    for (field, ballot) in votes {
        let slot = match field {
            Field::Email => &mut card.email,
            Field::Phone => &mut card.phone,
        };
        if let Some(first) = slot.as_ref().filter(|f| f.confidence < SURE) {
            *slot = Some(vote(first, &ballot, field));
        }
    }
    Ok(())
}

/// The value most readings give. All agreeing makes it sure; a majority
/// keeps its best confidence; no majority leaves it doubtful.
fn vote(first: &Found, others: &[Found], field: Field) -> Found {
    let key = |f: &Found| match field {
        Field::Email => f.value.clone(),
        Field::Phone => f.value.chars().filter(char::is_ascii_digit).collect(),
    };
    let all: Vec<&Found> = std::iter::once(first).chain(others).collect();
    let count = |f: &Found| all.iter().filter(|g| key(g) == key(f)).count();
    let best = all
        .iter()
        .max_by(|a, b| count(a).cmp(&count(b)).then(a.confidence.total_cmp(&b.confidence)))
        .copied()
        .unwrap_or(first);
    let agreeing = count(best);
    let surest = all.iter().filter(|f| key(f) == key(best)).map(|f| f.confidence).fold(0.0, f32::max);
    let confidence = if agreeing == all.len() && agreeing >= 3 {
        surest.max(SURE)
    } else if 2 * agreeing > all.len() {
        surest
    } else {
        surest.min(0.5)
    };
    Found { value: best.value.clone(), confidence, line: first.line, bounds: first.bounds }
}

/// The line's box with a margin, enlarged to the height Tesseract likes.
fn enlarged(image: &GrayImage, bounds: Bounds) -> GrayImage {
    let margin_y = bounds.height / 3 + 2;
    let margin_x = bounds.height / 2 + 2;
    let left = bounds.left.saturating_sub(margin_x);
    let top = bounds.top.saturating_sub(margin_y);
    let right = (bounds.left + bounds.width + margin_x).min(image.width());
    let bottom = (bounds.top + bounds.height + margin_y).min(image.height());
    let crop =
        imageops::crop_imm(image, left, top, right.saturating_sub(left).max(1), bottom.saturating_sub(top).max(1))
            .to_image();
    let scale = (LINE_HEIGHT / bounds.height.max(1) as f32).clamp(1.0, 4.0);
    if scale <= 1.05 {
        return crop;
    }
    let (w, h) = ((crop.width() as f32 * scale) as u32, (crop.height() as f32 * scale) as u32);
    imageops::resize(&crop, w.max(1), h.max(1), FilterType::CatmullRom)
}

fn sharpened(line: &GrayImage) -> GrayImage {
    imageops::unsharpen(line, 1.5, 8)
}

/// Black where a pixel is clearly darker than the paper around it, white
/// elsewhere: shading and grain gone.
fn binarised(line: &GrayImage) -> GrayImage {
    let table = SummedArea::new(line);
    let reach = (line.height() as usize / 2).max(4);
    GrayImage::from_fn(line.width(), line.height(), |x, y| {
        let (sum, area) = table.around(x as usize, y as usize, reach);
        let mean = sum as f32 / area.max(1) as f32;
        let pixel = f32::from(line.get_pixel(x, y).0[0]);
        Luma([if pixel < mean * 0.85 { 0 } else { 255 }])
    })
}

/// The crops one under the other on white, and where each lies (top and
/// bottom rows).
fn stack<'a>(crops: impl Iterator<Item = &'a GrayImage> + Clone) -> (GrayImage, Vec<(u32, u32)>) {
    let width = crops.clone().map(GrayImage::width).max().unwrap_or(1) + 2 * GAP;
    let height = crops.clone().map(|c| c.height() + GAP).sum::<u32>() + GAP;
    let mut sheet = GrayImage::from_pixel(width, height, Luma([255]));
    let mut slots = Vec::new();
    let mut top = GAP;
    for crop in crops {
        imageops::replace(&mut sheet, crop, i64::from(GAP), i64::from(top));
        slots.push((top.saturating_sub(GAP / 2), top + crop.height() + GAP / 2));
        top += crop.height() + GAP;
    }
    (sheet, slots)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(value: &str, confidence: f32) -> Found {
        Found { value: value.into(), confidence, line: 0, bounds: Bounds::default() }
    }

    #[test]
    fn readings_that_all_agree_make_a_value_sure() {
        let settled = vote(
            &found("j.doe@globex.com", 0.7),
            &[found("j.doe@globex.com", 0.8), found("j.doe@globex.com", 0.6)],
            Field::Email,
        );
        assert_eq!(settled.value, "j.doe@globex.com");
        assert!(settled.confidence >= SURE);
    }

    #[test]
    fn a_majority_outvotes_a_first_reading_that_lost_letters() {
        let settled = vote(
            &found("doe@globex.com", 0.8),
            &[found("j.doe@globex.com", 0.7), found("j.doe@globex.com", 0.75)],
            Field::Email,
        );
        assert_eq!((settled.value.as_str(), settled.confidence), ("j.doe@globex.com", 0.75));
    }

    #[test]
    fn readings_that_all_differ_leave_the_value_doubtful() {
        let settled = vote(
            &found("jdoe@globex.com", 0.85),
            &[found("j.doe@globex.com", 0.8), found("j.dce@globex.com", 0.7)],
            Field::Email,
        );
        assert!(settled.confidence <= 0.5);
    }

    #[test]
    fn phone_numbers_vote_by_their_digits() {
        let settled = vote(
            &found("+33 1 42 68 53 00", 0.6),
            &[found("+33 1 42-68-53-00", 0.7), found("+33 1 42 68 58 00", 0.9)],
            Field::Phone,
        );
        assert_eq!(settled.value, "+33 1 42-68-53-00");
        assert_eq!(settled.confidence, 0.7);
    }

    #[test]
    fn stacked_lines_keep_their_places_apart() {
        let a = GrayImage::from_pixel(100, 30, Luma([0]));
        let b = GrayImage::from_pixel(60, 50, Luma([0]));
        let (sheet, slots) = stack([&a, &b].into_iter());
        assert_eq!(sheet.dimensions(), (100 + 2 * GAP, 30 + 50 + 3 * GAP));
        assert_eq!(slots, [(GAP / 2, GAP + 30 + GAP / 2), (2 * GAP + 30 - GAP / 2, 2 * GAP + 80 + GAP / 2)]);
        assert_eq!(sheet.get_pixel(GAP, GAP).0[0], 0);
        assert_eq!(sheet.get_pixel(GAP, GAP + 30 + 1).0[0], 255);
    }

    #[test]
    fn a_shaded_line_binarises_to_black_ink_on_white() {
        // Paper darkening from left to right, ink a little darker still.
        let line = GrayImage::from_fn(200, 40, |x, y| {
            let paper = 230 - (x / 2) as u8;
            Luma([if (15..25).contains(&y) && x % 20 < 6 { paper - 90 } else { paper }])
        });
        let clean = binarised(&line);
        assert_eq!(clean.get_pixel(2, 20).0[0], 0);
        assert_eq!(clean.get_pixel(182, 20).0[0], 0);
        assert_eq!(clean.get_pixel(190, 5).0[0], 255);
    }
}

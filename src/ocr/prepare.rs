//! From the uploaded photo to the image Tesseract reads best: gray, upright
//! as the phone showed it, at a size where card text is 20–40 pixels high,
//! its contrast stretched and the card turned level.

use std::io::Cursor;

use image::imageops::{self, FilterType};
use image::{DynamicImage, GrayImage, ImageDecoder, ImageFormat, ImageReader};
use zune_core::bytestream::ZCursor;
use zune_core::colorspace::ColorSpace;
use zune_core::options::DecoderOptions;

use super::{OcrError, skew};
use crate::domain::image::{MAX_SIDE, decode_limits, jpeg_within_memory, within_limits};

/// Photo widths are brought between these. A card filling most of a phone
/// photo then has its small print 20–40 pixels high.
const WIDTHS: (u32, u32) = (1800, 2600);
/// A card is under twice as long as it is high, and a photo of one shows
/// some table around it. A picture far thinner is no card, and scaling it
/// to reading width would take gigabytes: 4 × 16,000 pixels become
/// 1,800 × 7.2 million.
const THINNEST: u64 = 8;

/// The photo, gray and ready for Tesseract.
pub fn prepare(bytes: &[u8]) -> Result<GrayImage, OcrError> {
    let gray = decode_upright(bytes)?;
    let (short, long) = (gray.width().min(gray.height()), gray.width().max(gray.height()));
    if short == 0 || u64::from(long) > THINNEST * u64::from(short) {
        return Err(OcrError::Unreadable(
            "The picture is far too narrow to be a business card: photograph the card itself".into(),
        ));
    }
    let mut gray = scale(gray);
    stretch_contrast(&mut gray);
    Ok(skew::level(gray))
}

/// Decodes a photo (JPEG, PNG or WebP) to gray and turns it as its EXIF
/// orientation says, the way a phone shows it.
pub fn decode_upright(bytes: &[u8]) -> Result<GrayImage, OcrError> {
    let unreadable = |e: image::ImageError| OcrError::Unreadable(format!("the image cannot be read: {e}"));
    let reader =
        ImageReader::new(Cursor::new(bytes)).with_guessed_format().map_err(|e| OcrError::Unreadable(e.to_string()))?;
    let jpeg = reader.format() == Some(ImageFormat::Jpeg);
    let mut decoder = reader.into_decoder().map_err(unreadable)?;
    // Checked from the header before a pixel is decoded: a few bytes can
    // claim gigabytes.
    let (width, height) = decoder.dimensions();
    if !within_limits(width, height) || (jpeg && !jpeg_within_memory(bytes)) {
        return Err(OcrError::TooLarge);
    }
    decoder.set_limits(decode_limits()).map_err(|_| OcrError::TooLarge)?;
    let orientation = decoder.orientation().map_err(unreadable)?;
    // Phone photos are JPEG: decoding only their brightness skips the
    // colour work and a third of the pixels (a sixth of a scan's time).
    let gray = match jpeg.then(|| jpeg_brightness(bytes)).flatten() {
        Some(gray) => gray,
        None => DynamicImage::from_decoder(decoder).map_err(unreadable)?.into_luma8(),
    };
    let mut upright = DynamicImage::ImageLuma8(gray);
    upright.apply_orientation(orientation);
    Ok(upright.into_luma8())
}

/// The brightness plane of a colour or gray JPEG; `None` for what it
/// cannot give that way (CMYK, a broken file), left to the full decoder.
fn jpeg_brightness(bytes: &[u8]) -> Option<GrayImage> {
    let options = DecoderOptions::default()
        .jpeg_set_out_colorspace(ColorSpace::Luma)
        .set_max_width(MAX_SIDE as usize)
        .set_max_height(MAX_SIDE as usize);
    let mut decoder = zune_jpeg::JpegDecoder::new_with_options(ZCursor::new(bytes), options);
    decoder.decode_headers().ok()?;
    if !matches!(decoder.input_colorspace()?, ColorSpace::YCbCr | ColorSpace::Luma) {
        return None;
    }
    let pixels = decoder.decode().ok()?;
    let (width, height) = decoder.dimensions()?;
    GrayImage::from_raw(width.try_into().ok()?, height.try_into().ok()?, pixels)
}

fn scale(gray: GrayImage) -> GrayImage {
    let (width, height) = gray.dimensions();
    let target = width.clamp(WIDTHS.0, WIDTHS.1);
    let target_height =
        ((u64::from(height) * u64::from(target) + u64::from(width) / 2) / u64::from(width).max(1)).max(1) as u32;
    if target < width {
        // Averaging the pixels each output pixel covers: a tenth of the
        // time of a filtered resize, and Tesseract reads it as well.
        imageops::thumbnail(&gray, target, target_height)
    } else if target > width {
        imageops::resize(&gray, target, target_height, FilterType::Triangle)
    } else {
        gray
    }
}

/// Spreads the 1st–99th percentile of brightness over the whole range, so
/// a faint or dim photo reads like a crisp one.
fn stretch_contrast(gray: &mut GrayImage) {
    let mut histogram = [0u64; 256];
    gray.pixels().for_each(|p| histogram[usize::from(p.0[0])] += 1);
    let total: u64 = histogram.iter().sum();
    let percentile = |fraction: f64| {
        let mut seen = 0;
        for (value, count) in histogram.iter().enumerate() {
            seen += count;
            if seen as f64 >= total as f64 * fraction {
                return value as f32;
            }
        }
        255.0
    };
    let (low, high) = (percentile(0.01), percentile(0.99));
    if high - low <= 10.0 {
        return;
    }
    let stretched: Vec<u8> =
        (0..=255u8).map(|v| (((f32::from(v) - low) / (high - low)) * 255.0).clamp(0.0, 255.0) as u8).collect();
    gray.pixels_mut().for_each(|p| p.0[0] = stretched[usize::from(p.0[0])]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_is_no_image_is_unreadable() {
        assert!(matches!(decode_upright(b"<html></html>"), Err(OcrError::Unreadable(_))));
    }

    #[test]
    fn a_jpeg_decodes_to_the_same_gray_by_either_decoder() {
        // Gray pixels in a colour file: both decoders must agree on them.
        let colour = image::RgbImage::from_fn(64, 48, |x, y| {
            let v = (x * 3 + y * 2) as u8;
            image::Rgb([v, v, v])
        });
        let mut jpeg = Vec::new();
        DynamicImage::ImageRgb8(colour).write_to(&mut Cursor::new(&mut jpeg), ImageFormat::Jpeg).unwrap();
        let fast = jpeg_brightness(&jpeg).unwrap();
        let full = image::load_from_memory(&jpeg).unwrap().into_luma8();
        assert_eq!(fast.dimensions(), full.dimensions());
        let worst = fast.pixels().zip(full.pixels()).map(|(a, b)| a.0[0].abs_diff(b.0[0])).max().unwrap();
        assert!(worst <= 4, "brightness differs by {worst}");
    }

    #[test]
    fn a_picture_claiming_more_pixels_than_the_limit_is_refused_before_decoding() {
        for (width, height) in [(65_000, 65_000), (16_385, 100), (12_000, 12_000)] {
            let bomb = crate::domain::image::jpeg_claiming(width, height);
            assert!(matches!(decode_upright(&bomb), Err(OcrError::TooLarge)), "{width} × {height}");
        }
        let wide = crate::domain::image::jpeg_claiming(65_000, 10);
        assert!(jpeg_brightness(&wide).is_none(), "the brightness decoder has the same side limit");
    }

    #[test]
    fn large_photos_shrink_and_small_ones_grow_to_the_width_tesseract_likes() {
        assert_eq!(scale(GrayImage::new(4032, 3024)).dimensions(), (2600, 1950));
        assert_eq!(scale(GrayImage::new(1050, 600)).dimensions(), (1800, 1029));
        assert_eq!(scale(GrayImage::new(2000, 3000)).dimensions(), (2000, 3000));
    }

    #[test]
    fn a_picture_too_thin_for_a_card_is_refused_before_it_is_scaled() {
        for (width, height) in [(4, 16_000), (16_000, 1)] {
            let mut png = Vec::new();
            DynamicImage::ImageLuma8(GrayImage::new(width, height))
                .write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
                .unwrap();
            assert!(matches!(prepare(&png), Err(OcrError::Unreadable(_))), "{width} × {height}");
        }
        let mut png = Vec::new();
        DynamicImage::ImageLuma8(GrayImage::new(600, 1000))
            .write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
            .unwrap();
        assert_eq!(prepare(&png).unwrap().dimensions(), (1800, 3000), "a card photographed standing is read");
    }

    #[test]
    fn a_faint_photo_is_stretched_to_full_contrast() {
        let mut gray = GrayImage::from_fn(100, 100, |x, _| image::Luma([if x < 50 { 100 } else { 160 }]));
        stretch_contrast(&mut gray);
        assert_eq!((gray.get_pixel(0, 0).0[0], gray.get_pixel(99, 0).0[0]), (0, 255));
    }
}

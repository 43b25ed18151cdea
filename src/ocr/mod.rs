//! Reading business cards on the box: the photo is decoded (honouring its
//! EXIF orientation), prepared for OCR, read by the `tesseract` program
//! with the Latin-script data (accents kept), and the lines turned into
//! client fields, each with a confidence. An e-mail address or phone number
//! read unsurely is read again from differently prepared copies of its line
//! and the readings vote.

mod contact;
pub mod fields;
mod fold;
mod letters;
mod lexicon;
mod prepare;
mod reading;
mod reread;
mod skew;
mod summed;
mod tessdata;
pub mod tesseract;
mod worker;

use image::GrayImage;
use image::imageops;

pub use fields::{CardFields, Confidence, DOUBTFUL_BELOW, Scanned};
pub use prepare::decode_upright;
pub use worker::Scanner;

use reading::Reading;
use tesseract::{Language, Layout};

/// Words read with less mean confidence than this send us to read the card
/// turned half round too.
const CONFIDENT: f32 = 0.7;

#[derive(Debug, thiserror::Error)]
pub enum OcrError {
    #[error(
        "Business-card scanning needs Tesseract on the server: install the Debian packages tesseract-ocr and tesseract-ocr-script-latn"
    )]
    NotInstalled,
    #[error("{0}")]
    Unreadable(String),
    #[error("The photo has too many pixels to be read: take it at 100 megapixels or less")]
    TooLarge,
    #[error("tesseract failed: {0}")]
    Failed(String),
    #[error("Card scanning is busy: try again in a few seconds")]
    Busy,
    /// The client that asked for the scan left before it was done.
    #[error("the scan was abandoned by its client")]
    Abandoned,
}

/// Reads the card in `bytes` (JPEG, PNG or WebP) with `language`;
/// [`OcrError::Abandoned`] as soon as `abandoned` says nobody waits for it.
pub fn scan(bytes: &[u8], language: &Language, abandoned: Abandoned<'_>) -> Result<Scanned, OcrError> {
    let image = prepare::prepare(bytes)?;
    let ocr = tesseract::Reader { language, abandoned };
    let (image, reading) = upright_reading(image, &ocr)?;
    let mut card = fields::extract(&reading);
    if reread::worth_it(&card) {
        reread::settle(&mut card, &image, &ocr)?;
    }
    Ok(card.answer())
}

/// Asked between steps and while Tesseract runs: whether the client that
/// wanted the scan has gone.
pub type Abandoned<'a> = &'a dyn Fn() -> bool;

/// The reading of the card the right way up, and the image it was read on.
fn upright_reading(image: GrayImage, ocr: &tesseract::Reader<'_>) -> Result<(GrayImage, Reading), OcrError> {
    let reading = ocr.read(&image, Layout::Page)?;
    // Tesseract's layout analysis finds a card turned a quarter clockwise
    // by itself; one upside down or turned a quarter the other way it reads
    // as gibberish of low confidence, and half a turn brings either to a
    // way it reads.
    if reading.confidence() >= CONFIDENT {
        return Ok((image, reading));
    }
    let turned = imageops::rotate180(&image);
    let turned_reading = ocr.read(&turned, Layout::Page)?;
    Ok(if turned_reading.score() > reading.score() { (turned, turned_reading) } else { (image, reading) })
}

//! Sums of pixels over any window in constant time: the brightness of the
//! paper around a pixel, to tell ink from paper under uneven light.

use image::GrayImage;

/// A summed-area table: each entry the sum of the pixels above and left.
pub struct SummedArea {
    sums: Vec<u64>,
    width: usize,
    height: usize,
}

impl SummedArea {
    pub fn new(gray: &GrayImage) -> Self {
        let (width, height) = (gray.width() as usize, gray.height() as usize);
        let pixels = gray.as_raw();
        let mut sums = vec![0u64; (width + 1) * (height + 1)];
        for y in 0..height {
            let mut row = 0;
            for x in 0..width {
                row += u64::from(pixels[y * width + x]);
                sums[(y + 1) * (width + 1) + x + 1] = sums[y * (width + 1) + x + 1] + row;
            }
        }
        SummedArea { sums, width, height }
    }

    /// The sum of the pixels within `reach` of (x, y), cut at the image's
    /// edges, and how many pixels that is.
    pub fn around(&self, x: usize, y: usize, reach: usize) -> (u64, u64) {
        let (top, bottom) = (y.saturating_sub(reach), (y + reach + 1).min(self.height));
        let (left, right) = (x.saturating_sub(reach), (x + reach + 1).min(self.width));
        let stride = self.width + 1;
        let sum = self.sums[bottom * stride + right] + self.sums[top * stride + left]
            - self.sums[top * stride + right]
            - self.sums[bottom * stride + left];
        (sum, ((bottom - top) * (right - left)) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_sums_what_it_covers_and_stops_at_the_edges() {
        let gray = GrayImage::from_fn(5, 4, |x, y| image::Luma([(x + 10 * y) as u8]));
        let table = SummedArea::new(&gray);
        // (1..=3) × (0..=2): columns 1, 2, 3 plus rows 0, 10, 20.
        assert_eq!(table.around(2, 1, 1), (3 * (1 + 2 + 3) + 3 * (10 + 20), 9));
        assert_eq!(table.around(0, 0, 1), (1 + 10 + 11, 4));
        assert_eq!(table.around(4, 3, 10), (gray.pixels().map(|p| u64::from(p.0[0])).sum(), 20));
    }
}

//! What Tesseract read: lines of words, each word with its confidence, each
//! line with its place and height (the printed size tells a name from the
//! small print).

/// One word and how sure Tesseract is of it, 0–1.
#[derive(Debug, Clone, PartialEq)]
pub struct Word {
    pub text: String,
    pub confidence: f32,
}

/// A box on the image read, in pixels.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Bounds {
    pub left: u32,
    pub top: u32,
    pub width: u32,
    pub height: u32,
}

/// A line of words and the box around it.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub words: Vec<Word>,
    pub bounds: Bounds,
}

impl Line {
    /// A line of text read with full confidence, at no place: for text that
    /// does not come from Tesseract (and for tests).
    pub fn plain(text: &str) -> Self {
        let words = text.split_whitespace().map(|w| Word { text: w.to_owned(), confidence: 1.0 }).collect();
        Line { words, bounds: Bounds::default() }
    }

    pub fn text(&self) -> String {
        self.words.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" ")
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reading {
    pub lines: Vec<Line>,
}

impl Reading {
    /// Lines of text read with full confidence (see `Line::plain`).
    pub fn plain(text: &str) -> Self {
        Reading { lines: text.lines().map(Line::plain).filter(|l| !l.words.is_empty()).collect() }
    }

    pub fn words(&self) -> impl Iterator<Item = &Word> {
        self.lines.iter().flat_map(|l| &l.words)
    }

    /// The mean confidence of its words, 0–1.
    pub fn confidence(&self) -> f32 {
        let (sum, count) = self.words().fold((0.0, 0), |(s, n), w| (s + w.confidence, n + 1));
        if count == 0 { 0.0 } else { sum / count as f32 }
    }

    /// Confident readings of more words win.
    pub fn score(&self) -> f32 {
        self.confidence() * (self.words().count().min(12) as f32 / 12.0)
    }
}

/// Tesseract's TSV: a row per page, block, paragraph, line (level 4, with
/// the line's box) and word (level 5, with its confidence in percent).
pub fn parse_tsv(tsv: &str) -> Reading {
    let mut lines: Vec<((u32, u32, u32), Line)> = Vec::new();
    for row in tsv.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        if cols.len() < 12 {
            continue;
        }
        let number = |i: usize| cols[i].trim().parse::<u32>().unwrap_or(0);
        let key = (number(2), number(3), number(4));
        match cols[0] {
            "4" => {
                let bounds = Bounds { left: number(6), top: number(7), width: number(8), height: number(9) };
                lines.push((key, Line { words: Vec::new(), bounds }));
            }
            "5" => {
                let text = cols[11].trim();
                let confidence: f32 = cols[10].trim().parse().unwrap_or(-1.0);
                if text.is_empty() || confidence < 0.0 {
                    continue;
                }
                let word = Word { text: text.to_owned(), confidence: (confidence / 100.0).clamp(0.0, 1.0) };
                match lines.last_mut() {
                    Some((k, line)) if *k == key => line.words.push(word),
                    // A word without its line row: a line of its own.
                    _ => lines.push((key, Line { words: vec![word], bounds: Bounds::default() })),
                }
            }
            _ => {}
        }
    }
    Reading { lines: lines.into_iter().map(|(_, line)| line).filter(|line| !line.words.is_empty()).collect() }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str =
        "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n";

    #[test]
    fn tesseract_rows_become_lines_with_their_boxes_and_word_confidences() {
        let tsv = format!(
            "{HEADER}1\t1\t0\t0\t0\t0\t0\t0\t100\t100\t-1\t\n\
             4\t1\t1\t1\t1\t0\t10\t20\t300\t48\t-1\t\n\
             5\t1\t1\t1\t1\t1\t10\t20\t100\t48\t90\tJane\n\
             5\t1\t1\t1\t1\t2\t120\t20\t100\t48\t80\tDoe\n\
             4\t1\t1\t1\t2\t0\t10\t80\t200\t24\t-1\t\n\
             5\t1\t1\t1\t2\t1\t10\t80\t100\t24\t70\tCEO\n\
             5\t1\t1\t1\t2\t2\t10\t80\t100\t24\t95\t \n"
        );
        let reading = parse_tsv(&tsv);
        assert_eq!(reading.lines.iter().map(Line::text).collect::<Vec<_>>(), ["Jane Doe", "CEO"]);
        assert_eq!(reading.lines[0].bounds, Bounds { left: 10, top: 20, width: 300, height: 48 });
        assert_eq!(reading.lines[1].words[0].confidence, 0.7);
        assert!((reading.confidence() - 0.8).abs() < 1e-6);
    }

    #[test]
    fn rows_cut_short_or_garbled_are_skipped() {
        let tsv =
            format!("{HEADER}5\t1\n4\tx\ty\tz\t1\t0\ta\tb\tc\td\t-1\t\n5\t1\t1\t1\t1\t1\t0\t0\t1\t1\tnan?\tword\n");
        assert_eq!(parse_tsv(&tsv), Reading::default());
    }
}

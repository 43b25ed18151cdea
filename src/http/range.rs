//! `Range: bytes=…` requests, as Safari needs them to play and seek audio.

/// The byte range to send of a file of `size` bytes (end exclusive).
#[derive(Debug, PartialEq, Eq)]
pub enum Span {
    Whole,
    Part { start: u64, end: u64 },
    /// 416: the range lies outside the file.
    Unsatisfiable,
}

/// Reads one range (`a-b`, `a-` or `-n`); several ranges or anything
/// malformed are answered with the whole file, as RFC 9110 allows.
pub fn parse(header: Option<&str>, size: u64) -> Span {
    let Some(spec) = header.and_then(|h| h.trim().strip_prefix("bytes=")) else { return Span::Whole };
    if spec.contains(',') {
        return Span::Whole;
    }
    let Some((first, last)) = spec.split_once('-') else { return Span::Whole };
    let (first, last) = (first.trim(), last.trim());
    let number = |s: &str| s.parse::<u64>().ok();
    match (first.is_empty(), last.is_empty()) {
        (true, false) => match number(last) {
            Some(0) => Span::Unsatisfiable,
            Some(n) if size > 0 => Span::Part { start: size.saturating_sub(n), end: size },
            Some(_) => Span::Unsatisfiable,
            None => Span::Whole,
        },
        (false, _) => {
            let Some(start) = number(first) else { return Span::Whole };
            let end = if last.is_empty() { Some(size) } else { number(last).map(|l| l.saturating_add(1).min(size)) };
            match end {
                None => Span::Whole,
                Some(_) if start >= size => Span::Unsatisfiable,
                Some(end) if end <= start => Span::Whole,
                Some(end) => Span::Part { start, end },
            }
        }
        (true, true) => Span::Whole,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_of_each_form_are_read() {
        assert_eq!(parse(Some("bytes=0-99"), 1000), Span::Part { start: 0, end: 100 });
        assert_eq!(parse(Some("bytes=900-"), 1000), Span::Part { start: 900, end: 1000 });
        assert_eq!(parse(Some("bytes=-100"), 1000), Span::Part { start: 900, end: 1000 });
        assert_eq!(parse(Some("bytes=0-5000"), 1000), Span::Part { start: 0, end: 1000 });
        assert_eq!(parse(Some("bytes=0-1"), 1000), Span::Part { start: 0, end: 2 });
    }

    #[test]
    fn ranges_outside_the_file_are_unsatisfiable() {
        assert_eq!(parse(Some("bytes=1000-"), 1000), Span::Unsatisfiable);
        assert_eq!(parse(Some("bytes=-0"), 1000), Span::Unsatisfiable);
    }

    #[test]
    fn anything_else_gets_the_whole_file() {
        for header in [None, Some("items=0-1"), Some("bytes=0-1,5-6"), Some("bytes=abc"), Some("bytes=5-2"), Some("bytes=-")] {
            assert_eq!(parse(header, 1000), Span::Whole, "{header:?}");
        }
    }
}

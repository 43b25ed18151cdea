//! `Range: bytes=…` requests, as Safari needs them to play and seek audio.

/// The byte range to send of a file of `size` bytes (end exclusive).
#[derive(Debug, PartialEq, Eq)]
pub enum Span {
    Whole,
    Part {
        start: u64,
        end: u64,
    },
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
        for header in
            [None, Some("items=0-1"), Some("bytes=0-1,5-6"), Some("bytes=abc"), Some("bytes=5-2"), Some("bytes=-")]
        {
            assert_eq!(parse(header, 1000), Span::Whole, "{header:?}");
        }
    }
}

#[cfg(test)]
mod properties {
    use proptest::prelude::*;

    use super::*;

    fn size() -> impl Strategy<Value = u64> {
        prop_oneof![Just(0u64), Just(1), 0u64..4096, Just(u64::MAX - 1), Just(u64::MAX), any::<u64>()]
    }

    fn number() -> impl Strategy<Value = String> {
        prop_oneof![
            (0u64..5000).prop_map(|n| n.to_string()),
            any::<u64>().prop_map(|n| n.to_string()),
            Just("18446744073709551616".to_owned()),
            "[0-9+ -]{0,6}"
        ]
    }

    /// What a browser sends, what a scanner sends, and noise.
    fn header() -> impl Strategy<Value = String> {
        prop_oneof![
            ".*",
            (
                "[ ]{0,2}",
                prop_oneof![Just("bytes="), Just("Bytes="), Just("bytes ="), Just("items=")],
                number(),
                "[-,]{0,2}",
                number(),
                ",?"
            )
                .prop_map(|(lead, unit, a, dash, b, comma)| format!("{lead}{unit}{a}{dash}{b}{comma}")),
            "bytes=[0-9,-]{0,12}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn every_range_served_lies_inside_the_file(header in proptest::option::of(header()), size in size()) {
            match parse(header.as_deref(), size) {
                Span::Part { start, end } => prop_assert!(start < end && end <= size, "{start}..{end} of {size}"),
                Span::Unsatisfiable => prop_assert!(header.is_some()),
                Span::Whole => {}
            }
        }

        #[test]
        fn a_range_from_a_to_b_is_served_as_asked_cut_at_the_end(a in 0u64..5000, len in 0u64..5000, size in 0u64..5000) {
            let b = a + len;
            let expected = if a >= size { Span::Unsatisfiable } else { Span::Part { start: a, end: (b + 1).min(size) } };
            prop_assert_eq!(parse(Some(&format!("bytes={a}-{b}")), size), expected);
        }

        #[test]
        fn an_open_or_suffix_range_reaches_the_end_of_the_file(a in 0u64..5000, n in 1u64..5000, size in 0u64..5000) {
            let open = if a >= size { Span::Unsatisfiable } else { Span::Part { start: a, end: size } };
            prop_assert_eq!(parse(Some(&format!("bytes={a}-")), size), open);
            let suffix = if size == 0 { Span::Unsatisfiable } else { Span::Part { start: size.saturating_sub(n), end: size } };
            prop_assert_eq!(parse(Some(&format!("bytes=-{n}")), size), suffix);
        }
    }
}

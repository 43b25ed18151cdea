//! The language data a scan reads with, kept lean.
//!
//! Debian's Latin-script file is 89 MB, of which 88.8 MB is one word list
//! for all of Europe's languages. Tesseract parses it at every start: 0.6 s
//! of a card's 1.2 s, for names, addresses and company names that are mostly
//! in no dictionary. The scanner reads with a copy that leaves the list out
//! and keeps the network, its alphabet, and the punctuation and number
//! patterns, written once into the data directory.
//!
//! A `.traineddata` file is a table of contents (the number of components,
//! then each one's byte offset, -1 for an absent one) followed by the
//! components in order; each one ends where the next present one starts.

use std::fs;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The index of the LSTM's word list in the table of contents
/// (`TESSDATA_LSTM_SYSTEM_DAWG` in Tesseract's sources).
const LSTM_WORD_LIST: usize = 19;
/// More components than any Tesseract has had: a larger count is no table.
const MOST_COMPONENTS: usize = 64;

/// Copies the `.traineddata` file `source` (`len` bytes) to `out` without
/// its LSTM word list, a component at a time (the file is 89 MB: never held
/// whole). `Ok(false)`, with nothing written, when it is not a file this
/// understands.
fn copy_without_word_list(source: &mut (impl Read + Seek), len: u64, out: &mut impl Write) -> io::Result<bool> {
    let Some((count, present)) = contents(source, len) else { return Ok(false) };
    let kept: Vec<Part> = present.into_iter().filter(|&(index, ..)| index != LSTM_WORD_LIST).collect();
    let mut table = vec![-1i64; count];
    let mut next = 4 + 8 * count as u64;
    for &(index, start, end) in &kept {
        table[index] = i64::try_from(next).map_err(io::Error::other)?;
        next += end - start;
    }
    out.write_all(&(count as u32).to_le_bytes())?;
    for offset in table {
        out.write_all(&offset.to_le_bytes())?;
    }
    for (_, start, end) in kept {
        source.seek(SeekFrom::Start(start))?;
        let copied = io::copy(&mut source.by_ref().take(end - start), out)?;
        if copied != end - start {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
    }
    Ok(true)
}

/// Where a component lies in the file: its index, its first byte and one
/// past its last.
type Part = (usize, u64, u64);

/// The component count of a `.traineddata` file of `len` bytes, and where
/// each component it holds lies. `None` when the table is not one.
fn contents(source: &mut impl Read, len: u64) -> Option<(usize, Vec<Part>)> {
    let mut head = [0u8; 4];
    source.read_exact(&mut head).ok()?;
    let count = usize::try_from(u32::from_le_bytes(head)).ok()?;
    if count == 0 || count > MOST_COMPONENTS {
        return None;
    }
    let mut table = vec![0u8; 8 * count];
    source.read_exact(&mut table).ok()?;
    let present: Vec<(usize, u64)> = table
        .chunks_exact(8)
        .enumerate()
        .filter_map(|(i, bytes)| u64::try_from(i64::from_le_bytes(bytes.try_into().ok()?)).ok().map(|o| (i, o)))
        .collect();
    let header = 4 + 8 * count as u64;
    let mut parts = Vec::with_capacity(present.len());
    for (k, &(index, start)) in present.iter().enumerate() {
        let end = present.get(k + 1).map_or(len, |&(_, next)| next);
        if start < header || end < start || end > len {
            return None;
        }
        parts.push((index, start, end));
    }
    Some((count, parts))
}

/// The lean copy of `language` from `installed_in`, written into `folder`
/// when missing or older than its source: the folder to pass Tesseract as
/// `--tessdata-dir`. `None` when the copy cannot be made (the scan then
/// reads with the installed file).
pub fn lean_copy(installed_in: &Path, language: &str, folder: &Path) -> Option<PathBuf> {
    let file = format!("{language}.traineddata");
    let (source, copy) = (installed_in.join(&file), folder.join(&file));
    let modified = |path: &Path| fs::metadata(path).and_then(|m| m.modified()).ok();
    if modified(&copy).is_some_and(|made| modified(&source).is_some_and(|source| made >= source)) {
        return Some(folder.to_owned());
    }
    let part = folder.join(format!("{file}.part"));
    let write = || -> io::Result<bool> {
        let mut input = fs::File::open(&source)?;
        let len = input.metadata()?.len();
        fs::create_dir_all(folder)?;
        // Written aside and renamed, so a scan never reads half a file.
        let mut out = io::BufWriter::new(fs::File::create(&part)?);
        if !copy_without_word_list(&mut io::BufReader::new(&mut input), len, &mut out)? {
            return Ok(false);
        }
        out.into_inner().map_err(io::IntoInnerError::into_error)?.sync_all()?;
        fs::rename(&part, &copy)?;
        Ok(true)
    };
    let written = write();
    if !matches!(written, Ok(true)) {
        let _ = fs::remove_file(&part);
    }
    match written {
        Ok(true) => Some(folder.to_owned()),
        Ok(false) => None,
        Err(e) => {
            tracing::warn!("cannot write the lean language data into {}: {e}", folder.display());
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of `count` components, those of `present` holding their index
    /// repeated `index + 1` times.
    fn traineddata(count: usize, present: &[usize]) -> Vec<u8> {
        let header = 4 + 8 * count;
        let mut data = (count as u32).to_le_bytes().to_vec();
        let mut body = Vec::new();
        let mut table = vec![-1i64; count];
        for &i in present {
            table[i] = (header + body.len()) as i64;
            body.extend(std::iter::repeat_n(i as u8, i + 1));
        }
        for offset in table {
            data.extend_from_slice(&offset.to_le_bytes());
        }
        data.extend(body);
        data
    }

    fn without_word_list(data: &[u8]) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        let copied = copy_without_word_list(&mut io::Cursor::new(data), data.len() as u64, &mut out).unwrap();
        assert!(copied || out.is_empty(), "nothing is written for what is refused");
        copied.then_some(out)
    }

    fn component(data: &[u8], index: usize) -> Option<Vec<u8>> {
        let count = u32::from_le_bytes(data[..4].try_into().unwrap()) as usize;
        let offset = |i: usize| i64::from_le_bytes(data[4 + 8 * i..12 + 8 * i].try_into().unwrap());
        let start = usize::try_from(offset(index)).ok()?;
        let end = (index + 1..count).filter_map(|i| usize::try_from(offset(i)).ok()).next().unwrap_or(data.len());
        Some(data[start..end].to_vec())
    }

    #[test]
    fn the_word_list_is_left_out_and_every_other_component_kept_byte_for_byte() {
        let full = traineddata(24, &[17, 18, 19, 20, 21, 22, 23]);
        let lean = without_word_list(&full).unwrap();
        assert_eq!(lean.len(), full.len() - 20);
        assert_eq!(component(&lean, LSTM_WORD_LIST), None);
        for i in [17, 18, 20, 21, 22, 23] {
            assert_eq!(component(&lean, i), component(&full, i), "component {i}");
        }
    }

    #[test]
    fn a_file_without_a_word_list_is_copied_unchanged() {
        let full = traineddata(24, &[0, 3, 17, 23]);
        assert_eq!(without_word_list(&full).unwrap(), full);
    }

    #[test]
    fn what_is_no_table_of_contents_is_refused() {
        assert_eq!(without_word_list(b""), None);
        assert_eq!(without_word_list(&[0, 0, 0, 0]), None);
        assert_eq!(without_word_list(&1000u32.to_le_bytes()), None);
        let mut cut = traineddata(24, &[17, 19, 23]);
        cut.truncate(4 + 8 * 10);
        assert_eq!(without_word_list(&cut), None);
        let mut pointing_past_the_end = traineddata(24, &[17, 23]);
        pointing_past_the_end[4 + 8 * 23..4 + 8 * 24].copy_from_slice(&10_000i64.to_le_bytes());
        assert_eq!(without_word_list(&pointing_past_the_end), None);
    }

    #[test]
    fn the_copy_is_made_once_and_again_when_the_source_changes() {
        let dir = tempfile::tempdir().unwrap();
        let (installed, lean) = (dir.path().join("installed"), dir.path().join("lean"));
        fs::create_dir(&installed).unwrap();
        fs::write(installed.join("Latin.traineddata"), traineddata(24, &[17, 19, 23])).unwrap();
        assert_eq!(lean_copy(&installed, "Latin", &lean).as_deref(), Some(lean.as_path()));
        let made = fs::read(lean.join("Latin.traineddata")).unwrap();
        assert_eq!(component(&made, LSTM_WORD_LIST), None);

        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
        fs::write(installed.join("Latin.traineddata"), traineddata(24, &[17, 18, 19, 23])).unwrap();
        fs::File::options().write(true).open(installed.join("Latin.traineddata")).unwrap().set_modified(later).unwrap();
        lean_copy(&installed, "Latin", &lean).unwrap();
        assert_eq!(component(&fs::read(lean.join("Latin.traineddata")).unwrap(), 18), Some(vec![18; 19]));
    }

    #[test]
    fn a_source_that_is_no_traineddata_gives_no_copy() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("Latin.traineddata"), b"not a model").unwrap();
        assert_eq!(lean_copy(dir.path(), "Latin", &dir.path().join("lean")), None);
        assert!(!dir.path().join("lean").join("Latin.traineddata").exists());
    }
}

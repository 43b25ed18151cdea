//! A stored file read as a stream, a window at a time: decoders read a
//! recording of any length in the memory of one window.

use std::io::{self, Read, Seek, SeekFrom};

use super::blobs::read_blob;
use super::{Blob, Store};

/// Bytes fetched from the store at a time.
const WINDOW: u64 = 256 * 1024;

pub struct BlobReader {
    store: Store,
    blob: Blob,
    /// The window held, and the offset of its first byte.
    window: Vec<u8>,
    window_at: u64,
    position: u64,
}

impl Store {
    /// Reads blob `blob` from its start, fetching a window at a time.
    pub fn blob_reader(&self, blob: Blob) -> BlobReader {
        BlobReader { store: self.clone(), blob, window: Vec::new(), window_at: 0, position: 0 }
    }
}

impl BlobReader {
    pub fn size(&self) -> u64 {
        self.blob.size()
    }
}

impl Read for BlobReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let size = self.blob.size();
        if self.position >= size || buf.is_empty() {
            return Ok(0);
        }
        let held = self.window_at..self.window_at + self.window.len() as u64;
        if !held.contains(&self.position) {
            let end = (self.position + WINDOW).min(size);
            self.window = match self.store.blob_range(&self.blob, self.position, end) {
                Ok(window) => window,
                // Each window is its own read: between two, the upkeep may
                // have moved the blob's bytes out of the database into its
                // file (the same bytes). Look where they are now, once.
                Err(_) => {
                    self.blob = read_blob(&self.store.read().map_err(io::Error::other)?, self.blob.id())
                        .map_err(io::Error::other)?;
                    self.store.blob_range(&self.blob, self.position, end).map_err(io::Error::other)?
                }
            };
            self.window_at = self.position;
        }
        let from = (self.position - self.window_at) as usize;
        let n = buf.len().min(self.window.len() - from);
        buf[..n].copy_from_slice(&self.window[from..from + n]);
        self.position += n as u64;
        Ok(n)
    }
}

impl Seek for BlobReader {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let target = match to {
            SeekFrom::Start(n) => Some(n),
            SeekFrom::End(n) => self.blob.size().checked_add_signed(n),
            SeekFrom::Current(n) => self.position.checked_add_signed(n),
        };
        self.position = target.ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "seek before the start"))?;
        Ok(self.position)
    }
}

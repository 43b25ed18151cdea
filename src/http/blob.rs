//! Sends a stored file (photo, picture, recording) with ranges, streaming
//! it chunk by chunk so a long recording never sits whole in memory.

use bytes::Bytes;
use salvo::http::header::{self, HeaderValue};
use salvo::prelude::*;

use super::error::{AppError, AppResult};
use super::range::{self, Span};
use crate::store::{Blob, CHUNK, Store};

/// Writes `blob` to the response. The URLs carry the blob id, so a browser
/// may keep the file for good (privately: it is personal).
pub fn send(req: &Request, res: &mut Response, store: &Store, blob: Blob) -> AppResult<()> {
    let Some((start, end)) = head(req, res, blob.content_type(), blob.size())? else { return Ok(()) };
    let store = store.clone();
    let pieces = futures_util::stream::unfold(start, move |at| {
        let (store, blob) = (store.clone(), blob.clone());
        async move {
            if at >= end {
                return None;
            }
            let until = (at / CHUNK as u64 + 1) * CHUNK as u64;
            let until = until.min(end);
            let read = store.run(move |s| s.blob_range(&blob, at, until)).await;
            match read {
                Ok(bytes) => Some((Ok::<_, std::io::Error>(Bytes::from(bytes)), until)),
                Err(e) => {
                    tracing::error!("reading a stored file: {e}");
                    Some((Err(std::io::Error::other(e.to_string())), end))
                }
            }
        }
    });
    res.stream(pieces);
    Ok(())
}

/// Writes a file of `size` bytes made on the fly, a piece at a time:
/// `make(start, end)` streams the bytes of the span the request asks for,
/// so a long recording decoded to WAV is never whole in memory.
pub fn send_made<S>(
    req: &Request,
    res: &mut Response,
    content_type: &str,
    size: u64,
    make: impl FnOnce(u64, u64) -> S,
) -> AppResult<()>
where
    S: futures_util::Stream<Item = Result<Bytes, std::io::Error>> + Send + 'static,
{
    let Some((start, end)) = head(req, res, content_type, size)? else { return Ok(()) };
    res.stream(make(start, end));
    Ok(())
}

/// Writes the headers of a file of `size` bytes as the request's `Range`
/// asks; returns the span of bytes to send, or `None` when there are none.
fn head(req: &Request, res: &mut Response, content_type: &str, size: u64) -> AppResult<Option<(u64, u64)>> {
    let span = range::parse(req.headers().get(header::RANGE).and_then(|v| v.to_str().ok()), size);
    let headers = res.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_str(content_type).map_err(AppError::internal)?);
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("private, max-age=31536000, immutable"));
    headers.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    // Opened on its own, a stored file is inert: no script, no plugin, no
    // origin, even if a browser someday took it for a page.
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("default-src 'none'; sandbox"));
    let (start, end) = match span {
        Span::Whole => (0, size),
        Span::Part { start, end } => {
            res.status_code(StatusCode::PARTIAL_CONTENT);
            let value = format!("bytes {start}-{}/{size}", end - 1);
            res.headers_mut().insert(header::CONTENT_RANGE, HeaderValue::from_str(&value).map_err(AppError::internal)?);
            (start, end)
        }
        Span::Unsatisfiable => {
            res.status_code(StatusCode::RANGE_NOT_SATISFIABLE);
            let value = format!("bytes */{size}");
            res.headers_mut().insert(header::CONTENT_RANGE, HeaderValue::from_str(&value).map_err(AppError::internal)?);
            return Ok(None);
        }
    };
    res.headers_mut().insert(header::CONTENT_LENGTH, HeaderValue::from(end - start));
    Ok(Some((start, end)))
}

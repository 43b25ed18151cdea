//! Multipart uploads read under a byte budget.
//!
//! A `Content-Length` over the limit is refused from the headers, but a
//! chunked body announces nothing, and the multipart parser keeps a part's
//! headers in memory until their blank line arrives: an endless header would
//! be buffered in full. So every byte read from the body is counted against
//! an allowance: small while the parser looks for the next part (headers,
//! and fields the route ignores), the field's own limit while its content is
//! read. Past the allowance the body is no longer read.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};

use bytes::Bytes;
use futures_util::Stream;
use http_body_util::BodyExt;
use salvo::prelude::*;

use super::error::{AppError, AppResult};

/// What may be read between two parts: a part's headers, and the small
/// fields a route skips (`userId`).
pub const BETWEEN_PARTS: u64 = 64 * 1024;

/// A multipart body whose parts are read one field at a time.
pub struct Upload {
    form: multer::Multipart<'static>,
    allowance: Arc<Allowance>,
    too_large: fn() -> AppError,
}

/// A field being read.
pub struct Part {
    field: multer::Field<'static>,
    too_large: fn() -> AppError,
}

impl Upload {
    /// The request's multipart body; `hint` says how to send it right, and
    /// `too_large` is the answer to a body over its allowance.
    pub fn new(req: &mut Request, hint: &'static str, too_large: fn() -> AppError) -> AppResult<Self> {
        let content_type = req.header::<String>("content-type").unwrap_or_default();
        let boundary = multer::parse_boundary(&content_type).map_err(|_| AppError::unsupported(hint))?;
        let allowance = Arc::new(Allowance::default());
        let body =
            Counted { inner: req.take_body().into_data_stream(), allowance: allowance.clone(), just_gave: false };
        Ok(Self { form: multer::Multipart::new(body, boundary), allowance, too_large })
    }

    /// The first field called `name`, skipping the others, whose content may
    /// then be read up to `max` bytes; `None` when the body has no such field.
    pub async fn field(&mut self, name: &str, max: u64) -> AppResult<Option<Part>> {
        self.allowance.allow(BETWEEN_PARTS);
        while let Some(field) = self.form.next_field().await.map_err(|e| read_error(&e, self.too_large))? {
            if field.name() == Some(name) {
                self.allowance.allow(max.saturating_add(BETWEEN_PARTS));
                return Ok(Some(Part { field, too_large: self.too_large }));
            }
        }
        Ok(None)
    }
}

impl Part {
    /// The next piece of the field, `None` at its end.
    pub async fn chunk(&mut self) -> AppResult<Option<Bytes>> {
        self.field.chunk().await.map_err(|e| read_error(&e, self.too_large))
    }
}

/// Over the allowance: too large; anything else: cut off or malformed.
fn read_error(e: &multer::Error, too_large: fn() -> AppError) -> AppError {
    let over = match e {
        multer::Error::StreamReadFailed(inner) => inner.downcast_ref::<OverAllowance>().is_some(),
        _ => false,
    };
    if over { too_large() } else { AppError::bad_request("The upload was cut off or malformed") }
}

/// Bytes read from the body so far, and how many it may reach.
#[derive(Default)]
struct Allowance {
    read: AtomicU64,
    limit: AtomicU64,
}

impl Allowance {
    /// From now on, `more` bytes may be read.
    fn allow(&self, more: u64) {
        self.limit.store(self.read.load(Ordering::SeqCst).saturating_add(more), Ordering::SeqCst);
    }

    /// Counts a piece of `n` bytes; `false` when the piece starts past the
    /// limit. A piece that starts within it is taken whole: the server reads
    /// the body in pieces of bounded size, and one arriving with a part's
    /// headers may carry much of its content too.
    fn take(&self, n: usize) -> bool {
        self.read.fetch_add(n as u64, Ordering::SeqCst) < self.limit.load(Ordering::SeqCst)
    }
}

#[derive(Debug, thiserror::Error)]
#[error("the upload went past what the route allows")]
struct OverAllowance;

/// The request body, counted against the allowance as it is read.
///
/// It hands the parser one piece per poll: the parser reads for as long as
/// pieces are ready, and on a fast connection that would gather megabytes
/// in its buffer for every upload under way.
struct Counted<S> {
    inner: S,
    allowance: Arc<Allowance>,
    just_gave: bool,
}

impl<S, E> Stream for Counted<S>
where
    S: Stream<Item = Result<Bytes, E>> + Unpin,
    E: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Item = Result<Bytes, Box<dyn std::error::Error + Send + Sync>>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if std::mem::take(&mut self.just_gave) {
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        self.just_gave = true;
        match Pin::new(&mut self.inner).poll_next(cx) {
            Poll::Ready(Some(Ok(bytes))) if !self.allowance.take(bytes.len()) => {
                Poll::Ready(Some(Err(Box::new(OverAllowance))))
            }
            Poll::Ready(item) => Poll::Ready(item.map(|r| r.map_err(Into::into))),
            Poll::Pending => {
                self.just_gave = false;
                Poll::Pending
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_allowance_counts_from_where_it_was_given() {
        let allowance = Allowance::default();
        allowance.allow(10);
        assert!(allowance.take(6) && allowance.take(4));
        assert!(!allowance.take(1), "a piece starting past the allowance");
        allowance.allow(100);
        assert!(allowance.take(99) && allowance.take(50), "a piece starting within it is taken whole");
        assert!(!allowance.take(1));
    }
}

//! A request body must keep arriving. One trickled a byte every ten seconds
//! held its connection (and a file descriptor) for as long as its sender
//! liked: ten thousand such used up the descriptors and the server stopped
//! answering. The rule is a rate, not a total time, so a 400 MB recording
//! over a slow phone still finishes: fewer than [`MIN_BYTES`] in any
//! [`WINDOW`] (counted from the first read) ends the request with 408, and
//! its connection is closed.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use salvo::BoxedError;
use salvo::http::ReqBody;
use salvo::http::body::{Body, Frame, SizeHint};
use salvo::prelude::*;
use tokio::time::{Instant, Sleep};

use super::error::AppError;

/// 16 KB in 30 s is half a kilobyte a second: a phone on the weakest 2G
/// link sends more, a trickle sends less.
const MIN_BYTES: u64 = 16 * 1024;
const WINDOW: Duration = Duration::from_secs(30);

/// Wraps every streamed request body in the rate rule, and answers 408 for
/// a request whose body was cut off by it, whatever its handler made of the
/// missing bytes.
#[handler]
pub async fn min_rate(req: &mut Request, depot: &mut Depot, res: &mut Response, ctrl: &mut FlowCtrl) {
    let cut = Arc::new(AtomicBool::new(false));
    let body = req.take_body();
    let body = match body {
        ReqBody::None | ReqBody::Once(_) => body,
        streamed => ReqBody::Boxed {
            inner: Box::pin(MinRate { inner: streamed, got: 0, deadline: None, cut: cut.clone() }),
            fuse_config: None,
        },
    };
    req.replace_body(body);
    ctrl.call_next(req, depot, res).await;
    if cut.load(Ordering::SeqCst) {
        res.replace_body(salvo::http::ResBody::None);
        res.render(AppError::request_timeout("The request body arrived too slowly"));
    }
}

struct MinRate {
    inner: ReqBody,
    /// Bytes received in the current window.
    got: u64,
    /// The end of the current window, set at the first read.
    deadline: Option<Pin<Box<Sleep>>>,
    cut: Arc<AtomicBool>,
}

impl Body for MinRate {
    type Data = Bytes;
    type Error = BoxedError;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, BoxedError>>> {
        let this = &mut *self;
        let deadline = this.deadline.get_or_insert_with(|| Box::pin(tokio::time::sleep(WINDOW)));
        while deadline.as_mut().poll(cx).is_ready() {
            if this.got < MIN_BYTES {
                this.cut.store(true, Ordering::SeqCst);
                return Poll::Ready(Some(Err(Box::new(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the request body arrived too slowly",
                )))));
            }
            this.got = 0;
            deadline.as_mut().reset(Instant::now() + WINDOW);
        }
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                this.got += frame.data_ref().map_or(0, |d| d.len() as u64);
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(e))) => Poll::Ready(Some(Err(Box::new(e)))),
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

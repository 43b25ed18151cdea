//! Each user's client list as last sent, kept until the next write.
//!
//! History fetches the list on every visit, and it is the largest answer of
//! the API (a thousand clients are 400 kB of JSON that take milliseconds to
//! read and render), while it changes only when something is written.

use bytes::Bytes;
use salvo::http::header::{CONTENT_TYPE, HeaderValue};
use salvo::prelude::*;

use crate::domain::ids::UserId;
use crate::store::UntilWrite;

/// Each owner's rendered list.
pub type ClientLists = UntilWrite<UserId, Bytes>;

/// Sends JSON rendered beforehand, with the type `Json` would give it.
pub fn send_json(res: &mut Response, body: Bytes) {
    res.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("application/json; charset=utf-8"));
    res.body(body);
}

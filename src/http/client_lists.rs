//! Each user's client list as last sent, kept until the next write.
//!
//! History fetches the list on every visit, and it is the largest answer of
//! the API (a thousand clients are 400 kB of JSON that take milliseconds to
//! read and render), while it changes only when something is written.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use bytes::Bytes;
use salvo::http::header::{CONTENT_TYPE, HeaderValue};
use salvo::prelude::*;

use crate::domain::user::UserId;

/// Rendered lists by owner, each with the store's change count read
/// before the read that rendered it ([`crate::store::Store::changes`]).
/// Any write makes every entry stale, so at most the lists fetched since
/// the last write are held.
#[derive(Default)]
pub struct ClientLists(Mutex<HashMap<UserId, (u64, Bytes)>>);

impl ClientLists {
    /// The owner's list, if none of it changed since it was rendered.
    pub fn get(&self, owner: UserId, changes: u64) -> Option<Bytes> {
        let lists = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        lists.get(&owner).filter(|(rendered, _)| *rendered == changes).map(|(_, body)| body.clone())
    }

    /// Keeps a list rendered after the store had committed `changes`
    /// writes, dropping the lists older writes made stale.
    pub fn keep(&self, owner: UserId, changes: u64, body: Bytes) {
        let mut lists = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        lists.retain(|_, (rendered, _)| *rendered >= changes);
        if lists.get(&owner).is_none_or(|(rendered, _)| *rendered < changes) {
            lists.insert(owner, (changes, body));
        }
    }
}

/// Sends JSON rendered beforehand, with the type `Json` would give it.
pub fn send_json(res: &mut Response, body: Bytes) {
    res.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("application/json; charset=utf-8"));
    res.body(body);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_is_sent_again_only_while_nothing_was_written() {
        let lists = ClientLists::default();
        lists.keep(1, 5, Bytes::from_static(b"[1]"));
        assert_eq!(lists.get(1, 5).as_deref(), Some(&b"[1]"[..]));
        assert_eq!(lists.get(1, 6), None, "a write since makes it stale");
        assert_eq!(lists.get(2, 5), None, "never another user's");
    }

    #[test]
    fn a_newer_rendering_wins_and_stale_ones_are_dropped() {
        let lists = ClientLists::default();
        lists.keep(1, 5, Bytes::from_static(b"[old]"));
        lists.keep(2, 7, Bytes::from_static(b"[two]"));
        assert_eq!(lists.get(1, 5), None, "the write that made count 7 dropped the older list");
        lists.keep(2, 6, Bytes::from_static(b"[slower]"));
        assert_eq!(lists.get(2, 7).as_deref(), Some(&b"[two]"[..]), "a slower, older rendering does not replace it");
        assert_eq!(lists.0.lock().unwrap().len(), 1);
    }
}

//! A count of committed writes, so what is read or rendered from the
//! database can be kept until the data under it changes.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::Hash;
use std::ops::Deref;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{PoisonError, RwLock};

use super::blob_files::BlobStore;
use crate::domain::ids::BlobId;

/// Grows after every commit, before the committing call returns. A view
/// rendered in a read transaction begun after the count read N is current
/// for as long as the count is still N: a write the view may have missed
/// either has bumped the count past N or has not yet been acknowledged to
/// anyone.
#[derive(Default)]
pub(super) struct Changes(AtomicU64);

impl Changes {
    pub(super) fn count(&self) -> u64 {
        self.0.load(Ordering::Acquire)
    }
}

/// A write transaction whose commit bumps [`Changes`] and removes the files
/// of the blobs it deleted; everything else is redb's.
pub(super) struct WriteTx<'s> {
    tx: redb::WriteTransaction,
    changes: &'s Changes,
    files: &'s dyn BlobStore,
    /// Blobs whose records this transaction deletes: their files go once it
    /// commits (before, a failed commit would leave records without bytes).
    doomed: RefCell<Vec<BlobId>>,
}

impl<'s> WriteTx<'s> {
    pub(super) fn new(tx: redb::WriteTransaction, changes: &'s Changes, files: &'s dyn BlobStore) -> Self {
        Self { tx, changes, files, doomed: RefCell::default() }
    }

    /// Removes the file of blob `id` once this transaction commits.
    pub(super) fn remove_file_on_commit(&self, id: BlobId) {
        self.doomed.borrow_mut().push(id);
    }

    /// Bumps the count even when the commit fails: a view thrown away for
    /// nothing costs one rendering, a stale one kept would be a wrong answer.
    pub(super) fn commit(self) -> Result<(), redb::CommitError> {
        let committed = self.tx.commit();
        self.changes.0.fetch_add(1, Ordering::AcqRel);
        if committed.is_ok() {
            let _exclusive = self.files.exclusive();
            for id in self.doomed.into_inner() {
                // What fails here, the sweep takes later.
                if let Err(e) = self.files.remove(id) {
                    tracing::warn!(%id, "the file of a deleted blob stays until the next sweep: {e}");
                }
            }
        }
        committed
    }
}

impl Deref for WriteTx<'_> {
    type Target = redb::WriteTransaction;

    fn deref(&self) -> &redb::WriteTransaction {
        &self.tx
    }
}

/// Values read or rendered from the database, each with the change count
/// read before the read that made it ([`super::Store::changes`]). Any
/// commit makes every entry stale, so at most the values used since the
/// last write are held. Values are cloned under a lock shared by every
/// request, so keep them cheap to clone (`Arc`, `Bytes`).
pub struct UntilWrite<K, V>(RwLock<HashMap<K, (u64, V)>>);

impl<K, V> Default for UntilWrite<K, V> {
    fn default() -> Self {
        Self(RwLock::new(HashMap::new()))
    }
}

impl<K: Eq + Hash, V: Clone> UntilWrite<K, V> {
    /// The value, if nothing was written since it was made.
    pub fn get(&self, key: &K, changes: u64) -> Option<V> {
        let values = self.0.read().unwrap_or_else(PoisonError::into_inner);
        values.get(key).filter(|(made, _)| *made == changes).map(|(_, value)| value.clone())
    }

    /// Keeps a value made after the store had committed `changes` writes,
    /// dropping the values older writes made stale.
    pub fn keep(&self, key: K, changes: u64, value: V) {
        let mut values = self.0.write().unwrap_or_else(PoisonError::into_inner);
        values.retain(|_, (made, _)| *made >= changes);
        if values.get(&key).is_none_or(|(made, _)| *made < changes) {
            values.insert(key, (changes, value));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_given_back_only_while_nothing_was_written() {
        let kept = UntilWrite::default();
        kept.keep(1, 5, "one");
        assert_eq!(kept.get(&1, 5), Some("one"));
        assert_eq!(kept.get(&1, 6), None, "a write since makes it stale");
        assert_eq!(kept.get(&2, 5), None);
    }

    #[test]
    fn a_newer_value_wins_and_stale_ones_are_dropped() {
        let kept = UntilWrite::default();
        kept.keep(1, 5, "old");
        kept.keep(2, 7, "two");
        assert_eq!(kept.get(&1, 5), None, "made stale by the writes that led to count 7, and dropped");
        kept.keep(2, 6, "slower");
        assert_eq!(kept.get(&2, 7), Some("two"), "a slower, older read does not replace it");
        assert_eq!(kept.0.read().unwrap().len(), 1);
    }
}

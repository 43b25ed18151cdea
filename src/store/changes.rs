//! A count of committed writes, so a view rendered from the database can be
//! kept until the data under it changes.

use std::ops::Deref;
use std::sync::atomic::{AtomicU64, Ordering};

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

/// A write transaction whose commit bumps [`Changes`]; everything else is
/// redb's.
pub(super) struct WriteTx<'s> {
    tx: redb::WriteTransaction,
    changes: &'s Changes,
}

impl<'s> WriteTx<'s> {
    pub(super) fn new(tx: redb::WriteTransaction, changes: &'s Changes) -> Self {
        Self { tx, changes }
    }

    /// Bumps the count even when the commit fails: a view thrown away for
    /// nothing costs one rendering, a stale one kept would be a wrong answer.
    pub(super) fn commit(self) -> Result<(), redb::CommitError> {
        let committed = self.tx.commit();
        self.changes.0.fetch_add(1, Ordering::AcqRel);
        committed
    }
}

impl Deref for WriteTx<'_> {
    type Target = redb::WriteTransaction;

    fn deref(&self) -> &redb::WriteTransaction {
        &self.tx
    }
}

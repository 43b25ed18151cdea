//! Who may read and change what, as the view of the store a caller is
//! handed rather than a check each caller must remember.
//!
//! - [`OwnerView`]: one user's account, clients, jobs and files. A client of
//!   anyone else is `NotFound`, exactly like one that does not exist. Only
//!   an [`Owner`] opens it, and only a live session (or an administrator
//!   acting for a record's owner) yields one.
//! - [`AdminView`]: every user's data, and the reads across users. Only an
//!   [`Admin`] opens it: a live admin session, or the person at the box's
//!   console.
//! - [`WorkerView`]: the job queue, and each job's own client, for the job
//!   worker.
//!
//! A user's view cannot be asked for another user's client:
//!
//! ```compile_fail,E0308
//! use debrief::domain::ids::{ClientId, UserId};
//! use debrief::store::OwnerView;
//! fn read(mine: &OwnerView<'_>, someone: UserId, id: ClientId) {
//!     mine.client(someone);
//! }
//! ```

use super::Store;
use crate::domain::ids::UserId;
use crate::domain::job::JobRecord;

/// Proof that a user acts on their own data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owner(UserId);

impl Owner {
    /// Made by the store alone, from a live session.
    pub(super) fn of_session(user: UserId) -> Self {
        Self(user)
    }
}

/// Proof of an administrator.
#[derive(Debug, Clone)]
pub struct Admin(());

impl Admin {
    /// Made by the store alone, from a live admin session.
    pub(super) fn of_session() -> Self {
        Self(())
    }

    /// The person at the box's console: whoever can open the database file,
    /// or the control socket that only the account running debrief can
    /// open. Only the CLI and the control socket's requests claim it (the
    /// layer check holds them to that).
    pub fn at_the_console() -> Self {
        Self(())
    }
}

/// One user's data; see the module's notes.
#[derive(Clone, Copy)]
pub struct OwnerView<'s> {
    pub(super) store: &'s Store,
    pub(super) owner: UserId,
}

/// Every user's data; see the module's notes.
#[derive(Clone, Copy)]
pub struct AdminView<'s> {
    pub(super) store: &'s Store,
}

/// The job queue; see the module's notes.
#[derive(Clone, Copy)]
pub struct WorkerView<'s> {
    pub(super) store: &'s Store,
}

impl Store {
    pub fn as_owner(&self, owner: Owner) -> OwnerView<'_> {
        OwnerView { store: self, owner: owner.0 }
    }

    pub fn as_admin(&self, _admin: &Admin) -> AdminView<'_> {
        AdminView { store: self }
    }

    /// Only the job worker asks for it (the layer check holds it to that).
    pub fn as_worker(&self) -> WorkerView<'_> {
        WorkerView { store: self }
    }
}

impl<'s> AdminView<'s> {
    /// Acts for user `id` through the same owner-checked calls as the user.
    pub fn for_user(&self, id: UserId) -> OwnerView<'s> {
        OwnerView { store: self.store, owner: id }
    }
}

impl<'s> WorkerView<'s> {
    /// The view of a job's owner, for that job's own client.
    pub(super) fn job_owner(&self, job: &JobRecord) -> OwnerView<'s> {
        OwnerView { store: self.store, owner: job.owner }
    }
}

//! The ledger of what the server acknowledged: each client's last
//! acknowledged state and the writes whose answer a kill cut off, which may
//! or may not have landed.

use std::collections::{HashMap, HashSet};
use std::fmt::Debug;

use serde_json::{Value, json};

/// A value as last acknowledged, and the values of writes whose answer was
/// lost to a kill: each of those may or may not have landed.
#[derive(Debug)]
pub(super) struct Known<T> {
    acked: T,
    unsure: Vec<T>,
}

impl<T: PartialEq + Debug> Known<T> {
    pub(super) fn new(acked: T) -> Self {
        Self { acked, unsure: Vec::new() }
    }

    pub(super) fn ack(&mut self, value: T) {
        self.acked = value;
        self.unsure.clear();
    }

    pub(super) fn lost(&mut self, value: T) {
        self.unsure.push(value);
    }

    pub(super) fn allows(&self, value: &T) -> bool {
        self.acked == *value || self.unsure.contains(value)
    }

    /// What the server shows must be the acknowledged value or a lost one;
    /// from then on it is known.
    pub(super) fn settle(&mut self, seen: T, what: &str) {
        assert!(
            self.allows(&seen),
            "{what}: the server has {seen:?}, but the last acknowledged write was {:?} (unacknowledged since: {:?})",
            self.acked,
            self.unsure
        );
        self.ack(seen);
    }
}

/// The contact fields and texts of a client, as the API shows them.
pub(super) type Fields = Value;
/// The SHA-256 of a stored file.
pub(super) type Sha = Option<String>;

pub(super) struct Entry {
    /// Only this writer changes the client, so its history is sequential.
    pub(super) writer: usize,
    pub(super) fields: Known<Fields>,
    pub(super) photo: Known<Sha>,
    pub(super) recording: Known<Sha>,
    pub(super) deleted: Known<bool>,
}

#[derive(Default)]
pub(super) struct Ledger {
    pub(super) clients: HashMap<u64, Entry>,
    /// Deleted with a 2xx: must stay gone.
    pub(super) deleted: HashSet<u64>,
    /// Deleted since the last verification, each read once more (a 404).
    pub(super) newly_deleted: Vec<u64>,
    /// Creates cut off since the last verification: each may have made a client.
    pub(super) lost_creates: usize,
    pub(super) acknowledged: usize,
    pub(super) cut_off: usize,
}

impl Ledger {
    pub(super) fn forget(&mut self, id: u64) {
        self.clients.remove(&id);
        self.deleted.insert(id);
        self.newly_deleted.push(id);
    }
}

pub(super) fn fields_of(client: &Value) -> Fields {
    json!({
        "name": client["name"], "email": client["email"], "phone": client["phone"],
        "company": client["company"], "position": client["position"],
        "summary": client["summary"], "nextSteps": client["nextSteps"],
    })
}

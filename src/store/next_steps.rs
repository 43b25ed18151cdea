//! One user's next steps across their clients: the tracker's list, and a
//! change to one step. A step is its client's, so another user's step is
//! `NotFound`, exactly like one that does not exist; and a change rewrites
//! the client's `nextSteps` text in the same transaction, so the client
//! page, the email and the tracker read the same thing.

use redb::{ReadTransaction, ReadableTable};

use super::action_items::{items_in, put, remove};
use super::clients::read_owned;
use super::codec::decode;
use super::records::{owned, put_client};
use super::tables::{ACTION_ITEMS, ACTION_ITEMS_BY_DUE, CLIENTS};
use super::views::OwnerView;
use super::{StoreError, StoreResult};
use crate::domain::action_item::next_steps_text;
use crate::domain::action_item_record::{ActionItemRecord, StepChange};
use crate::domain::client::ClientRecord;
use crate::domain::ids::{ActionItemId, UserId};

/// A step with its client's name.
pub type TrackedStep = (ActionItemRecord, String);

impl OwnerView<'_> {
    /// The owner's next steps across their clients, done or open, soonest
    /// due first and undated last.
    pub fn next_steps(&self, done: bool) -> StoreResult<Vec<TrackedStep>> {
        steps_of(&self.store.read()?, self.owner, done)
    }

    pub fn next_step(&self, id: ActionItemId) -> StoreResult<TrackedStep> {
        let tx = self.store.read()?;
        let item = owned_item(&tx.open_table(ACTION_ITEMS)?, self.owner, id)?;
        let client = read_owned(&tx, self.owner, item.client)?;
        Ok((item, client.name))
    }

    /// Ticks, unticks or re-dates step `id`.
    pub fn change_next_step(&self, id: ActionItemId, change: StepChange) -> StoreResult<TrackedStep> {
        let tx = self.store.write()?;
        let item = owned_item(&tx.open_table(ACTION_ITEMS)?, self.owner, id)?;
        let mut client = owned(&tx, self.owner, item.client)?;
        let mut items = items_in(&tx, client.id)?;
        let Some(at) = items.iter().position(|i| i.id == id) else { return Err(StoreError::NotFound) };
        remove(&tx, &items[at])?;
        if change.apply_to(&mut items[at]) {
            client.next_steps = Some(next_steps_text(items.iter().map(|i| &i.item)));
            put_client(&tx, &client)?;
        }
        put(&tx, &items[at])?;
        tx.commit()?;
        Ok((items.swap_remove(at), client.name))
    }
}

fn owned_item(
    items: &impl ReadableTable<u64, &'static [u8]>,
    owner: UserId,
    id: ActionItemId,
) -> StoreResult<ActionItemRecord> {
    let item: Option<ActionItemRecord> = items.get(id.key())?.map(|v| decode(v.value())).transpose()?;
    item.filter(|item| item.owner == owner).ok_or(StoreError::NotFound)
}

/// `owner`'s steps, done or open, in due order, each with its client's name.
pub(super) fn steps_of(tx: &ReadTransaction, owner: UserId, done: bool) -> StoreResult<Vec<TrackedStep>> {
    let (index, items, clients) =
        (tx.open_table(ACTION_ITEMS_BY_DUE)?, tx.open_table(ACTION_ITEMS)?, tx.open_table(CLIENTS)?);
    let owner = owner.key();
    let mut found = Vec::new();
    for entry in index.range((owner, i32::MIN, 0)..=(owner, i32::MAX, u64::MAX))? {
        let Some(value) = items.get(entry?.0.value().2)? else { continue };
        let item: ActionItemRecord = decode(value.value())?;
        if item.done != done {
            continue;
        }
        let Some(client) = clients.get(item.client.key())? else { continue };
        let client: ClientRecord = decode(client.value())?;
        found.push((item, client.name));
    }
    Ok(found)
}

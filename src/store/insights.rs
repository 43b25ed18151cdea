//! The tracker's figures, read in one transaction: one user's, or (for an
//! administrator) everyone's.

use redb::{ReadTransaction, ReadableTable, ReadableTableMetadata};
use time::Date;

use super::StoreResult;
use super::clients::clients_of;
use super::codec::decode;
use super::next_steps::steps_of;
use super::tables::{ACTION_ITEMS, CLIENTS, USERS};
use super::views::{AdminView, OwnerView};
use crate::domain::action_item_record::ActionItemRecord;
use crate::domain::client::ClientRecord;
use crate::domain::insights::{Figures, Tally};

impl OwnerView<'_> {
    /// The owner's figures as of `today`, and their clients still waiting
    /// for a follow-up, oldest meeting first.
    pub fn insights(&self, today: Date) -> StoreResult<(Figures, Vec<ClientRecord>)> {
        let tx = self.store.read()?;
        let mut tally = Tally::new(today);
        let clients = clients_of(&tx, self.owner)?;
        clients.iter().for_each(|client| tally.client(client));
        steps_of(&tx, self.owner, false)?.iter().for_each(|(item, _)| tally.item(item));
        let mut waiting: Vec<ClientRecord> = clients.into_iter().filter(ClientRecord::awaits_follow_up).collect();
        waiting.sort_by_key(|client| (client.meeting_at().unwrap_or(client.created_at), client.id));
        Ok((tally.finish(), waiting))
    }
}

impl AdminView<'_> {
    /// Everyone's figures as of `today`, and how many accounts there are.
    pub fn insights(&self, today: Date) -> StoreResult<(Figures, u64)> {
        let tx = self.store.read()?;
        let mut tally = Tally::new(today);
        each::<ClientRecord>(&tx, |client| tally.client(client))?;
        each::<ActionItemRecord>(&tx, |item| tally.item(item))?;
        Ok((tally.finish(), tx.open_table(USERS)?.len()?))
    }
}

/// Calls `f` with every record of the clients or the items table.
fn each<T: Stored>(tx: &ReadTransaction, mut f: impl FnMut(&T)) -> StoreResult<()> {
    for entry in tx.open_table(T::TABLE)?.iter()? {
        f(&decode(entry?.1.value())?);
    }
    Ok(())
}

trait Stored: serde::de::DeserializeOwned {
    const TABLE: redb::TableDefinition<'static, u64, &'static [u8]>;
}

impl Stored for ClientRecord {
    const TABLE: redb::TableDefinition<'static, u64, &'static [u8]> = CLIENTS;
}

impl Stored for ActionItemRecord {
    const TABLE: redb::TableDefinition<'static, u64, &'static [u8]> = ACTION_ITEMS;
}

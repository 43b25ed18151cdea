//! A client's next steps, one row each, written inside the caller's
//! transaction with the client they belong to, so the client's `nextSteps`
//! text and its items never disagree.

use redb::{ReadTransaction, ReadableTable, WriteTransaction};

use super::codec::{decode, encode};
use super::tables::{ACTION_ITEMS, ACTION_ITEMS_BY_CLIENT, ACTION_ITEMS_BY_DUE};
use super::{StoreError, StoreResult, meta};
use crate::domain::action_item::{ActionItem, Who, next_steps_text};
use crate::domain::action_item_record::{ActionItemRecord, ItemEdit, Source};
use crate::domain::client::{ClientRecord, NextSteps};
use crate::domain::ids::{ActionItemId, ClientId};

/// The items of `client`, in their order.
pub(super) fn items_of(tx: &ReadTransaction, client: ClientId) -> StoreResult<Vec<ActionItemRecord>> {
    list(&tx.open_table(ACTION_ITEMS_BY_CLIENT)?, &tx.open_table(ACTION_ITEMS)?, client)
}

/// [`items_of`], inside a write transaction.
pub(super) fn items_in(tx: &WriteTransaction, client: ClientId) -> StoreResult<Vec<ActionItemRecord>> {
    list(&tx.open_table(ACTION_ITEMS_BY_CLIENT)?, &tx.open_table(ACTION_ITEMS)?, client)
}

fn list(
    index: &impl ReadableTable<(u64, u64), ()>,
    items: &impl ReadableTable<u64, &'static [u8]>,
    client: ClientId,
) -> StoreResult<Vec<ActionItemRecord>> {
    let mut found = Vec::new();
    for entry in index.range((client.key(), 0)..=(client.key(), u64::MAX))? {
        if let Some(value) = items.get(entry?.0.value().1)? {
            found.push(decode::<ActionItemRecord>(value.value())?);
        }
    }
    found.sort_by_key(|item| (item.position, item.id));
    Ok(found)
}

/// The summariser's new items for `client`. What the owner edited, added or
/// ticked off stays, first; the summariser's untouched items are replaced,
/// and a new one the kept items already stand for is not added again.
pub(super) fn save_extracted(
    tx: &WriteTransaction,
    client: &mut ClientRecord,
    extracted: Vec<ActionItem>,
) -> StoreResult<Vec<ActionItemRecord>> {
    let old = items_in(tx, client.id)?;
    let mut kept: Vec<ActionItemRecord> = old.iter().filter(|item| !item.replaceable()).cloned().collect();
    for item in extracted {
        if kept.iter().any(|k| k.covers(&item.action)) {
            continue;
        }
        // A step written again keeps its id, so a calendar subscribed to the
        // owner's feed updates its event rather than adding a second one.
        let again =
            old.iter().find(|o| o.replaceable() && o.covers(&item.action) && !kept.iter().any(|k| k.id == o.id));
        let first_words = Some(item.action.clone());
        kept.push(match again {
            Some(again) => record(again.id, client, item, Source::Summary, first_words),
            None => new_item(tx, client, item, Source::Summary, first_words)?,
        });
    }
    rewrite(tx, client, &old, &mut kept)?;
    client.next_steps = Some(next_steps_text(kept.iter().map(|k| &k.item))).filter(|text| !text.is_empty());
    Ok(kept)
}

/// The owner's corrected next steps: the whole list of items, or text whose
/// lines become items (a line that reads as an existing item keeps it).
pub(super) fn save_edits(
    tx: &WriteTransaction,
    client: &mut ClientRecord,
    steps: NextSteps,
) -> StoreResult<Vec<ActionItemRecord>> {
    let old = items_in(tx, client.id)?;
    let meant = match steps {
        NextSteps::Text(text) => Meant::Text(text),
        NextSteps::Items(edits) => Meant::Items(edits),
        NextSteps::Both(text, edits) => settled(client, &old, text, edits)?,
    };
    let mut new = match &meant {
        Meant::Items(edits) => edits.iter().map(|edit| edited(tx, client, &old, edit.clone())).collect(),
        Meant::Text(text) => from_lines(tx, client, &old, text),
    }?;
    rewrite(tx, client, &old, &mut new)?;
    client.next_steps = match meant {
        // The owner's own words stay as they wrote them.
        Meant::Text(text) => Some(text),
        Meant::Items(_) => Some(next_steps_text(new.iter().map(|n| &n.item))),
    }
    .filter(|text| !text.is_empty());
    Ok(new)
}

/// The next steps a change stands for.
enum Meant {
    Text(String),
    Items(Vec<ItemEdit>),
}

/// Which of text and items, sent together, the owner changed: the text
/// when it differs from the stored one and the items are as stored, the
/// items when the text is as stored. Both changed is a conflict.
fn settled(client: &ClientRecord, old: &[ActionItemRecord], text: String, edits: Vec<ItemEdit>) -> StoreResult<Meant> {
    if client.next_steps.as_deref().unwrap_or("") == text {
        return Ok(Meant::Items(edits));
    }
    let unchanged = edits.len() == old.len()
        && edits.iter().zip(old).all(|(edit, item)| edit.id() == Some(item.id) && edit.same_as(&item.item, item.done));
    if unchanged {
        Ok(Meant::Text(text))
    } else {
        Err(StoreError::Conflict("Change the next steps as text or as items, not both at once"))
    }
}

/// Removes the items of `client`, inside the caller's transaction.
pub(super) fn remove_items_of(tx: &WriteTransaction, client: ClientId) -> StoreResult<()> {
    for item in items_in(tx, client)? {
        remove(tx, &item)?;
    }
    Ok(())
}

fn edited(
    tx: &WriteTransaction,
    client: &ClientRecord,
    old: &[ActionItemRecord],
    edit: ItemEdit,
) -> StoreResult<ActionItemRecord> {
    // An id the client does not have (an item Regenerate replaced meanwhile)
    // is taken as a new item: the owner's words are not lost.
    let before = edit.id().and_then(|id| old.iter().find(|item| item.id == id));
    let (item, done) = edit.into_parts();
    let Some(before) = before else {
        let mut added = new_item(tx, client, item, Source::Added, None)?;
        added.done = done;
        return Ok(added);
    };
    let mut after = before.clone();
    if after.item != item {
        after.source = match before.source {
            Source::Summary => Source::Edited,
            other => other,
        };
        after.item = item;
    }
    after.done = done;
    Ok(after)
}

fn from_lines(
    tx: &WriteTransaction,
    client: &ClientRecord,
    old: &[ActionItemRecord],
    text: &str,
) -> StoreResult<Vec<ActionItemRecord>> {
    let mut unused: Vec<&ActionItemRecord> = old.iter().collect();
    let mut new = Vec::new();
    for line in text.lines().map(without_bullet).filter(|line| !line.is_empty()) {
        match unused.iter().position(|item| item.item.line() == line) {
            Some(at) => new.push(unused.remove(at).clone()),
            None => {
                let item =
                    ActionItem { who: Who::Unattributed, action: line.to_owned(), due_text: None, due_date: None };
                new.push(new_item(tx, client, item, Source::Added, None)?);
            }
        }
    }
    Ok(new)
}

/// A line without the "- ", "* ", "• " or "1. " a list may start it with.
fn without_bullet(line: &str) -> &str {
    let line = line.trim();
    let bullet = line.strip_prefix(['-', '*', '•']).or_else(|| {
        let digits = line.find(|c: char| !c.is_ascii_digit()).filter(|&at| at > 0)?;
        line[digits..].strip_prefix(['.', ')'])
    });
    match bullet {
        Some(rest) if rest.starts_with(char::is_whitespace) => rest.trim(),
        _ => line,
    }
}

fn new_item(
    tx: &WriteTransaction,
    client: &ClientRecord,
    item: ActionItem,
    source: Source,
    extracted: Option<String>,
) -> StoreResult<ActionItemRecord> {
    let id = ActionItemId::from_key(meta::next_id(tx, "action_items")?);
    Ok(record(id, client, item, source, extracted))
}

fn record(
    id: ActionItemId,
    client: &ClientRecord,
    item: ActionItem,
    source: Source,
    extracted: Option<String>,
) -> ActionItemRecord {
    ActionItemRecord { id, client: client.id, owner: client.owner, position: 0, item, done: false, source, extracted }
}

/// Replaces the client's rows `old` with `new`, numbered in order.
fn rewrite(
    tx: &WriteTransaction,
    client: &ClientRecord,
    old: &[ActionItemRecord],
    new: &mut [ActionItemRecord],
) -> StoreResult<()> {
    for item in old {
        remove(tx, item)?;
    }
    for (position, item) in new.iter_mut().enumerate() {
        item.position = u32::try_from(position).unwrap_or(u32::MAX);
        item.client = client.id;
        item.owner = client.owner;
        put(tx, item)?;
    }
    Ok(())
}

pub(super) fn put(tx: &WriteTransaction, item: &ActionItemRecord) -> StoreResult<()> {
    tx.open_table(ACTION_ITEMS)?.insert(item.id.key(), encode(item)?.as_slice())?;
    tx.open_table(ACTION_ITEMS_BY_CLIENT)?.insert((item.client.key(), item.id.key()), ())?;
    tx.open_table(ACTION_ITEMS_BY_DUE)?.insert(due_key(item), ())?;
    Ok(())
}

pub(super) fn remove(tx: &WriteTransaction, item: &ActionItemRecord) -> StoreResult<()> {
    tx.open_table(ACTION_ITEMS)?.remove(item.id.key())?;
    tx.open_table(ACTION_ITEMS_BY_CLIENT)?.remove((item.client.key(), item.id.key()))?;
    tx.open_table(ACTION_ITEMS_BY_DUE)?.remove(due_key(item))?;
    Ok(())
}

/// Where an item sits in its owner's list by due date: undated ones last.
fn due_key(item: &ActionItemRecord) -> (u64, i32, u64) {
    let day = item.item.due_date.map_or(i32::MAX, |date| date.to_julian_day());
    (item.owner.key(), day, item.id.key())
}

//! Private calendar feeds: a secret link per user that a calendar app
//! polls without a session. The token opens one read, the owner's open next
//! steps, and nothing else; only its hash is stored, and a new link, a
//! revoke, a password change or the account's removal ends the old one.

use redb::WriteTransaction;
use serde::{Deserialize, Serialize};

use super::codec::{decode, encode};
use super::next_steps::steps_of;
use super::tables::{CALENDAR_FEED_OF_USER, CALENDAR_FEEDS};
use super::views::OwnerView;
use super::{Store, StoreResult};
use crate::domain::action_item_record::ActionItemRecord;
use crate::domain::ids::{TokenHash, UserId};

#[derive(Debug, Clone, Serialize, Deserialize)]
struct FeedRecord {
    user_id: UserId,
    created_at: i64,
}

impl OwnerView<'_> {
    /// When the owner's feed was made, if they have one.
    pub fn calendar_feed(&self) -> StoreResult<Option<i64>> {
        let tx = self.store.read()?;
        let Some(hash) = tx.open_table(CALENDAR_FEED_OF_USER)?.get(self.owner.key())? else { return Ok(None) };
        let feed = tx.open_table(CALENDAR_FEEDS)?.get(hash.value())?.map(|v| decode::<FeedRecord>(v.value()));
        Ok(feed.transpose()?.map(|feed| feed.created_at))
    }

    /// Gives the owner a feed under `token`, ending the one they had.
    pub fn create_calendar_feed(&self, token: &TokenHash, now: i64) -> StoreResult<()> {
        let tx = self.store.write()?;
        revoke_calendar_feed_in(&tx, self.owner)?;
        let feed = FeedRecord { user_id: self.owner, created_at: now };
        tx.open_table(CALENDAR_FEEDS)?.insert(token.as_slice(), encode(&feed)?.as_slice())?;
        tx.open_table(CALENDAR_FEED_OF_USER)?.insert(self.owner.key(), token.as_slice())?;
        tx.commit()?;
        Ok(())
    }

    pub fn revoke_calendar_feed(&self) -> StoreResult<()> {
        let tx = self.store.write()?;
        revoke_calendar_feed_in(&tx, self.owner)?;
        tx.commit()?;
        Ok(())
    }
}

impl Store {
    /// The open next steps of the feed `token` belongs to, each with its
    /// client's name; `None` for a token that is no feed (any more).
    pub fn calendar_feed_steps(&self, token: &TokenHash) -> StoreResult<Option<Vec<(ActionItemRecord, String)>>> {
        let tx = self.read()?;
        let feed = tx.open_table(CALENDAR_FEEDS)?.get(token.as_slice())?.map(|v| decode::<FeedRecord>(v.value()));
        match feed.transpose()? {
            Some(feed) => Ok(Some(steps_of(&tx, feed.user_id, false)?)),
            None => Ok(None),
        }
    }
}

/// Ends `user`'s feed, inside the caller's transaction.
pub(super) fn revoke_calendar_feed_in(tx: &WriteTransaction, user: UserId) -> StoreResult<()> {
    let Some(hash) = tx.open_table(CALENDAR_FEED_OF_USER)?.remove(user.key())?.map(|v| v.value().to_vec()) else {
        return Ok(());
    };
    tx.open_table(CALENDAR_FEEDS)?.remove(hash.as_slice())?;
    Ok(())
}

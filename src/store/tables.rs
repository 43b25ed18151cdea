//! Every table of the database, in one place.

use redb::{MultimapTableDefinition, TableDefinition};

pub(super) use super::meta::META;

/// id → user record.
pub(super) const USERS: TableDefinition<u64, &[u8]> = TableDefinition::new("users");
/// normalised email → user id.
pub(super) const USERS_BY_EMAIL: TableDefinition<&str, u64> = TableDefinition::new("users_by_email");
/// hash of the session token → session record.
pub(super) const SESSIONS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("sessions");
/// user id → hashes of that user's session tokens.
pub(super) const SESSIONS_BY_USER: MultimapTableDefinition<u64, &[u8]> =
    MultimapTableDefinition::new("sessions_by_user");
/// hash of a password-reset token → reset record.
pub(super) const RESET_TOKENS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("reset_tokens");
/// hash of an address-confirmation token → the account and the address it confirms.
pub(super) const EMAIL_CONFIRMATIONS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("email_confirmations");
/// id → a log line of every email sent or written to the outbox.
pub(super) const OUTBOX: TableDefinition<u64, &[u8]> = TableDefinition::new("outbox");
/// blob id → what the blob is (type, size, checksum, chunk count).
pub(super) const BLOB_META: TableDefinition<u64, &[u8]> = TableDefinition::new("blob_meta");
/// (blob id, chunk index) → up to one chunk of bytes.
pub(super) const BLOB_CHUNKS: TableDefinition<(u64, u32), &[u8]> = TableDefinition::new("blob_chunks");
/// id → client record.
pub(super) const CLIENTS: TableDefinition<u64, &[u8]> = TableDefinition::new("clients");
/// (owner, client id): a user's clients, in id order.
pub(super) const CLIENTS_BY_OWNER: TableDefinition<(u64, u64), ()> = TableDefinition::new("clients_by_owner");
/// (owner, Idempotency-Key) → the client that key created, so a retried
/// create returns the same client.
pub(super) const IDEMPOTENCY: TableDefinition<(u64, &str), u64> = TableDefinition::new("idempotency");
/// template name → email template (one, `default`, for now).
pub(super) const TEMPLATES: TableDefinition<&str, &[u8]> = TableDefinition::new("templates");
/// username → admin record.
pub(super) const ADMINS: TableDefinition<&str, &[u8]> = TableDefinition::new("admins");
/// hash of the admin session token → admin session record.
pub(super) const ADMIN_SESSIONS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("admin_sessions");
/// client id → the job processing that client's recording.
pub(super) const JOBS: TableDefinition<u64, &[u8]> = TableDefinition::new("jobs");
/// setting name → value (the sign-up policy).
pub(super) const SETTINGS: TableDefinition<&str, &[u8]> = TableDefinition::new("settings");
/// hash of an invitation token → invitation record.
pub(super) const INVITATIONS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("invitations");
/// id → one next step of a client (an action item).
pub(super) const ACTION_ITEMS: TableDefinition<u64, &[u8]> = TableDefinition::new("action_items");
/// (client, item id): a client's next steps.
pub(super) const ACTION_ITEMS_BY_CLIENT: TableDefinition<(u64, u64), ()> =
    TableDefinition::new("action_items_by_client");
/// (owner, due date as a Julian day or `i32::MAX` for none, item id): a
/// user's next steps, soonest due first.
pub(super) const ACTION_ITEMS_BY_DUE: TableDefinition<(u64, i32, u64), ()> =
    TableDefinition::new("action_items_by_due");
/// hash of a calendar feed's token → the feed (its owner, since when).
pub(super) const CALENDAR_FEEDS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("calendar_feeds");
/// user id → hash of that user's calendar feed token (one feed each).
pub(super) const CALENDAR_FEED_OF_USER: TableDefinition<u64, &[u8]> = TableDefinition::new("calendar_feed_of_user");
/// client id → its transcript as timed segments, and the recogniser's own
/// while the owner's correction stands.
pub(super) const TRANSCRIPTS: TableDefinition<u64, &[u8]> = TableDefinition::new("transcripts");

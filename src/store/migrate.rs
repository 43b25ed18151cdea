//! Schema migrations, run in one write transaction when the file is opened.

use redb::{Database, WriteTransaction};

use super::meta::{self, SCHEMA_VERSION};
use super::{StoreError, StoreResult};

/// Step `n` takes a file from schema `n` to `n + 1`.
const STEPS: [fn(&WriteTransaction) -> StoreResult<()>; SCHEMA_VERSION as usize] = [
    create_tables,
    create_client_tables,
    create_template_table,
    create_admin_tables,
    create_jobs_table,
    create_signup_tables,
    create_action_item_tables,
    create_calendar_feed_tables,
    create_transcripts_table,
    blobs_as_files,
    create_email_confirmations_table,
];

pub(super) fn run(db: &Database) -> StoreResult<()> {
    let tx = db.begin_write()?;
    let found = meta::schema_version_in(&tx)?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::TooNew { found, known: SCHEMA_VERSION });
    }
    if found == SCHEMA_VERSION {
        return Ok(());
    }
    for (from, step) in STEPS.iter().enumerate().skip(found as usize) {
        step(&tx)?;
        tracing::info!(from, to = from + 1, "migrated the database schema");
    }
    meta::set_schema_version(&tx, SCHEMA_VERSION)?;
    tx.commit()?;
    Ok(())
}

/// Version 1: every table (opening one in a write transaction creates it),
/// so readers never meet a missing table.
fn create_tables(tx: &WriteTransaction) -> StoreResult<()> {
    use super::tables::*;
    tx.open_table(META)?;
    tx.open_table(USERS)?;
    tx.open_table(USERS_BY_EMAIL)?;
    tx.open_table(SESSIONS)?;
    tx.open_multimap_table(SESSIONS_BY_USER)?;
    tx.open_table(RESET_TOKENS)?;
    tx.open_table(OUTBOX)?;
    tx.open_table(BLOB_META)?;
    tx.open_table(BLOB_CHUNKS)?;
    Ok(())
}

/// Version 2: clients.
fn create_client_tables(tx: &WriteTransaction) -> StoreResult<()> {
    use super::tables::*;
    tx.open_table(CLIENTS)?;
    tx.open_table(CLIENTS_BY_OWNER)?;
    tx.open_table(IDEMPOTENCY)?;
    Ok(())
}

/// Version 3: the follow-up email template.
fn create_template_table(tx: &WriteTransaction) -> StoreResult<()> {
    tx.open_table(super::tables::TEMPLATES)?;
    Ok(())
}

/// Version 4: administrators and their sessions.
fn create_admin_tables(tx: &WriteTransaction) -> StoreResult<()> {
    tx.open_table(super::tables::ADMINS)?;
    tx.open_table(super::tables::ADMIN_SESSIONS)?;
    Ok(())
}

/// Version 5: the jobs that transcribe and summarise recordings.
fn create_jobs_table(tx: &WriteTransaction) -> StoreResult<()> {
    tx.open_table(super::tables::JOBS)?;
    Ok(())
}

/// Version 6: the sign-up policy and invitations.
fn create_signup_tables(tx: &WriteTransaction) -> StoreResult<()> {
    tx.open_table(super::tables::SETTINGS)?;
    tx.open_table(super::tables::INVITATIONS)?;
    Ok(())
}

/// Version 7: next steps as action items. A client from before keeps its
/// next steps as text until the owner or a new summary writes items.
fn create_action_item_tables(tx: &WriteTransaction) -> StoreResult<()> {
    use super::tables::*;
    tx.open_table(ACTION_ITEMS)?;
    tx.open_table(ACTION_ITEMS_BY_CLIENT)?;
    tx.open_table(ACTION_ITEMS_BY_DUE)?;
    Ok(())
}

/// Version 8: private calendar feeds of next steps.
fn create_calendar_feed_tables(tx: &WriteTransaction) -> StoreResult<()> {
    use super::tables::*;
    tx.open_table(CALENDAR_FEEDS)?;
    tx.open_table(CALENDAR_FEED_OF_USER)?;
    Ok(())
}

/// Version 9: transcripts as timed segments. A transcript from before is
/// read as one segment spanning its recording.
fn create_transcripts_table(tx: &WriteTransaction) -> StoreResult<()> {
    tx.open_table(super::tables::TRANSCRIPTS)?;
    Ok(())
}

/// Version 10: blobs are kept as files beside the database. Nothing moves
/// here: the upkeep moves an older file's blobs out while the server serves,
/// one at a time. The version keeps older builds, which would look for the
/// bytes inside, from opening the file.
fn blobs_as_files(_: &WriteTransaction) -> StoreResult<()> {
    Ok(())
}

/// Version 11: links that confirm an address, for sign-up by domain.
fn create_email_confirmations_table(tx: &WriteTransaction) -> StoreResult<()> {
    tx.open_table(super::tables::EMAIL_CONFIRMATIONS)?;
    Ok(())
}

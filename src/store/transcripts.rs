//! Transcripts as timed segments, one row per client, read and corrected
//! through the owner's view like the client itself. The client's
//! `transcription` text is rewritten in the same transaction as a
//! correction, so the summariser and the spec's API read what the owner
//! corrected.

use redb::{ReadableTable, WriteTransaction};

use super::clients::read_owned;
use super::codec::{decode, encode};
use super::records::{owned, put_client};
use super::tables::TRANSCRIPTS;
use super::views::OwnerView;
use super::{StoreError, StoreResult};
use crate::domain::client::ClientRecord;
use crate::domain::ids::ClientId;
use crate::domain::transcript::{TranscriptEdit, TranscriptRecord};

const NO_TRANSCRIPT: StoreError = StoreError::Conflict("There is no transcript yet");

impl OwnerView<'_> {
    /// Client `id` with its transcript, if it has one yet.
    pub fn transcript(&self, id: ClientId) -> StoreResult<(ClientRecord, Option<TranscriptRecord>)> {
        let tx = self.store.read()?;
        let client = read_owned(&tx, self.owner, id)?;
        let transcript = stored(&tx.open_table(TRANSCRIPTS)?, &client)?;
        Ok((client, transcript))
    }

    /// Applies the owner's correction, made for a transcript of as many
    /// segments as this one has (a new recording's may have come between).
    pub fn correct_transcript(&self, id: ClientId, edit: TranscriptEdit) -> StoreResult<TranscriptRecord> {
        self.change_transcript(id, |transcript| {
            if edit.len() != transcript.segments.len() {
                return Err(StoreError::Conflict("The transcript changed meanwhile: reload it and correct it again"));
            }
            transcript.correct(edit);
            Ok(())
        })
    }

    /// Puts the recogniser's words back.
    pub fn undo_transcript_corrections(&self, id: ClientId) -> StoreResult<TranscriptRecord> {
        self.change_transcript(id, |transcript| {
            transcript.undo_corrections();
            Ok(())
        })
    }

    fn change_transcript(
        &self,
        id: ClientId,
        change: impl FnOnce(&mut TranscriptRecord) -> StoreResult<()>,
    ) -> StoreResult<TranscriptRecord> {
        let tx = self.store.write()?;
        let mut client = owned(&tx, self.owner, id)?;
        let mut transcript = stored(&tx.open_table(TRANSCRIPTS)?, &client)?.ok_or(NO_TRANSCRIPT)?;
        change(&mut transcript)?;
        client.transcription = Some(transcript.text());
        put_client(&tx, &client)?;
        put_transcript(&tx, id, &transcript)?;
        tx.commit()?;
        Ok(transcript)
    }
}

fn stored(
    table: &impl ReadableTable<u64, &'static [u8]>,
    client: &ClientRecord,
) -> StoreResult<Option<TranscriptRecord>> {
    let row: Option<TranscriptRecord> = table.get(client.id.key())?.map(|v| decode(v.value())).transpose()?;
    Ok(row.or_else(|| from_text(client)))
}

/// A transcript kept only as text (from before segments, or while a new
/// recording waits for its own): one segment over the recording.
fn from_text(client: &ClientRecord) -> Option<TranscriptRecord> {
    let text = client.transcription.as_deref().filter(|t| !t.trim().is_empty())?;
    Some(TranscriptRecord::whole(text, client.recording.as_ref().map_or(0, |r| r.duration_ms)))
}

/// Whether the owner corrected `client`'s transcript.
pub(super) fn corrected(tx: &WriteTransaction, client: &ClientRecord) -> StoreResult<bool> {
    Ok(stored(&tx.open_table(TRANSCRIPTS)?, client)?.is_some_and(|t| t.is_corrected()))
}

pub(super) fn put_transcript(
    tx: &WriteTransaction,
    client: ClientId,
    transcript: &TranscriptRecord,
) -> StoreResult<()> {
    tx.open_table(TRANSCRIPTS)?.insert(client.key(), encode(transcript)?.as_slice())?;
    Ok(())
}

pub(super) fn remove_transcript(tx: &WriteTransaction, client: ClientId) -> StoreResult<()> {
    tx.open_table(TRANSCRIPTS)?.remove(client.key())?;
    Ok(())
}

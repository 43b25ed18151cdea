// A recording kept on the phone for a client whose upload has not been confirmed yet:
// found by the client's id, uploaded from the phone's copy, removed once the server's
// size and SHA-256 match.

import { deleteRecording, getRecording, loadWav, pendingForClient, type StoredRecording } from "./recordings-db.ts";
import { sha256Hex, uploadRecording, type RetryOptions, type UploadReceipt } from "./upload.ts";

export async function findPendingUpload(clientId: string, userId: string): Promise<StoredRecording | null> {
  try {
    return await pendingForClient(clientId, userId);
  } catch {
    return null; // no IndexedDB here: nothing can be pending either
  }
}

const UPLOAD_LOCK = "debrief-upload:";

/** One upload of a recording at a time, across tabs: a second caller waits for the first. */
function exclusively<T>(id: string, upload: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  return locks ? locks.request(UPLOAD_LOCK + id, upload) : upload();
}

/**
 * Uploads the stored recording for the client; on a confirmed upload the phone's copy
 * is removed. Resolves with null when another upload (a Retry, or the app sending what
 * waited for the server) got it there first. Rejects (and keeps the copy) when every
 * attempt failed.
 */
export function uploadStored(
  recording: StoredRecording,
  clientId: string,
  userId: string,
  options: RetryOptions = {},
): Promise<UploadReceipt | null> {
  return exclusively(recording.id, async () => {
    if (!(await getRecording(recording.id))) return null;
    const { wav } = await loadWav(recording.id);
    const receipt = await uploadRecording(clientId, wav, userId, recording.startedAt, options);
    await deleteRecording(recording.id);
    return receipt;
  });
}

/**
 * An upload whose answer was lost may have reached the server all the same: when the
 * server's recording is this very file, the phone's copy is no longer needed.
 * Resolves true when the pending copy was confirmed and removed.
 */
export async function settleIfServerHasIt(
  recording: StoredRecording,
  server: { size: number; sha256: string } | null | undefined,
): Promise<boolean> {
  if (!server) return false;
  const { wav } = await loadWav(recording.id);
  if (wav.size !== server.size) return false;
  if ((await sha256Hex(wav)) !== server.sha256.toLowerCase()) return false;
  await deleteRecording(recording.id);
  return true;
}

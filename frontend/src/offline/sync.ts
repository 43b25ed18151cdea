// What waits on the phone for the server: clients saved while it could not be
// reached (with their photo and recording), and recordings whose upload did not
// go through. It is all sent, oldest first, when the app starts and whenever the
// server answers again. One tab does it at a time.

import { atom } from "nanostores";
import { ApiError } from "../lib/api.ts";
import { uploadStored } from "../lib/pending-upload.ts";
import {
  allRecordings,
  deleteSave,
  getRecording,
  loadWav,
  queuedSaves,
  queueSave,
  updateSave,
  type QueuedSave,
  type StoredRecording,
} from "../lib/recordings-db.ts";
import { uploadPhoto } from "../lib/upload.ts";
import { describeCreateFailure, SAVE_TEXT, saveClient } from "../pages/new-client/save-client.ts";
import { LIST_PATH } from "../pages/client/client-cache.ts";
import { heldElsewhere } from "../recorder/device.ts";
import { setActivity } from "../stores/activity.ts";
import { $reachable, probe } from "../stores/connection.ts";
import { invalidate } from "../stores/query.ts";
import { toast } from "../stores/toast.ts";

export interface Waiting {
  /** Clients saved on this phone only, oldest first. */
  saves: QueuedSave[];
  /** Recordings of saved clients still to be uploaded. */
  uploads: number;
  /** Sending them now. */
  sending: boolean;
  /** The save this tab kept last, to show where it went. */
  lastKept: string | null;
}

export const $waiting = atom<Waiting>({ saves: [], uploads: 0, sending: false, lastKept: null });

const SYNC_LOCK = "debrief-sync";

let owner: string | null = null;
let running: Promise<void> | null = null;
let again = false;

/** Starts sending for this user now and whenever the server answers again; returns the stop. */
export function startSync(userId: string): () => void {
  owner = userId;
  void syncNow();
  const unlisten = $reachable.listen((reachable) => {
    if (reachable) void syncNow();
  });
  return () => {
    unlisten();
    if (owner === userId) owner = null;
  };
}

/** Keeps a client's save on the phone until the server can be reached. */
export async function keepForLater(save: QueuedSave): Promise<void> {
  await queueSave(save);
  await look(save.userId);
  $waiting.set({ ...$waiting.get(), lastKept: save.id });
}

/** One pass over what waits; a call during a pass asks for another one after it. */
export function syncNow(): Promise<void> {
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    do {
      again = false;
      const userId = owner;
      if (!userId) break;
      await exclusively(() => pass(userId));
    } while (again);
  })().finally(() => {
    running = null;
  });
  return running;
}

function exclusively(work: () => Promise<void>): Promise<void> {
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  // Another tab sending already: it will send ours too, they are the same.
  return locks ? locks.request(SYNC_LOCK, { ifAvailable: true }, (lock) => (lock ? work() : undefined)) : work();
}

/** Recordings of saved clients still on the phone, but not those a tab is busy with. */
async function pendingUploads(userId: string): Promise<StoredRecording[]> {
  const held = await heldElsewhere();
  return (await allRecordings()).filter((r) => r.userId === userId && r.clientId && r.samples > 0 && !held.has(r.id));
}

/** Reads what waits into $waiting (and the app-wide "queued" flag). */
async function look(userId: string): Promise<{ saves: QueuedSave[]; uploads: StoredRecording[] }> {
  let found: { saves: QueuedSave[]; uploads: StoredRecording[] };
  try {
    found = { saves: await queuedSaves(userId), uploads: await pendingUploads(userId) };
  } catch {
    found = { saves: [], uploads: [] }; // no IndexedDB: nothing can wait here either
  }
  $waiting.set({ ...$waiting.get(), saves: found.saves, uploads: found.uploads.length });
  setActivity("queued", found.saves.length + found.uploads.length > 0);
  return found;
}

async function pass(userId: string): Promise<void> {
  const { saves, uploads } = await look(userId);
  // Asked first: sending to a server that is not there costs every upload's retries.
  if (saves.length + uploads.length === 0 || !(await probe())) return;
  $waiting.set({ ...$waiting.get(), sending: true });
  setActivity("syncing", true);
  try {
    for (const save of saves) if (!(await sendSave(save, userId))) return;
    for (const recording of uploads) if (!(await sendUpload(recording.id, recording.clientId!, userId))) return;
  } finally {
    setActivity("syncing", false);
    $waiting.set({ ...$waiting.get(), sending: false });
    await look(userId);
  }
}

/** No answer, a lost session or a failing server: stop here and try again later. */
function worthWaiting(err: unknown): boolean {
  return !(err instanceof ApiError) || err.status === 401 || err.status === 408 || err.status === 429 || err.status >= 500;
}

/** Sends one save; false when the pass should stop. */
async function sendSave(save: QueuedSave, userId: string): Promise<boolean> {
  try {
    if (save.clientId) {
      // The client is on the server already; only its photo waited.
      if (save.photo) await uploadPhoto(save.clientId, save.photo, userId);
      await deleteSave(save.id);
      invalidate(LIST_PATH);
      return true;
    }
    const stored = save.recordingId ? await getRecording(save.recordingId) : null;
    const recording = stored ? { wav: (await loadWav(stored.id)).wav, localId: stored.id, recordedAt: stored.startedAt } : null;
    const result = await saveClient({ values: save.values, userId, idempotencyKey: save.id, photo: save.photo, recording });
    const clientId = String(result.client.id);
    if (result.photoSaved === false) await updateSave(save.id, { clientId, recordingId: null, problem: undefined });
    else await deleteSave(save.id);
    invalidate(LIST_PATH);
    toast({
      title: SAVE_TEXT.success,
      description:
        result.recordingSaved === false
          ? `${save.values.name} is saved. The recording is still on this phone and will be uploaded later.`
          : `${save.values.name} is saved, with what was kept on this phone.`,
    });
    return true;
  } catch (err) {
    if (worthWaiting(err)) return false;
    // The server refused it (it would refuse it again): say why, and go on with the rest.
    await updateSave(save.id, { problem: describeCreateFailure(err).description }).catch(() => {});
    return true;
  }
}

async function sendUpload(recordingId: string, clientId: string, userId: string): Promise<boolean> {
  const recording = await getRecording(recordingId);
  if (!recording) return true;
  try {
    if (await uploadStored(recording, clientId, userId)) {
      toast({ title: "Recording uploaded", description: "A recording kept on this phone is now on the server." });
    }
    invalidate(LIST_PATH); // the client's own read too: it starts with the list's path
    return true;
  } catch (err) {
    return !worthWaiting(err);
  }
}

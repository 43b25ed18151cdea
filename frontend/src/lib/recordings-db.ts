// The phone's copy of every recording, in IndexedDB, written a second at a time as
// the recorder produces it. A recording leaves this store only when the server has
// confirmed the upload (size and SHA-256) or when the user chose to discard it.
// Clients saved while the server was out of reach wait here too.
//
//   recordings  { id, userId, state, startedAt, updatedAt, samples, chunks, clientId?, saveId? }
//               clientId is set once the client is saved: the recording is then an
//               upload waiting for that client (index "clientId"). saveId: the client
//               is saved on the phone only, waiting for the server (a save below).
//   chunks      { recordingId, index, pcm: ArrayBuffer }  key [recordingId, index]
//   saves       { id, userId, values, photo, recordingId, durationMs, createdAt, clientId?, problem? }
//               id is the Idempotency-Key its POST /api/clients will carry.

import type { ClientField } from "./validation.ts";
import { wavBlob } from "./wav.ts";

export type RecordingState = "recording" | "paused" | "complete";

export interface StoredRecording {
  id: string;
  userId: string;
  state: RecordingState;
  startedAt: number;
  updatedAt: number;
  /** 16 kHz samples stored so far. */
  samples: number;
  /** Chunks stored so far; the next one gets this index. */
  chunks: number;
  clientId?: string;
  saveId?: string;
}

/** A client saved while the server could not be reached, with its photo and recording. */
export interface QueuedSave {
  id: string;
  userId: string;
  values: Record<ClientField, string>;
  photo: string | null;
  recordingId: string | null;
  /** The recording's length, for the list of waiting saves (0 without one). */
  durationMs: number;
  createdAt: number;
  /** Set once the server made the client while its photo still waits. */
  clientId?: string;
  /** Why the server refused it, when it did. */
  problem?: string;
}

interface StoredChunk {
  recordingId: string;
  index: number;
  pcm: ArrayBuffer;
}

const DB_NAME = "debrief-recordings";
const DB_VERSION = 2;
const RECORDINGS = "recordings";
const CHUNKS = "chunks";
const SAVES = "saves";

let opening: Promise<IDBDatabase> | null = null;

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error("IndexedDB request failed"));
  });
}

function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error("IndexedDB transaction failed"));
    tx.onabort = () => reject(tx.error ?? new Error("IndexedDB transaction aborted"));
  });
}

export function openRecordings(): Promise<IDBDatabase> {
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    if (typeof indexedDB === "undefined") {
      reject(new Error("IndexedDB is not available"));
      return;
    }
    const request = indexedDB.open(DB_NAME, DB_VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(RECORDINGS)) {
        const recordings = db.createObjectStore(RECORDINGS, { keyPath: "id" });
        recordings.createIndex("clientId", "clientId");
      }
      if (!db.objectStoreNames.contains(CHUNKS)) db.createObjectStore(CHUNKS, { keyPath: ["recordingId", "index"] });
      if (!db.objectStoreNames.contains(SAVES)) db.createObjectStore(SAVES, { keyPath: "id" });
    };
    request.onsuccess = () => {
      const db = request.result;
      // Another tab upgrading the schema: step aside rather than block it.
      db.onversionchange = () => {
        db.close();
        opening = null;
      };
      db.onclose = () => {
        opening = null;
      };
      resolve(db);
    };
    request.onerror = () => reject(request.error ?? new Error("IndexedDB could not be opened"));
    request.onblocked = () => reject(new Error("IndexedDB is blocked by another tab"));
  });
  opening.catch(() => {
    opening = null;
  });
  return opening;
}

async function transaction(stores: string[], mode: IDBTransactionMode): Promise<IDBTransaction> {
  const db = await openRecordings();
  return db.transaction(stores, mode, { durability: "strict" } as IDBTransactionOptions);
}

const chunkRange = (id: string) => IDBKeyRange.bound([id, 0], [id, Number.MAX_SAFE_INTEGER]);

export async function createRecording(recording: StoredRecording): Promise<void> {
  const tx = await transaction([RECORDINGS], "readwrite");
  tx.objectStore(RECORDINGS).put(recording);
  await committed(tx);
}

/** Stores one chunk and the recording's new totals in one transaction. */
export async function appendChunk(
  id: string,
  index: number,
  pcm: ArrayBuffer,
  update: Pick<StoredRecording, "samples" | "state">,
): Promise<void> {
  const tx = await transaction([RECORDINGS, CHUNKS], "readwrite");
  const recordings = tx.objectStore(RECORDINGS);
  tx.objectStore(CHUNKS).put({ recordingId: id, index, pcm } satisfies StoredChunk);
  const current = await done(recordings.get(id) as IDBRequest<StoredRecording | undefined>);
  if (current) {
    recordings.put({
      ...current,
      ...update,
      chunks: Math.max(current.chunks, index + 1),
      updatedAt: Date.now(),
    });
  }
  await committed(tx);
}

export async function updateRecording(id: string, changes: Partial<Omit<StoredRecording, "id">>): Promise<void> {
  const tx = await transaction([RECORDINGS], "readwrite");
  const recordings = tx.objectStore(RECORDINGS);
  const current = await done(recordings.get(id) as IDBRequest<StoredRecording | undefined>);
  if (current) recordings.put({ ...current, ...changes, updatedAt: Date.now() });
  await committed(tx);
}

export async function getRecording(id: string): Promise<StoredRecording | null> {
  const tx = await transaction([RECORDINGS], "readonly");
  return (await done(tx.objectStore(RECORDINGS).get(id) as IDBRequest<StoredRecording | undefined>)) ?? null;
}

export async function allRecordings(): Promise<StoredRecording[]> {
  const tx = await transaction([RECORDINGS], "readonly");
  return done(tx.objectStore(RECORDINGS).getAll() as IDBRequest<StoredRecording[]>);
}

/** The recording waiting to be uploaded for this client, if the phone has one. */
export async function pendingForClient(clientId: string, userId: string): Promise<StoredRecording | null> {
  const tx = await transaction([RECORDINGS], "readonly");
  const found = await done(
    tx.objectStore(RECORDINGS).index("clientId").getAll(clientId) as IDBRequest<StoredRecording[]>,
  );
  const mine = found.filter((r) => r.userId === userId && r.samples > 0);
  mine.sort((a, b) => b.updatedAt - a.updatedAt);
  return mine[0] ?? null;
}

/**
 * The recording's samples as stored, in order. Counted from the chunks themselves,
 * so a recording cut off between two writes is still whole up to its last chunk.
 */
export async function loadSamples(id: string): Promise<{ parts: Blob[]; samples: number }> {
  const tx = await transaction([CHUNKS], "readonly");
  const chunks = await done(tx.objectStore(CHUNKS).getAll(chunkRange(id)) as IDBRequest<StoredChunk[]>);
  chunks.sort((a, b) => a.index - b.index);
  let samples = 0;
  const parts = chunks.map((c) => {
    samples += c.pcm.byteLength / 2;
    return new Blob([c.pcm]);
  });
  return { parts, samples };
}

/** The recording as a WAV file. */
export async function loadWav(id: string): Promise<{ wav: Blob; samples: number }> {
  const { parts, samples } = await loadSamples(id);
  return { wav: wavBlob(parts), samples };
}

/** Removes the recording and its samples. Only after a confirmed upload or the user's choice. */
export async function deleteRecording(id: string): Promise<void> {
  const tx = await transaction([RECORDINGS, CHUNKS], "readwrite");
  tx.objectStore(CHUNKS).delete(chunkRange(id));
  tx.objectStore(RECORDINGS).delete(id);
  await committed(tx);
}

/** Keeps a client's save on the phone, and marks its recording as belonging to it, in one go. */
export async function queueSave(save: QueuedSave): Promise<void> {
  const tx = await transaction([SAVES, RECORDINGS], "readwrite");
  tx.objectStore(SAVES).put(save);
  if (save.recordingId) {
    const recordings = tx.objectStore(RECORDINGS);
    const current = await done(recordings.get(save.recordingId) as IDBRequest<StoredRecording | undefined>);
    if (!current) {
      tx.abort();
      throw new Error("the recording is not on this phone");
    }
    recordings.put({ ...current, saveId: save.id, updatedAt: Date.now() });
  }
  await committed(tx);
}

export async function queuedSaves(userId: string): Promise<QueuedSave[]> {
  const tx = await transaction([SAVES], "readonly");
  const all = await done(tx.objectStore(SAVES).getAll() as IDBRequest<QueuedSave[]>);
  return all.filter((save) => save.userId === userId).sort((a, b) => a.createdAt - b.createdAt);
}

export async function updateSave(id: string, changes: Partial<Omit<QueuedSave, "id">>): Promise<void> {
  const tx = await transaction([SAVES], "readwrite");
  const saves = tx.objectStore(SAVES);
  const current = await done(saves.get(id) as IDBRequest<QueuedSave | undefined>);
  if (current) saves.put({ ...current, ...changes });
  await committed(tx);
}

export async function deleteSave(id: string): Promise<void> {
  const tx = await transaction([SAVES], "readwrite");
  tx.objectStore(SAVES).delete(id);
  await committed(tx);
}

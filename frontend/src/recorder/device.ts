// What the recorder asks of the phone: the microphone, room in its storage, and a
// cross-tab lock that tells other tabs a recording is in use.

const BYTES_PER_MINUTE = 16_000 * 2 * 60;
/** Below this much free storage the user is told how many minutes still fit. */
const LOW_STORAGE_BYTES = 30 * BYTES_PER_MINUTE;
const LOCK_PREFIX = "debrief-recording:";

let releaseLock: (() => void) | null = null;

export function holdLock(id: string): void {
  releaseLock?.();
  releaseLock = null;
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  if (!locks) return;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  releaseLock = release;
  locks.request(LOCK_PREFIX + id, () => held).catch(() => {});
}

export function dropLock(): void {
  releaseLock?.();
  releaseLock = null;
}

export function getMicrophone(): Promise<MediaStream> {
  return navigator.mediaDevices.getUserMedia({
    audio: {
      channelCount: { ideal: 1 },
      // Nothing plays while recording, so there is no echo to cancel; the phone's
      // gain control still helps with voices across a table.
      echoCancellation: false,
      noiseSuppression: false,
      autoGainControl: true,
    },
    video: false,
  });
}

export async function storageWarning(): Promise<string | null> {
  const storage = typeof navigator !== "undefined" ? navigator.storage : undefined;
  if (!storage) return null;
  try {
    // Ask the browser not to clear our storage under pressure; a refusal changes nothing here.
    await storage.persist?.();
  } catch {
    // not offered
  }
  try {
    const { quota, usage } = (await storage.estimate?.()) ?? {};
    if (typeof quota !== "number" || typeof usage !== "number") return null;
    const free = quota - usage;
    if (free >= LOW_STORAGE_BYTES) return null;
    const minutes = Math.max(0, Math.floor(free / BYTES_PER_MINUTE));
    return minutes === 0
      ? "This phone has no room left to keep the recording: keep this page open until the client is saved."
      : `Storage on this phone is nearly full: there is room for about ${minutes} minute${minutes === 1 ? "" : "s"} of recording.`;
  } catch {
    return null;
  }
}

/** Ids of recordings that another tab holds. */
export async function heldElsewhere(): Promise<Set<string>> {
  const held = new Set<string>();
  try {
    const snapshot = await navigator.locks?.query();
    for (const lock of [...(snapshot?.held ?? []), ...(snapshot?.pending ?? [])]) {
      if (lock.name?.startsWith(LOCK_PREFIX)) held.add(lock.name.slice(LOCK_PREFIX.length));
    }
  } catch {
    // no Web Locks: every unattached recording is offered
  }
  return held;
}

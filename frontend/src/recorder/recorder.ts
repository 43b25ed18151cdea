// The conversation recorder: microphone → audio worklet (16 kHz mono 16-bit) → a
// chunk a second, each written to IndexedDB as it arrives and kept in memory for the
// WAV file. One recorder per tab, kept across the app's pages, so a recording goes
// on while the user looks something up in History.
//
//   idle → starting → recording ⇄ paused → stopping → complete → (Record Again) idle

import { atom } from "nanostores";
import {
  allRecordings,
  appendChunk,
  createRecording,
  deleteRecording,
  loadSamples,
  updateRecording,
  type RecordingState,
  type StoredRecording,
} from "../lib/recordings-db.ts";
import { newUuid } from "../lib/uuid.ts";
import { setActivity } from "../stores/activity.ts";
import { $session } from "../stores/session.ts";
import { samplesToMs, wavBlob } from "../lib/wav.ts";
import { dropLock, getMicrophone, heldElsewhere, holdLock, storageWarning } from "./device.ts";
import { PROCESSOR_NAME, type FromWorklet, type ToWorklet } from "./protocol.ts";

export type RecorderStatus = "idle" | "starting" | "recording" | "paused" | "stopping" | "complete";

export interface RecorderState {
  status: RecorderStatus;
  /** Time recorded so far, as the timer shows it (updated every second). */
  elapsedMs: number;
  /** When complete: the recording's length and the WAV file. */
  durationMs: number;
  wav: Blob | null;
  /** The id of the phone's copy in IndexedDB. */
  recordingId: string | null;
  /** Why the recorder paused itself (a call, the microphone taken away…). */
  pauseReason: string | null;
  /** Why recording could not start. */
  error: string | null;
  /** Little room left on the phone, or the copy on the phone failed. */
  warning: string | null;
}

export const MIC_REFUSED = "Could not access microphone. Please check your permissions.";
export const NOT_SUPPORTED = "This browser cannot record audio. Please use a recent version of Chrome, Safari or Firefox.";
export const PAUSED_INTERRUPTED =
  "Recording paused: the microphone was interrupted (a call, another app or the locked screen). Tap Resume to continue.";
export const PAUSED_ENDED = "Recording paused: the microphone was disconnected. Tap Resume to continue.";
export const PAUSED_MIC_LOST = "Could not get the microphone back. Close other apps that use it, then tap Resume.";
export const NOT_KEPT =
  "This recording could not be saved on the phone as it went: keep this page open until the client is saved.";


const initial: RecorderState = {
  status: "idle",
  elapsedMs: 0,
  durationMs: 0,
  wav: null,
  recordingId: null,
  pauseReason: null,
  error: null,
  warning: null,
};

export const $recorder = atom<RecorderState>(initial);

// Until it is saved with a client, a recording is only on this phone: the app must
// not reload under it, and the offline message says it is safe.
$recorder.listen((next) => setActivity("recording", next.status !== "idle"));

const set = (changes: Partial<RecorderState>) => $recorder.set({ ...$recorder.get(), ...changes });

// --- the input level, outside the store so the meter redraws without re-rendering ---

type LevelListener = (peak: number) => void;
const levelListeners = new Set<LevelListener>();

export function onLevel(listener: LevelListener): () => void {
  levelListeners.add(listener);
  return () => levelListeners.delete(listener);
}

// --- the live recording --------------------------------------------------------------

interface Capture {
  id: string;
  userId: string;
  ctx: AudioContext;
  stream: MediaStream;
  source: MediaStreamAudioSourceNode;
  node: AudioWorkletNode;
  chunks: Blob[];
  samples: number;
  nextIndex: number;
  /** Writes to IndexedDB, one after the other. */
  writes: Promise<void>;
  persisted: boolean;
  /** Timer: time recorded before the current stretch, and when the stretch began. */
  recordedMs: number;
  resumedAt: number | null;
  ticker: ReturnType<typeof setInterval> | null;
  wakeLock: WakeLockSentinel | null;
  waiters: Map<"paused" | "stopped", () => void>;
  detachTrack: () => void;
}

let capture: Capture | null = null;
function elapsed(s: Capture): number {
  return s.recordedMs + (s.resumedAt === null ? 0 : performance.now() - s.resumedAt);
}

function startTicking(s: Capture): void {
  s.resumedAt = performance.now();
  if (s.ticker) clearInterval(s.ticker);
  s.ticker = setInterval(() => set({ elapsedMs: elapsed(s) }), 1000);
}

function stopTicking(s: Capture): void {
  s.recordedMs = elapsed(s);
  s.resumedAt = null;
  if (s.ticker) clearInterval(s.ticker);
  s.ticker = null;
  set({ elapsedMs: s.recordedMs });
}

async function keepScreenOn(s: Capture): Promise<void> {
  if (s.wakeLock || !("wakeLock" in navigator) || document.visibilityState !== "visible") return;
  try {
    const lock = await navigator.wakeLock.request("screen");
    if (capture === s && $recorder.get().status === "recording") {
      s.wakeLock = lock;
      lock.addEventListener("release", () => {
        if (s.wakeLock === lock) s.wakeLock = null;
      });
    } else {
      void lock.release();
    }
  } catch {
    // Refused (battery saver, not visible): the recording goes on regardless.
  }
}

function letScreenSleep(s: Capture): void {
  const lock = s.wakeLock;
  s.wakeLock = null;
  void lock?.release().catch(() => {});
}

if (typeof document !== "undefined") {
  document.addEventListener("visibilitychange", () => {
    // The system drops a wake lock when the page is hidden; take it again on return.
    if (capture && document.visibilityState === "visible" && $recorder.get().status === "recording") {
      void keepScreenOn(capture);
    }
  });
}

function persist(s: Capture, job: () => Promise<void>): void {
  s.writes = s.writes.then(job).catch(() => {
    if (s.persisted) {
      s.persisted = false;
      if (capture === s) set({ warning: NOT_KEPT });
    }
  });
}

function onMessage(s: Capture, message: FromWorklet): void {
  switch (message.type) {
    case "chunk": {
      const pcm = message.pcm;
      const index = s.nextIndex++;
      s.samples += pcm.byteLength / 2;
      s.chunks.push(new Blob([pcm]));
      const samples = s.samples;
      const state: RecordingState = $recorder.get().status === "paused" ? "paused" : "recording";
      if (s.persisted) persist(s, () => appendChunk(s.id, index, pcm, { samples, state }));
      break;
    }
    case "level":
      for (const listener of levelListeners) listener(message.peak);
      break;
    case "paused":
    case "stopped":
      s.waiters.get(message.type)?.();
      s.waiters.delete(message.type);
      break;
  }
}

function tell(s: Capture, message: ToWorklet): void {
  s.node.port.postMessage(message);
}

/** Sends `message` and waits for the worklet's answer (or gives up after a while). */
function ask(s: Capture, message: ToWorklet, answer: "paused" | "stopped"): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 2000);
    s.waiters.set(answer, () => {
      clearTimeout(timer);
      resolve();
    });
    tell(s, message);
  });
}

/** Pauses by itself when the system takes the microphone away, and says why. */
function watchTrack(s: Capture): () => void {
  const track = s.stream.getAudioTracks()[0];
  if (!track) return () => {};
  const onMute = () => {
    if (capture === s) void pause(PAUSED_INTERRUPTED);
  };
  const onEnded = () => {
    if (capture === s) void pause(PAUSED_ENDED);
  };
  track.addEventListener("mute", onMute);
  track.addEventListener("ended", onEnded);
  return () => {
    track.removeEventListener("mute", onMute);
    track.removeEventListener("ended", onEnded);
  };
}

function teardown(s: Capture): void {
  if (s.ticker) clearInterval(s.ticker);
  s.ticker = null;
  s.detachTrack();
  letScreenSleep(s);
  s.node.port.onmessage = null;
  try {
    s.source.disconnect();
    s.node.disconnect();
  } catch {
    // already disconnected
  }
  for (const track of s.stream.getTracks()) track.stop();
  s.ctx.onstatechange = null;
  void s.ctx.close().catch(() => {});
}

/** Asks for the microphone and starts recording. Call it from the tap on Start. */
export async function start(userId: string): Promise<void> {
  if ($recorder.get().status !== "idle") return;
  const Context = typeof AudioContext !== "undefined" ? AudioContext : undefined;
  if (!Context || typeof AudioWorkletNode === "undefined" || !navigator.mediaDevices?.getUserMedia) {
    set({ error: NOT_SUPPORTED });
    return;
  }
  // Made and resumed inside the tap: Safari starts audio only from a user gesture.
  const ctx = new Context({ latencyHint: "playback" });
  void ctx.resume().catch(() => {});
  set({ ...initial, status: "starting" });

  const warning = await storageWarning();
  let stream: MediaStream;
  try {
    stream = await getMicrophone();
  } catch {
    void ctx.close().catch(() => {});
    set({ ...initial, error: MIC_REFUSED });
    return;
  }
  let node: AudioWorkletNode;
  let source: MediaStreamAudioSourceNode;
  try {
    await ctx.audioWorklet.addModule(RECORDER_WORKLET_URL);
    source = ctx.createMediaStreamSource(stream);
    node = new AudioWorkletNode(ctx, PROCESSOR_NAME, { numberOfInputs: 1, numberOfOutputs: 1, outputChannelCount: [1] });
    source.connect(node);
    // The output is silence; connecting it keeps the worklet running in every browser.
    node.connect(ctx.destination);
    if (ctx.state !== "running") await ctx.resume();
  } catch {
    for (const track of stream.getTracks()) track.stop();
    void ctx.close().catch(() => {});
    set({ ...initial, error: NOT_SUPPORTED });
    return;
  }

  const id = newUuid();
  const s: Capture = {
    id,
    userId,
    ctx,
    stream,
    source,
    node,
    chunks: [],
    samples: 0,
    nextIndex: 0,
    writes: Promise.resolve(),
    persisted: true,
    recordedMs: 0,
    resumedAt: null,
    ticker: null,
    wakeLock: null,
    waiters: new Map(),
    detachTrack: () => {},
  };
  capture = s;
  holdLock(id);
  const now = Date.now();
  persist(s, () =>
    createRecording({ id, userId, state: "recording", startedAt: now, updatedAt: now, samples: 0, chunks: 0 }),
  );
  node.port.onmessage = (event: MessageEvent<FromWorklet>) => onMessage(s, event.data);
  s.detachTrack = watchTrack(s);
  ctx.onstatechange = () => {
    // iOS "interrupts" audio for a call; other browsers may suspend it.
    if (capture === s && ctx.state !== "running" && $recorder.get().status === "recording") {
      void pause(PAUSED_INTERRUPTED);
    }
  };
  set({ status: "recording", recordingId: id, elapsedMs: 0, warning });
  startTicking(s);
  void keepScreenOn(s);
}

/** Pauses; `reason` says why when the recorder paused by itself. */
export async function pause(reason: string | null = null): Promise<void> {
  const s = capture;
  if (!s || $recorder.get().status !== "recording") return;
  stopTicking(s);
  letScreenSleep(s);
  set({ status: "paused", pauseReason: reason });
  await ask(s, { type: "pause" }, "paused");
  persist(s, () => updateRecording(s.id, { state: "paused", samples: s.samples }));
}

export async function resume(): Promise<void> {
  const s = capture;
  if (!s || $recorder.get().status !== "paused") return;
  const track = s.stream.getAudioTracks()[0];
  if (!track || track.readyState === "ended") {
    // The system took the microphone for good: ask for it again.
    try {
      const stream = await getMicrophone();
      s.detachTrack();
      s.source.disconnect();
      for (const old of s.stream.getTracks()) old.stop();
      s.stream = stream;
      s.source = s.ctx.createMediaStreamSource(stream);
      s.source.connect(s.node);
      s.detachTrack = watchTrack(s);
    } catch {
      set({ pauseReason: PAUSED_MIC_LOST });
      return;
    }
  }
  if (s.ctx.state !== "running") {
    try {
      await s.ctx.resume();
    } catch {
      // checked below
    }
    if ((s.ctx.state as AudioContextState) !== "running") {
      set({ pauseReason: PAUSED_INTERRUPTED });
      return;
    }
  }
  tell(s, { type: "resume" });
  set({ status: "recording", pauseReason: null });
  startTicking(s);
  void keepScreenOn(s);
  persist(s, () => updateRecording(s.id, { state: "recording" }));
}

/** Ends the recording; its WAV file is then ready to play and to upload. */
export async function stop(): Promise<void> {
  const s = capture;
  const status = $recorder.get().status;
  if (!s || (status !== "recording" && status !== "paused")) return;
  stopTicking(s);
  set({ status: "stopping", pauseReason: null });
  await ask(s, { type: "stop" }, "stopped");
  teardown(s);
  persist(s, () => updateRecording(s.id, { state: "complete", samples: s.samples }));
  await s.writes;
  const durationMs = samplesToMs(s.samples);
  set({ status: "complete", wav: wavBlob(s.chunks), durationMs, elapsedMs: durationMs });
}

/** Finishes the recording if it is still going (e.g. Save Client while recording). */
export async function finish(): Promise<void> {
  const status = $recorder.get().status;
  if (status === "recording" || status === "paused") await stop();
  else if (status === "stopping" || status === "starting") {
    await new Promise<void>((resolve) => {
      const unlisten = $recorder.listen((next) => {
        if (next.status !== "stopping" && next.status !== "starting") {
          unlisten();
          resolve();
        }
      });
    });
    if ($recorder.get().status === "recording") await stop();
  }
}

/** Deletes the recording from the phone and starts over. Only after the user agreed. */
export async function discard(): Promise<void> {
  const s = capture;
  const id = $recorder.get().recordingId;
  if (s) {
    teardown(s);
    await s.writes;
  }
  capture = null;
  if (id) await deleteRecording(id).catch(() => {});
  dropLock();
  $recorder.set(initial);
}

/** The recording now belongs to a saved client: the recorder is free for the next one. */
export function release(): void {
  if (capture) teardown(capture);
  capture = null;
  dropLock();
  $recorder.set(initial);
}

/** Waits until everything recorded so far is in IndexedDB; false when it could not be. */
export async function flushed(): Promise<boolean> {
  const s = capture;
  if (!s) return true;
  await s.writes;
  return s.persisted;
}

// Signing out (or another user signing in) ends the recording; it stays on the phone
// and is offered back to its owner on the next visit.
$session.listen((next) => {
  const s = capture;
  if (!s) return;
  const owner = next.status === "authenticated" ? String(next.user.id) : null;
  if (owner !== s.userId && next.status !== "loading") void stop();
});

// --- recordings left behind by a reload or a crash ------------------------------------

/** Unfinished or unsaved recordings of this user, newest first, not in use by a tab. */
export async function findLeftBehind(userId: string): Promise<StoredRecording[]> {
  let all: StoredRecording[];
  try {
    all = await allRecordings();
  } catch {
    return [];
  }
  const held = await heldElsewhere();
  const mine = all.filter(
    (r) =>
      r.userId === userId &&
      r.clientId === undefined &&
      r.saveId === undefined &&
      !held.has(r.id) &&
      r.id !== $recorder.get().recordingId,
  );
  const found: StoredRecording[] = [];
  for (const r of mine) {
    if (r.samples > 0 || r.chunks > 0) found.push(r);
    // Started and cut off before its first second: there is nothing in it to keep.
    else if (Date.now() - r.updatedAt > 10_000) await deleteRecording(r.id).catch(() => {});
  }
  return found.sort((a, b) => b.updatedAt - a.updatedAt);
}

/** Takes a left-behind recording back as the recorder's complete recording. */
export async function recover(recording: StoredRecording): Promise<void> {
  if ($recorder.get().status !== "idle") return;
  const { parts, samples } = await loadSamples(recording.id);
  holdLock(recording.id);
  await updateRecording(recording.id, { state: "complete", samples }).catch(() => {});
  const durationMs = samplesToMs(samples);
  $recorder.set({
    ...initial,
    status: "complete",
    recordingId: recording.id,
    wav: wavBlob(parts),
    durationMs,
    elapsedMs: durationMs,
  });
}

/** Deletes a left-behind recording. Only after the user agreed. */
export function discardLeftBehind(recording: StoredRecording): Promise<void> {
  return deleteRecording(recording.id);
}

// Uploads that must not be lost: the recording (multipart, with upload progress) and
// the client photo. Unlike every other call they are retried, with growing pauses,
// when the connection drops or the server is briefly unavailable. A recording counts
// as uploaded only when the server's size and SHA-256 match the phone's copy.

import { noteAnswer, noteNoAnswer } from "../stores/connection.ts";
import { ApiError } from "./api.ts";
import { samplesToMs, WAV_HEADER_BYTES } from "./wav.ts";

export const UPLOAD_ATTEMPTS = 5;
const FIRST_PAUSE_MS = 1000;
const LONGEST_PAUSE_MS = 15_000;
/** With no progress and no answer for this long, the attempt is given up as dropped. */
const STALL_MS = 45_000;
/** How long to wait for the phone to come back online before trying anyway. */
const OFFLINE_WAIT_MS = 60_000;

export interface UploadReceipt {
  size: number;
  sha256: string;
  durationMs: number;
}

export type UploadProgress =
  | { phase: "sending"; attempt: number; attempts: number; loaded: number; total: number }
  | { phase: "waiting"; attempt: number; attempts: number; offline: boolean; delayMs: number }
  | { phase: "verifying"; attempt: number; attempts: number };

/** A failure after every attempt: the last server answer or the network error. */
export class UploadError extends Error {
  readonly status: number;
  readonly serverMessage: string | undefined;
  constructor(message: string, status = 0, serverMessage?: string) {
    super(message);
    this.name = "UploadError";
    this.status = status;
    this.serverMessage = serverMessage;
  }
}

export interface HttpRequest {
  url: string;
  body: XMLHttpRequestBodyInit;
  headers?: Record<string, string>;
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

export interface HttpAnswer {
  /** 0 when no answer arrived (offline, connection reset, stalled). */
  status: number;
  statusText: string;
  text: string;
  contentType: string | null;
}

export type Transport = (request: HttpRequest) => Promise<HttpAnswer>;

export interface RetryOptions {
  attempts?: number;
  signal?: AbortSignal;
  onProgress?: (progress: UploadProgress) => void;
  /** Replaced in unit tests. */
  transport?: Transport;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  isOnline?: () => boolean;
  waitOnline?: (maxMs: number, signal?: AbortSignal) => Promise<void>;
}

function abortError(): DOMException {
  return new DOMException("The upload was cancelled", "AbortError");
}

/** One POST through XMLHttpRequest, which (unlike fetch) reports upload progress. */
export const xhrTransport: Transport = ({ url, body, headers = {}, onProgress, signal }) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const xhr = new XMLHttpRequest();
    let stallTimer: ReturnType<typeof setTimeout> | undefined;
    let stalled = false;
    const watch = () => {
      clearTimeout(stallTimer);
      stallTimer = setTimeout(() => {
        stalled = true;
        xhr.abort();
      }, STALL_MS);
    };
    const finish = () => {
      clearTimeout(stallTimer);
      signal?.removeEventListener("abort", onAbort);
    };
    const onAbort = () => xhr.abort();
    const dropped = () => {
      finish();
      resolve({ status: 0, statusText: "", text: "", contentType: null });
    };
    xhr.open("POST", url);
    xhr.setRequestHeader("Accept", "application/json");
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      watch();
      onProgress?.(event.loaded, event.lengthComputable ? event.total : 0);
    };
    xhr.onload = () => {
      finish();
      resolve({
        status: xhr.status,
        statusText: xhr.statusText,
        text: xhr.responseText,
        contentType: xhr.getResponseHeader("Content-Type"),
      });
    };
    xhr.onerror = dropped;
    xhr.ontimeout = dropped;
    xhr.onabort = () => {
      if (stalled) dropped();
      else {
        finish();
        reject(abortError());
      }
    };
    signal?.addEventListener("abort", onAbort);
    watch();
    xhr.send(body);
  });

function realSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal?.addEventListener("abort", stop, { once: true });
  });
}

function realWaitOnline(maxMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const finish = () => {
      clearTimeout(timer);
      window.removeEventListener("online", finish);
      signal?.removeEventListener("abort", stop);
      resolve();
    };
    const stop = () => {
      clearTimeout(timer);
      window.removeEventListener("online", finish);
      reject(abortError());
    };
    const timer = setTimeout(finish, maxMs);
    window.addEventListener("online", finish);
    signal?.addEventListener("abort", stop, { once: true });
  });
}

/** Worth another try: no answer, a timeout, throttling or a server-side failure. */
export function isRetryable(status: number): boolean {
  return status === 0 || status === 408 || status === 429 || (status >= 500 && status !== 501);
}

/** The pause before attempt `next` (2, 3, …): 1 s, 2 s, 4 s … at most 15 s, ±20 %. */
export function backoffMs(next: number, random: () => number = Math.random): number {
  const base = Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (next - 2));
  return Math.round(base * (0.8 + 0.4 * random()));
}

function parse(answer: HttpAnswer): unknown {
  if (answer.text === "") return null;
  if (answer.contentType && /\bjson\b/i.test(answer.contentType)) {
    try {
      return JSON.parse(answer.text);
    } catch {
      return answer.text;
    }
  }
  return answer.text;
}

/**
 * POSTs `build()` until the server accepts it and `accept` is satisfied with the
 * answer, at most `attempts` times. A refusal that another try cannot fix (400, 401,
 * 404, 413, 415…) ends at once with an ApiError.
 */
export async function postWithRetry<T>(
  url: string,
  build: () => Pick<HttpRequest, "body" | "headers">,
  options: RetryOptions & { accept?: (body: T) => string | null } = {},
): Promise<T> {
  const attempts = options.attempts ?? UPLOAD_ATTEMPTS;
  const transport = options.transport ?? xhrTransport;
  const sleep = options.sleep ?? realSleep;
  const isOnline = options.isOnline ?? (() => typeof navigator === "undefined" || navigator.onLine !== false);
  const waitOnline = options.waitOnline ?? realWaitOnline;
  const { signal, onProgress } = options;
  let lastProblem = "The connection to the server was lost";
  let lastStatus = 0;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (attempt > 1) {
      const offline = !isOnline();
      const delayMs = backoffMs(attempt);
      onProgress?.({ phase: "waiting", attempt, attempts, offline, delayMs });
      if (offline) await waitOnline(OFFLINE_WAIT_MS, signal);
      await sleep(delayMs, signal);
    }
    const request = build();
    onProgress?.({ phase: "sending", attempt, attempts, loaded: 0, total: 0 });
    const answer = await transport({
      url,
      ...request,
      signal,
      onProgress: (loaded, total) => onProgress?.({ phase: "sending", attempt, attempts, loaded, total }),
    });
    if (answer.status === 0) noteNoAnswer();
    else noteAnswer(answer.status);
    if (answer.status >= 200 && answer.status < 300) {
      const body = parse(answer) as T;
      onProgress?.({ phase: "verifying", attempt, attempts });
      const problem = options.accept?.(body) ?? null;
      if (problem === null) return body;
      lastProblem = problem;
      lastStatus = answer.status;
      continue;
    }
    if (!isRetryable(answer.status)) {
      throw new ApiError(answer.status, answer.statusText, answer.text, parse(answer));
    }
    lastStatus = answer.status;
    if (answer.status !== 0) {
      const error = new ApiError(answer.status, answer.statusText, answer.text, parse(answer));
      lastProblem = error.serverMessage ?? error.message;
    }
  }
  throw new UploadError(lastProblem, lastStatus);
}

/** SHA-256 of the whole file, as lower-case hex. */
export async function sha256Hex(blob: Blob): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await blob.arrayBuffer());
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** What the server must answer for this very file; null when it does. */
export function receiptProblem(
  receipt: Partial<UploadReceipt> | null,
  local: { size: number; sha256: string; durationMs: number },
): string | null {
  if (!receipt || typeof receipt !== "object") return "The server did not confirm the recording";
  if (receipt.size !== local.size) return `The server stored ${receipt.size} bytes instead of ${local.size}`;
  if (typeof receipt.sha256 !== "string" || receipt.sha256.toLowerCase() !== local.sha256) {
    return "The server's copy of the recording differs from the phone's";
  }
  if (typeof receipt.durationMs === "number" && Math.abs(receipt.durationMs - local.durationMs) > 1) {
    return "The server read a different length of recording";
  }
  return null;
}

/**
 * When the meeting was recorded and the UTC offset of this phone's time zone then
 * (minutes east): the server resolves "by Friday" against the meeting's own date.
 */
export function recordedAtHeaders(recordedAt: number): Record<string, string> {
  return {
    "X-Recorded-At": String(Math.round(recordedAt)),
    "X-Time-Zone-Offset": String(-new Date(recordedAt).getTimezoneOffset()),
  };
}

/**
 * Sends the WAV file as `recording` (recording.wav) with `userId` and the time it was
 * recorded, retrying dropped connections, and resolves once the server's size and
 * SHA-256 match the file.
 */
export async function uploadRecording(
  clientId: string | number,
  wav: Blob,
  userId: string | number,
  recordedAt: number,
  options: RetryOptions = {},
): Promise<UploadReceipt> {
  const local = {
    size: wav.size,
    sha256: await sha256Hex(wav),
    durationMs: samplesToMs(Math.max(0, wav.size - WAV_HEADER_BYTES) / 2),
  };
  return postWithRetry<UploadReceipt>(
    `/api/clients/${encodeURIComponent(String(clientId))}/recording`,
    () => {
      const form = new FormData();
      form.append("recording", wav, "recording.wav");
      form.append("userId", String(userId));
      return { body: form, headers: recordedAtHeaders(recordedAt) };
    },
    { ...options, accept: (receipt) => receiptProblem(receipt, local) },
  );
}

/** Sends the client's photo (a data URL), retrying dropped connections. */
export function uploadPhoto(
  clientId: string | number,
  photo: string,
  userId: string | number,
  options: RetryOptions = {},
): Promise<{ photoUrl: string | null }> {
  return postWithRetry(
    `/api/clients/${encodeURIComponent(String(clientId))}/photo`,
    () => ({ body: JSON.stringify({ photo, userId }), headers: { "Content-Type": "application/json" } }),
    options,
  );
}

// The background job of a client's recording (transcribe, then summarise) in words:
// what the client page and a History row say about it, what is announced when it
// ends, and the stream's event payloads, read defensively: a malformed event is
// dropped rather than put on screen.

import type { Client, ClientRow, Job, JobStatus } from "./types.ts";

export const PROCESSING = "Processing";
export const PROCESSING_BUSY = "Processing…";
export const PROCESSING_FAILED = "Processing failed";
export const NO_SUMMARY = "No summary available";
export const DONE_ANNOUNCEMENT = "Processing complete. The summary and next steps are ready.";
// Said only when the server gave no reason of its own.
const FAILED_FALLBACK = "The recording could not be processed.";
const WAITING_FALLBACK = "A model this step needs is not installed. Processing resumes once it is.";

const STATUSES: ReadonlySet<string> = new Set<JobStatus>([
  "queued",
  "transcribing",
  "summarising",
  "waiting_for_model",
  "done",
  "failed",
]);

/** There is still work to come: the page keeps listening and shows the Processing card. */
export function isRunning(status: JobStatus | null | undefined): boolean {
  return status === "queued" || status === "transcribing" || status === "summarising" || status === "waiting_for_model";
}

export type JobView =
  | {
      kind: "running";
      /** "Transcribing… 42%" */
      stage: string;
      /** Of the current stage; null while there is nothing to measure yet. */
      percent: number | null;
      /** Where the stage sits in the work, so a bar back at 0 % reads as progress. */
      step: string | null;
      /** What the server says it is waiting for. */
      detail: string | null;
    }
  | { kind: "failed"; reason: string }
  | { kind: "done" };

/**
 * The stage's progress as a whole percentage. Rounded down, so 100 % shows only when
 * the stage has really finished.
 */
export function stagePercent(progress: number): number {
  if (!Number.isFinite(progress)) return 0;
  return Math.min(100, Math.max(0, Math.floor(progress)));
}

const reason = (text: string | null, fallback: string) => text?.trim() || fallback;

export function describeJob(job: Job): JobView {
  switch (job.status) {
    case "queued":
      return { kind: "running", stage: "Waiting to start…", percent: null, step: null, detail: null };
    case "transcribing": {
      const percent = stagePercent(job.progress);
      return { kind: "running", stage: `Transcribing… ${percent}%`, percent, step: "Step 1 of 2", detail: null };
    }
    case "summarising": {
      const percent = stagePercent(job.progress);
      return { kind: "running", stage: `Summarising… ${percent}%`, percent, step: "Step 2 of 2", detail: null };
    }
    case "waiting_for_model":
      return {
        kind: "running",
        stage: "Waiting for a model…",
        percent: null,
        step: null,
        detail: reason(job.error, WAITING_FALLBACK),
      };
    case "failed":
      return { kind: "failed", reason: reason(job.error, FAILED_FALLBACK) };
    case "done":
      return { kind: "done" };
  }
}

/**
 * What a screen reader hears when a job this visit watched comes to an end; null
 * for anything else (a page opened on a finished job has nothing new to say).
 */
export function endAnnouncement(before: JobStatus | null | undefined, after: Job | null): string | null {
  if (!isRunning(before) || !after) return null;
  if (after.status === "done") return DONE_ANNOUNCEMENT;
  if (after.status === "failed") return `${PROCESSING_FAILED}: ${reason(after.error, FAILED_FALLBACK)}`;
  return null;
}

export type RowSummaryTone = "summary" | "none" | "busy" | "failed";

/** The line under a History row's name: the summary, else where its processing stands. */
export function rowSummary(row: Pick<ClientRow, "summary" | "jobStatus">): { text: string; tone: RowSummaryTone } {
  if (row.summary) return { text: row.summary, tone: "summary" };
  if (isRunning(row.jobStatus)) return { text: PROCESSING_BUSY, tone: "busy" };
  if (row.jobStatus === "failed") return { text: PROCESSING_FAILED, tone: "failed" };
  return { text: NO_SUMMARY, tone: "none" };
}

// --- the event stream's payloads ------------------------------------------------------

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A Job from the server's JSON, or null when it is not one. */
export function readJob(value: unknown): Job | null {
  if (!isRecord(value) || typeof value.status !== "string" || !STATUSES.has(value.status)) return null;
  return {
    status: value.status as JobStatus,
    progress: typeof value.progress === "number" && Number.isFinite(value.progress) ? value.progress : 0,
    error: typeof value.error === "string" ? value.error : null,
    updatedAt: typeof value.updatedAt === "string" ? value.updatedAt : "",
  };
}

/** The `data` of a `job` event. */
export function parseJobEvent(data: string): Job | null {
  return readJob(parseJson(data));
}

/** The `data` of a `client` event: this very client, else null. */
export function parseClientEvent(data: string, clientId: number): Client | null {
  const value = parseJson(data);
  if (!isRecord(value) || value.id !== clientId || typeof value.name !== "string") return null;
  return { ...(value as unknown as Client), job: readJob(value.job) };
}

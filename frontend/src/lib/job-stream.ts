// Live progress of a client's job over server-sent events (`GET /api/clients/{id}/events`).
// The browser's EventSource already reconnects after a dropped connection, and the
// server sends the job again on connect. This adds what it does not do: stop once the
// job has ended, read the client when the stream ended without its results, and,
// after the browser gave up on the stream (an HTTP error), try again slowly rather
// than in a loop.

import { isRunning, parseClientEvent, parseJobEvent } from "./job.ts";
import type { Client, Job } from "./types.ts";

/** The part of EventSource used here; unit tests pass a fake. */
export interface EventSourceLike {
  readonly readyState: number;
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
}

export interface JobStreamHandlers {
  /** The job moved on (not called for `done`: the results come with the client). */
  job(job: Job): void;
  /** The client with its results, as the server wrote them. */
  client(client: Client): void;
  /** The stream cannot tell what happened: read the client again. */
  refresh(): void;
}

export interface JobStreamOptions {
  open?: (url: string) => EventSourceLike;
  /** How long a `done` waits for its `client` event before the client is read instead. */
  resultsGraceMs?: number;
  /** The pause before reopening a stream the browser gave up on; doubles each time. */
  retryMs?: number;
  maxRetryMs?: number;
}

// EventSource.CLOSED, which Node does not have: the browser will not reconnect by itself.
const CLOSED = 2;

export const eventsPath = (clientId: number) => `/api/clients/${clientId}/events`;

/** Listens until the job has ended; the returned function stops listening. */
export function openJobStream(
  clientId: number,
  handlers: JobStreamHandlers,
  {
    open = (url) => new EventSource(url),
    resultsGraceMs = 3_000,
    retryMs = 5_000,
    maxRetryMs = 60_000,
  }: JobStreamOptions = {},
): () => void {
  let source: EventSourceLike | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let failures = 0;
  // Whether this visit saw the work under way, and its results arrive.
  let sawRunning = false;
  let sawResults = false;
  let waitingForResults = false;

  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    source?.close();
    source = null;
  };
  const stopAndRefresh = () => {
    stop();
    handlers.refresh();
  };

  const onJob = (event: MessageEvent<string>) => {
    const job = parseJobEvent(event.data);
    if (!job || stopped) return;
    failures = 0;
    if (job.status !== "done") {
      sawRunning ||= isRunning(job.status);
      handlers.job(job);
      if (job.status === "failed") stop();
      return;
    }
    // Done. Showing "done" before the results would flash an empty summary, so the
    // status goes on screen with them.
    if (sawResults) {
      handlers.job(job);
      stop();
    } else if (!sawRunning) {
      // It finished before we connected: its `client` event has already gone by.
      stopAndRefresh();
    } else if (!waitingForResults) {
      waitingForResults = true;
      timer = setTimeout(stopAndRefresh, resultsGraceMs);
    }
  };

  const onClient = (event: MessageEvent<string>) => {
    const client = parseClientEvent(event.data, clientId);
    if (!client || stopped) return;
    failures = 0;
    sawResults = true;
    handlers.client(client);
    if (!isRunning(client.job?.status)) stop();
  };

  const connect = () => {
    const s = open(eventsPath(clientId));
    source = s;
    s.addEventListener("job", onJob);
    s.addEventListener("client", onClient);
    s.addEventListener("error", () => {
      if (stopped || source !== s) return;
      // The server ended the stream after `done` without the results: no need to wait.
      if (waitingForResults) return stopAndRefresh();
      if (s.readyState !== CLOSED) return; // the browser reconnects by itself
      // The browser gave up (a refused or wrong answer). The client says whether there
      // is still anything to wait for; if so, the stream is tried again later.
      s.close();
      source = null;
      handlers.refresh();
      timer = setTimeout(connect, Math.min(maxRetryMs, retryMs * 2 ** failures++));
    });
  };

  connect();
  return stop;
}

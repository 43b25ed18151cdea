import { useEffect } from "react";
import { api, ApiError } from "../../lib/api.ts";
import { isRunning } from "../../lib/job.ts";
import { openJobStream } from "../../lib/job-stream.ts";
import type { JobStatus } from "../../lib/types.ts";
import { invalidate } from "../../stores/query.ts";
import { clientPath, rememberClient, rememberJob } from "./client-cache.ts";
import type { EmailClient } from "./email-flow.ts";

/** Reads the client again when its stream could not tell how the job went. */
function refresh(clientId: number): void {
  api.get<EmailClient>(clientPath(clientId)).then(rememberClient, (err: unknown) => {
    // Gone, or signed out: the page's own read says so (Client not found, or the
    // error toast). Anything else is passing; the stream is tried again.
    if (err instanceof ApiError && (err.status === 404 || err.status === 401)) invalidate(clientPath(clientId));
  });
}

/**
 * While the client's job runs, follows it over the server's event stream and writes
 * each change into the cached client and its History row. The stream is closed when
 * the job ends and when the page goes away; a new job (Retry, Regenerate) opens a new one.
 */
export function useJobEvents(clientId: number, status: JobStatus | null | undefined): void {
  const running = isRunning(status);
  useEffect(() => {
    if (!running) return;
    return openJobStream(clientId, {
      job: (job) => rememberJob(clientId, job),
      client: rememberClient,
      refresh: () => refresh(clientId),
    });
  }, [clientId, running]);
}

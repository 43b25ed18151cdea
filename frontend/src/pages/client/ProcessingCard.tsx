import { useEffect, useRef, useState } from "react";
import { RedoIcon } from "../../components/action-icons.tsx";
import { Button } from "../../components/Button.tsx";
import { Card } from "../../components/Card.tsx";
import { AlertIcon } from "../../components/icons.tsx";
import { ProgressBar } from "../../components/ProgressBar.tsx";
import { api, errorMessage } from "../../lib/api.ts";
import { describeJob, PROCESSING, PROCESSING_FAILED } from "../../lib/job.ts";
import type { Job } from "../../lib/types.ts";
import { toast } from "../../stores/toast.ts";
import { clientPath, rememberJob } from "./client-cache.ts";

interface ProcessingCardProps {
  clientId: number;
  job: Job;
  /** Whether a failed job may be run again (not once its audio was removed). */
  canRetry: boolean;
  /** Take the focus when shown: the control that started the job has gone. */
  takeFocus?: boolean;
}

/**
 * The server's work on the recording: a progress bar and the stage while it runs,
 * the reason (and Retry, where it can be) when it failed. Not shown once the job is done.
 */
export function ProcessingCard({ clientId, job, canRetry, takeFocus = false }: ProcessingCardProps) {
  const [retrying, setRetrying] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const view = describeJob(job);

  useEffect(() => {
    // After the dialog that started the job has handed focus back to a button that is gone.
    if (takeFocus) requestAnimationFrame(() => heading.current?.focus());
  }, [takeFocus]);

  if (view.kind === "done") return null;

  const retry = async () => {
    setRetrying(true);
    try {
      const queued = await api.post<Job>(`${clientPath(clientId)}/job/retry`);
      // The Retry button goes away with the failure; the heading (the same element,
      // now "Processing") keeps the focus.
      heading.current?.focus();
      rememberJob(clientId, queued);
    } catch (err) {
      toast({ title: "Error", description: errorMessage(err, "Failed to retry processing"), variant: "destructive" });
    } finally {
      setRetrying(false);
    }
  };

  const failed = view.kind === "failed";
  return (
    <Card className={failed ? "job-card job-card--failed" : "job-card"}>
      <h2 className="card__title job-card__title" ref={heading} tabIndex={-1}>
        {failed && <AlertIcon size={22} className="job-card__icon" />}
        {failed ? PROCESSING_FAILED : PROCESSING}
      </h2>
      {view.kind === "failed" ? (
        <>
          <p className="job-card__detail">{view.reason}</p>
          {canRetry && (
            <Button variant="outline" busy={retrying} onClick={retry}>
              <RedoIcon size={20} />
              Retry
            </Button>
          )}
        </>
      ) : (
        <>
          <p className="job-card__stage">
            <span>{view.stage}</span>
            {view.step && <span className="muted job-card__step">{view.step}</span>}
          </p>
          <ProgressBar label="Processing progress" value={view.percent} valueText={view.stage} />
          {view.detail && <p className="job-card__detail">{view.detail}</p>}
        </>
      )}
    </Card>
  );
}

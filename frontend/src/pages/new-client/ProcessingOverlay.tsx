import { useLayoutEffect, useRef } from "react";
import { ProgressBar } from "../../components/ProgressBar.tsx";
import { Spinner } from "../../components/Spinner.tsx";
import type { UploadProgress } from "../../lib/upload.ts";
import type { SaveStage } from "./save-client.ts";

interface ProcessingOverlayProps {
  open: boolean;
  stage: SaveStage | null;
  upload: UploadProgress | null;
}

function uploadLine(upload: UploadProgress | null): { text: string; percent: number | null } {
  if (!upload) return { text: "Uploading the recording…", percent: null };
  switch (upload.phase) {
    case "sending": {
      const percent = upload.total > 0 ? Math.floor((upload.loaded / upload.total) * 100) : null;
      const again = upload.attempt > 1 ? ` (try ${upload.attempt} of ${upload.attempts})` : "";
      return { text: `Uploading the recording${again}…`, percent };
    }
    case "waiting":
      return {
        text: upload.offline
          ? "The connection was lost. Waiting for the network to upload the recording again…"
          : `The connection was lost. Trying again (${upload.attempt} of ${upload.attempts})…`,
        percent: null,
      };
    case "verifying":
      return { text: "Checking the uploaded recording…", percent: 100 };
  }
}

/** Covers the screen while the client is saved; nothing behind it can be touched. */
export function ProcessingOverlay({ open, stage, upload }: ProcessingOverlayProps) {
  const ref = useRef<HTMLDialogElement>(null);
  // In the same commit as the render, as in Dialog: no frame of an inert page.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    else if (!open && dialog.open) dialog.close();
  }, [open]);

  const line = stage === "recording" ? uploadLine(upload) : null;
  return (
    <dialog
      ref={ref}
      className="processing"
      aria-labelledby="processing-title"
      aria-describedby="processing-text"
      onCancel={(event) => event.preventDefault()}
    >
      <div className="processing__panel">
        <Spinner size="lg" />
        <h2 id="processing-title" tabIndex={-1} autoFocus>
          Processing Information
        </h2>
        <p id="processing-text" className="muted">
          Your recording is being transcribed and summarised. This may take a minute or two.
        </p>
        <p className="processing__stage" role="status">
          {stage === "client" && "Saving the client…"}
          {stage === "photo" && "Saving the photo…"}
          {line?.text}
        </p>
        {line && <ProgressBar label="Recording upload" value={line.percent} />}
      </div>
    </dialog>
  );
}

import { useEffect, useState } from "react";
import { UploadIcon } from "../../components/action-icons.tsx";
import { Button } from "../../components/Button.tsx";
import { AlertIcon } from "../../components/icons.tsx";
import { formatClock } from "../../lib/format.ts";
import { findPendingUpload, settleIfServerHasIt, uploadStored } from "../../lib/pending-upload.ts";
import type { StoredRecording } from "../../lib/recordings-db.ts";
import type { RecordingInfo } from "../../lib/types.ts";
import { UploadError, type UploadProgress } from "../../lib/upload.ts";
import { errorMessage } from "../../lib/api.ts";
import { samplesToMs } from "../../lib/wav.ts";
import { toast } from "../../stores/toast.ts";

function progressText(p: UploadProgress | null): string {
  if (!p) return "Uploading…";
  if (p.phase === "sending") {
    const percent = p.total > 0 ? ` ${Math.floor((p.loaded / p.total) * 100)}%` : "";
    return `Uploading${percent}${p.attempt > 1 ? ` (try ${p.attempt} of ${p.attempts})` : ""}…`;
  }
  if (p.phase === "waiting") return p.offline ? "Waiting for the network…" : `Connection lost, trying again (${p.attempt} of ${p.attempts})…`;
  return "Checking the upload…";
}

/**
 * The recording still on this phone for the client, because its upload failed:
 * "Recording not uploaded — Retry". Gone once the server confirms the upload.
 */
export function PendingUpload({
  clientId,
  userId,
  server,
  onUploaded,
}: {
  clientId: string;
  userId: string;
  server: RecordingInfo | null;
  onUploaded: () => void;
}) {
  const [pending, setPending] = useState<StoredRecording | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void (async () => {
      const found = await findPendingUpload(clientId, userId);
      // An upload whose answer was lost may have arrived anyway.
      if (found && (await settleIfServerHasIt(found, server).catch(() => false))) {
        if (live) setPending(null);
        return;
      }
      if (live) setPending(found);
    })();
    return () => {
      live = false;
    };
  }, [clientId, userId, server?.sha256]);

  if (!pending) return null;

  const retry = async () => {
    setBusy(true);
    setProgress(null);
    try {
      await uploadStored(pending, clientId, userId, { onProgress: setProgress });
      setPending(null);
      toast({ title: "Recording uploaded" });
      onUploaded();
    } catch (err) {
      const description = err instanceof UploadError ? err.message : errorMessage(err, "The recording could not be uploaded.");
      toast({ title: "Recording not uploaded", description, variant: "destructive" });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="notice notice--error pending-upload">
      <AlertIcon size={20} className="notice__icon" />
      <div className="notice__body">
        <p className="pending-upload__title">
          <strong>Recording not uploaded</strong>
          <span aria-hidden="true"> — </span>
          <Button size="sm" busy={busy} onClick={retry}>
            <UploadIcon size={18} />
            Retry
          </Button>
        </p>
        <p className="muted">
          The recording ({formatClock(samplesToMs(pending.samples))}) is kept on this phone until the server has it.
        </p>
        {busy && (
          <p role="status" className="pending-upload__progress">
            {progressText(progress)}
          </p>
        )}
      </div>
    </div>
  );
}

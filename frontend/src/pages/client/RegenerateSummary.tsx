import { useState } from "react";
import { RedoIcon } from "../../components/action-icons.tsx";
import { Button } from "../../components/Button.tsx";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { api, errorMessage } from "../../lib/api.ts";
import type { Job } from "../../lib/types.ts";
import { toast } from "../../stores/toast.ts";
import { clientPath, rememberJob } from "./client-cache.ts";

/**
 * Makes the summary and next steps again from the transcript. It asks first: the new
 * ones replace the current ones, corrections made before sending included.
 */
export function RegenerateSummary({ clientId, onStarted }: { clientId: number; onStarted: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  const regenerate = async () => {
    setBusy(true);
    try {
      const job = await api.post<Job>(`${clientPath(clientId)}/summary/regenerate`);
      setConfirming(false);
      onStarted();
      // The job is running now: this button and its dialog give way to the Processing card.
      rememberJob(clientId, job);
    } catch (err) {
      setConfirming(false);
      toast({ title: "Error", description: errorMessage(err, "Failed to regenerate the summary"), variant: "destructive" });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="outline" size="sm" className="regenerate" onClick={() => setConfirming(true)}>
        <RedoIcon size={18} />
        Regenerate summary
      </Button>
      <ConfirmDialog
        open={confirming}
        title="Regenerate summary?"
        description="A new summary and new next steps are made from the transcript. They replace the current ones, including any changes you made."
        confirmLabel="Regenerate"
        busy={busy}
        onConfirm={regenerate}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}

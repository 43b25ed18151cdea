import { useEffect, useId, useState } from "react";
import { Button } from "../../components/Button.tsx";
import { Card, CardHeader } from "../../components/Card.tsx";
import { AlertIcon } from "../../components/icons.tsx";
import { Input } from "../../components/Input.tsx";
import { api, ApiError, errorMessage } from "../../lib/api.ts";
import { countOf, formatBytes } from "../../lib/format.ts";
import { useForm } from "../../lib/use-form.ts";
import { isAdminSessionLost } from "../../stores/admin.ts";
import { toast } from "../../stores/toast.ts";
import { CardDetails } from "./CardParts.tsx";
import { LoadFailed, Loading } from "./ListStatus.tsx";
import { retentionDays, validateRetention } from "./validation.ts";

const STORAGE_PATH = "/api/admin/storage";

/** `GET /api/admin/storage`, and the answer to a new retention policy. */
interface StorageUse {
  recordingsBytes: number;
  /** Client photos and profile pictures. */
  photosBytes: number;
  databaseBytes: number;
  /** Of the disk holding the server's data; both 0 when the server cannot tell. */
  freeBytes: number;
  totalBytes: number;
  /** Under a tenth of the disk is free. */
  lowOnSpace: boolean;
  /** null: recordings are kept for good. */
  retentionDays: number | null;
  /** Recordings the server has yet to compress (and files of an older database to move out). */
  pendingCompression: number;
}

type Read = { status: "loading" } | { status: "failed" } | { status: "ready"; storage: StorageUse };

const daysText = (days: number | null) => (days === null ? "" : String(days));

/** Where the server's disk space goes, and how long recordings are kept. */
export function StoragePanel({ onSessionLost }: { onSessionLost: () => void }) {
  const [read, setRead] = useState<Read>({ status: "loading" });
  const show = (storage: StorageUse) => setRead({ status: "ready", storage });

  const load = () => {
    setRead({ status: "loading" });
    api.get<StorageUse>(STORAGE_PATH).then(show, (err: unknown) => {
      if (isAdminSessionLost(err)) onSessionLost();
      else setRead({ status: "failed" });
    });
  };

  // The panel is made each time its tab is shown, so the figures are read afresh then.
  useEffect(load, []);

  if (read.status === "loading") return <Loading text="Loading storage…" />;
  if (read.status === "failed") return <LoadFailed text="Failed to load storage" onRetry={load} />;
  return (
    <div className="admin-storage">
      <DiskUse storage={read.storage} />
      <RetentionForm days={read.storage.retentionDays} onSaved={show} onSessionLost={onSessionLost} />
    </div>
  );
}

function DiskUse({ storage }: { storage: StorageUse }) {
  const free =
    storage.totalBytes > 0 ? `${formatBytes(storage.freeBytes)} free of ${formatBytes(storage.totalBytes)}` : null;
  return (
    <Card>
      <CardHeader title="Storage" description="The space the server's files take on its disk." />
      <CardDetails
        items={[
          ["Recordings", formatBytes(storage.recordingsBytes)],
          ["Photos", formatBytes(storage.photosBytes)],
          ["Database", formatBytes(storage.databaseBytes)],
          ["Free space", free],
        ]}
      />
      {storage.lowOnSpace && (
        <div className="notice notice--error">
          <AlertIcon size={20} className="notice__icon" />
          <p>Less than 10% of the disk is free</p>
        </div>
      )}
      {storage.pendingCompression > 0 && (
        <p className="muted">{countOf(storage.pendingCompression, "recording")} waiting to be compressed</p>
      )}
    </Card>
  );
}

interface RetentionFormProps {
  days: number | null;
  onSaved: (storage: StorageUse) => void;
  onSessionLost: () => void;
}

function RetentionForm({ days, onSaved, onSessionLost }: RetentionFormProps) {
  const titleId = `retention-${useId()}`;
  const form = useForm({ days: daysText(days) }, validateRetention);
  const [saving, setSaving] = useState(false);

  const submit = form.onSubmit(async (values) => {
    setSaving(true);
    try {
      const saved = await api.put<StorageUse>(STORAGE_PATH, { retentionDays: retentionDays(values.days) });
      form.reset({ days: daysText(saved.retentionDays) });
      onSaved(saved);
      toast({ title: "Retention saved" });
    } catch (err) {
      if (isAdminSessionLost(err)) {
        onSessionLost();
      } else if (err instanceof ApiError && err.status === 400 && err.serverMessage) {
        // The server's refusal of the days shows under the field, like the form's own.
        form.setServerError("days", err.serverMessage);
      } else {
        toast({ title: "Retention not saved", description: errorMessage(err, "The server did not answer"), variant: "destructive" });
      }
    }
    setSaving(false);
  });

  return (
    <Card>
      <CardHeader id={titleId} title="Retention" description="How long the audio of recordings is kept." />
      <form ref={form.ref} className="form" noValidate aria-labelledby={titleId} onSubmit={submit}>
        <Input
          label="Delete recordings older than (days)"
          inputMode="numeric"
          autoComplete="off"
          hint="Empty keeps them for good. Transcripts, summaries and next steps are always kept."
          {...form.field("days")}
        />
        <Button type="submit" block busy={saving}>
          Save
        </Button>
      </form>
    </Card>
  );
}

import { useRef, useState } from "react";
import { useLocation } from "wouter";
import { Button } from "../../components/Button.tsx";
import { Card, CardHeader } from "../../components/Card.tsx";
import { Input } from "../../components/Input.tsx";
import type { UploadProgress } from "../../lib/upload.ts";
import { useForm } from "../../lib/use-form.ts";
import { newUuid } from "../../lib/uuid.ts";
import { recheckClientOnSubmit, validateClient, type ClientField } from "../../lib/validation.ts";
import { $recorder, finish, release } from "../../recorder/recorder.ts";
import { invalidate } from "../../stores/query.ts";
import { toast } from "../../stores/toast.ts";
import { PhotoPicker } from "./PhotoPicker.tsx";
import { ProcessingOverlay } from "./ProcessingOverlay.tsx";
import { ScanCard } from "./ScanCardDialog.tsx";
import { describeCreateFailure, SAVE_TEXT, saveClient, type SaveStage } from "./save-client.ts";

const EMPTY: Record<ClientField, string> = { name: "", email: "", phone: "", company: "", position: "" };

/** The client's details and photo; Save Client saves them with the recording. */
export function ClientForm({ userId }: { userId: string | null }) {
  const [, navigate] = useLocation();
  const form = useForm(EMPTY, validateClient);
  const [photo, setPhoto] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [stage, setStage] = useState<SaveStage | null>(null);
  const [upload, setUpload] = useState<UploadProgress | null>(null);
  // One key per submission: pressing Save again after a lost answer reuses it, so the
  // server returns the client it already made instead of making a second one.
  const idempotencyKey = useRef<string | null>(null);

  const submit = form.onSubmit(async (values) => {
    const recheck = recheckClientOnSubmit(values);
    const failed = Object.entries(recheck) as Array<[ClientField, string]>;
    if (failed.length > 0) {
      for (const [field, message] of failed) form.setServerError(field, message);
      return;
    }
    if (!userId) {
      toast({ title: SAVE_TEXT.errorTitle, description: SAVE_TEXT.notAuthenticated, variant: "destructive" });
      return;
    }
    setSaving(true);
    setStage("client");
    setUpload(null);
    try {
      await finish(); // Save while still recording: the recording ends here
      const recorder = $recorder.get();
      const recording =
        recorder.status === "complete" && recorder.wav ? { wav: recorder.wav, localId: recorder.recordingId } : null;
      idempotencyKey.current ??= newUuid();
      const result = await saveClient(
        { values, userId, idempotencyKey: idempotencyKey.current, photo, recording },
        { onStage: setStage, onUpload: setUpload },
      );
      idempotencyKey.current = null;
      if (recording) release();
      invalidate("/api/clients");
      toast({
        title: SAVE_TEXT.success,
        description:
          result.recordingSaved === false
            ? "The recording could not be uploaded yet. It is kept on this phone: retry from the client's page."
            : undefined,
      });
      navigate(`/client/${result.client.id}`);
    } catch (err) {
      const failure = describeCreateFailure(err);
      // The server answered, so nothing was made: the next submission gets a new key.
      if (failure.answered) idempotencyKey.current = null;
      form.showServerErrors(failure.fieldErrors);
      toast({ title: failure.title, description: failure.description, variant: "destructive" });
      setSaving(false);
      setStage(null);
    }
  });

  return (
    <Card>
      <CardHeader title="Client Details" id="client-details" />
      <ScanCard
        values={form.values}
        disabled={saving}
        onFill={(changes) => {
          for (const [field, value] of Object.entries(changes) as Array<[ClientField, string]>) {
            form.setValue(field, value);
          }
        }}
      />
      <form ref={form.ref} className="form" noValidate aria-labelledby="client-details" onSubmit={submit}>
        <Input label="Full Name" autoComplete="off" autoCapitalize="words" {...form.field("name")} />
        <Input
          label="Email Address"
          type="email"
          inputMode="email"
          autoComplete="off"
          autoCapitalize="none"
          spellcheck={false}
          {...form.field("email")}
        />
        <Input label="Phone Number" type="tel" inputMode="tel" autoComplete="off" {...form.field("phone")} />
        <Input label="Company" autoComplete="off" hint="Optional" {...form.field("company")} />
        <Input label="Position" autoComplete="off" hint="Optional" {...form.field("position")} />
        <PhotoPicker photo={photo} onChange={setPhoto} disabled={saving} />
        <Button type="submit" block busy={saving}>
          Save Client
        </Button>
      </form>
      <ProcessingOverlay open={saving} stage={stage} upload={upload} />
    </Card>
  );
}

import { useRef, useState } from "react";
import { useLocation } from "wouter";
import { Button } from "../../components/Button.tsx";
import { Card, CardHeader } from "../../components/Card.tsx";
import { Input } from "../../components/Input.tsx";
import { RECORDING_SAFE_OFFLINE } from "../../components/OfflineBanner.tsx";
import { ApiError } from "../../lib/api.ts";
import type { UploadProgress } from "../../lib/upload.ts";
import { useForm } from "../../lib/use-form.ts";
import { newUuid } from "../../lib/uuid.ts";
import { recheckClientOnSubmit, validateClient, type ClientField } from "../../lib/validation.ts";
import { keepForLater } from "../../offline/sync.ts";
import { $recorder, finish, flushed, release } from "../../recorder/recorder.ts";
import { setActivity } from "../../stores/activity.ts";
import { $reachable, probe } from "../../stores/connection.ts";
import { invalidate } from "../../stores/query.ts";
import { toast } from "../../stores/toast.ts";
import { PhotoPicker } from "./PhotoPicker.tsx";
import { ProcessingOverlay } from "./ProcessingOverlay.tsx";
import { ScanCard } from "./ScanCardDialog.tsx";
import { CHECK_TEXT } from "./scan-merge.ts";
import { describeCreateFailure, SAVE_TEXT, saveClient, type SaveStage } from "./save-client.ts";

const EMPTY: Record<ClientField, string> = { name: "", email: "", phone: "", company: "", position: "" };

/** No answer at all, or a gateway saying the server behind it is down. */
const unanswered = (err: unknown) => !(err instanceof ApiError) || err.status === 502 || err.status === 504;

/** The client's details and photo; Save Client saves them with the recording. */
export function ClientForm({ userId }: { userId: string | null }) {
  const [, navigate] = useLocation();
  const form = useForm(EMPTY, validateClient);
  const [photo, setPhoto] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [stage, setStage] = useState<SaveStage | null>(null);
  const [upload, setUpload] = useState<UploadProgress | null>(null);
  // Fields the scanned card gave unsurely: highlighted until the user edits them.
  const [check, setCheck] = useState<ReadonlySet<ClientField>>(new Set());
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
    setActivity("saving", true);
    setStage("client");
    setUpload(null);
    await finish(); // Save while still recording: the recording ends here
    const recorder = $recorder.get();
    const recording =
      recorder.status === "complete" && recorder.wav
        ? // It began a recording's length ago: the meeting's date is the day it started.
          { wav: recorder.wav, localId: recorder.recordingId, recordedAt: Date.now() - recorder.durationMs }
        : null;
    const key = (idempotencyKey.current ??= newUuid());

    /** The server cannot be reached: the save waits on the phone, with the recording. */
    const keepOnPhone = async (): Promise<boolean> => {
      // Only a recording whose every second is on the phone can wait there.
      if (recording && (!recording.localId || !(await flushed()))) return false;
      // The overlay goes first: under a modal nothing can take the focus.
      setSaving(false);
      setStage(null);
      try {
        await keepForLater({
          id: key,
          userId,
          values,
          photo,
          recordingId: recording?.localId ?? null,
          durationMs: recording ? recorder.durationMs : 0,
          createdAt: Date.now(),
        });
      } catch {
        setSaving(true);
        setStage("client");
        return false;
      }
      if (recording) release();
      idempotencyKey.current = null;
      form.reset(EMPTY);
      setCheck(new Set());
      setPhoto(null);
      toast({
        title: "Saved on this phone",
        description: recording
          ? `${RECORDING_SAFE_OFFLINE}. It is uploaded with ${values.name.trim()} when the server can be reached.`
          : `offline — ${values.name.trim()} is saved on the server when it can be reached.`,
      });
      return true;
    };

    try {
      if (!$reachable.get() && !(await probe()) && (await keepOnPhone())) return;
      const result = await saveClient(
        { values, userId, idempotencyKey: key, photo, recording },
        { onStage: setStage, onUpload: setUpload },
      );
      idempotencyKey.current = null;
      if (recording) release();
      invalidate("/api/clients");
      toast({
        title: SAVE_TEXT.success,
        description:
          result.recordingSaved === false
            ? "The recording could not be uploaded yet. It is kept on this phone and is uploaded when the server can be reached."
            : undefined,
      });
      navigate(`/client/${result.client.id}`);
    } catch (err) {
      if (unanswered(err) && !(await probe()) && (await keepOnPhone())) return;
      const failure = describeCreateFailure(err);
      // The server answered, so nothing was made: the next submission gets a new key.
      if (failure.answered) idempotencyKey.current = null;
      form.showServerErrors(failure.fieldErrors);
      toast({ title: failure.title, description: failure.description, variant: "destructive" });
    } finally {
      setActivity("saving", false);
      setSaving(false);
      setStage(null);
    }
  });

  /** The form's props for a field, highlighted while it is to be checked against the card. */
  const field = (name: ClientField, hint?: string) => {
    const props = form.field(name);
    if (!check.has(name)) return { ...props, hint };
    return {
      ...props,
      className: "field--check",
      hint: props.value.trim() === "" ? CHECK_TEXT.empty : CHECK_TEXT.filled,
      onInput: (event: Event) => {
        setCheck((fields) => new Set([...fields].filter((f) => f !== name)));
        props.onInput(event);
      },
    };
  };

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
        onCheck={(fields) => setCheck(new Set(fields))}
      />
      <form ref={form.ref} className="form" noValidate aria-labelledby="client-details" onSubmit={submit}>
        <Input label="Full Name" autoComplete="off" autoCapitalize="words" {...field("name")} />
        <Input
          label="Email Address"
          type="email"
          inputMode="email"
          autoComplete="off"
          autoCapitalize="none"
          spellcheck={false}
          {...field("email")}
        />
        <Input label="Phone Number" type="tel" inputMode="tel" autoComplete="off" {...field("phone")} />
        <Input label="Company" autoComplete="off" {...field("company", "Optional")} />
        <Input label="Position" autoComplete="off" {...field("position", "Optional")} />
        <PhotoPicker photo={photo} onChange={setPhoto} disabled={saving} />
        <Button type="submit" block busy={saving}>
          Save Client
        </Button>
      </form>
      <ProcessingOverlay open={saving} stage={stage} upload={upload} />
    </Card>
  );
}

import { type FormEvent, useEffect, useId, useState } from "react";
import { MailIcon } from "../../components/action-icons.tsx";
import { Button } from "../../components/Button.tsx";
import { Dialog } from "../../components/Dialog.tsx";
import { AlertIcon } from "../../components/icons.tsx";
import { Spinner } from "../../components/Spinner.tsx";
import { api, ApiError, errorMessage } from "../../lib/api.ts";
import { ContactFields } from "./ContactFields.tsx";
import { useForm } from "../../lib/use-form.ts";
import { validateClient, type ClientField } from "../../lib/validation.ts";
import {
  EMAIL_LABELS,
  emailPath,
  textBlock,
  validateEmailTexts,
  type EmailClient,
  type EmailPreview,
  type TextField,
} from "./email-flow.ts";
import { TextArea } from "../../components/TextArea.tsx";
import { editableSteps, sameSteps, stepsPayload, stepsProblem } from "./next-steps.ts";
import { StepsEditor } from "./StepsEditor.tsx";

type Field = ClientField | Exclude<TextField, "nextSteps">;
const FIELDS: Field[] = ["summary", "name", "email", "phone", "company", "position"];

function valuesOf(client: EmailClient): Record<Field, string> {
  return {
    summary: client.summary ?? "",
    name: client.name,
    email: client.email,
    phone: client.phone,
    company: client.company ?? "",
    position: client.position ?? "",
  };
}

const validate = (values: Record<Field, string>) => ({ ...validateClient(values), ...validateEmailTexts(values) });

interface PreviewState {
  loading: boolean;
  preview: EmailPreview | null;
  error: string | null;
}

function previewError(err: unknown): string {
  if (err instanceof ApiError && err.status === 401) return "User not authenticated";
  if (err instanceof ApiError && err.status === 404) return "Client not found";
  return errorMessage(err, "The preview could not be loaded.");
}

/**
 * The follow-up exactly as it will go out (the server's rendering; its HTML in a
 * sandboxed frame), with the summary, next steps and contact details open to
 * correction. Send works only on what the preview shows: unsaved changes hold it.
 */
export function EmailDialog({
  open,
  client,
  sending,
  onClose,
  onSend,
  onSaved,
}: {
  open: boolean;
  client: EmailClient;
  sending: boolean;
  onClose: () => void;
  onSend: () => void;
  onSaved: (client: EmailClient) => void;
}) {
  const [saved, setSaved] = useState(() => valuesOf(client));
  const [savedSteps, setSavedSteps] = useState(() => editableSteps(client));
  const [steps, setSteps] = useState(savedSteps);
  const [stepsTried, setStepsTried] = useState(false);
  const [revision, setRevision] = useState(0);
  const [state, setState] = useState<PreviewState>({ loading: true, preview: null, error: null });
  const [saving, setSaving] = useState(false);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const form = useForm(saved, validate);
  const ids = useId();
  const previewHeading = `${ids}-preview`;
  const editHeading = `${ids}-edit`;
  const holdId = `${ids}-hold`;

  useEffect(() => {
    if (!open) return;
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    api.get<EmailPreview>(emailPath(client.id)).then(
      (preview) => {
        if (live) setState({ loading: false, preview, error: null });
      },
      (err: unknown) => {
        if (live) setState({ loading: false, preview: null, error: previewError(err) });
      },
    );
    return () => {
      live = false;
    };
  }, [open, revision, client.id]);

  const stepsChanged = !sameSteps(steps, savedSteps);
  const unsaved = stepsChanged || FIELDS.some((f) => textBlock(form.values[f]) !== textBlock(saved[f]));
  const stepsError = stepsProblem(steps);
  const { loading, preview, error } = state;
  const canSend = !!preview && !loading && !unsaved && !saving;

  const submitForm = form.onSubmit(async (values) => {
    if (stepsError) return;
    setSaving(true);
    setNote(null);
    const body: Record<string, unknown> = {
      name: values.name.trim(),
      email: values.email.trim(),
      phone: values.phone.trim(),
      company: values.company.trim(),
      position: values.position.trim(),
    };
    // Only what was corrected: a summary written meanwhile by the server is not overwritten.
    if (textBlock(values.summary) !== textBlock(saved.summary)) body.summary = textBlock(values.summary);
    if (stepsChanged) body.actionItems = stepsPayload(steps);
    try {
      const updated = await api.patch<EmailClient>(`/api/clients/${client.id}`, body);
      const next = valuesOf(updated);
      setSaved(next);
      form.reset(next);
      const nextSteps = editableSteps(updated);
      setSavedSteps(nextSteps);
      setSteps(nextSteps);
      setStepsTried(false);
      onSaved(updated);
      setRevision((r) => r + 1);
      setNote({ ok: true, text: "Changes saved. The preview shows them." });
    } catch (err) {
      const others = err instanceof ApiError ? form.showServerErrors(err.fieldErrors) : [];
      const text =
        err instanceof ApiError && err.status === 401 ? "User not authenticated" : errorMessage(err, "Failed to update client");
      setNote({ ok: false, text: [text, ...others.map((e) => `${e.field}: ${e.message}`)].join("\n") });
    } finally {
      setSaving(false);
    }
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    setStepsTried(true);
    submitForm(event);
  };

  return (
    <Dialog
      open={open}
      onClose={() => {
        if (!sending && !saving) onClose();
      }}
      title="Email Preview"
      description={`Check the email to ${client.name} before it goes out. Corrections are saved to the client.`}
      className="email-dialog"
      footer={
        <>
          <Button variant="outline" disabled={sending} onClick={onClose}>
            Cancel
          </Button>
          <Button
            busy={sending}
            disabled={!canSend && !sending}
            aria-describedby={unsaved ? holdId : undefined}
            onClick={onSend}
          >
            <MailIcon size={20} />
            {sending ? EMAIL_LABELS.sending : "Send"}
          </Button>
        </>
      }
    >
      <section className="email-preview" aria-labelledby={previewHeading} aria-busy={loading || undefined}>
        <h3 className="email-dialog__heading" id={previewHeading}>
          Preview
        </h3>
        {error && (
          <div className="notice notice--error" role="alert">
            <AlertIcon size={20} className="notice__icon" />
            <p>{error}</p>
          </div>
        )}
        {preview && (
          <>
            <dl className="email-meta">
              <div>
                <dt>From</dt>
                <dd>{preview.fromName}</dd>
              </div>
              <div>
                <dt>To</dt>
                <dd className="break-all">{preview.to}</dd>
              </div>
              <div>
                <dt>Reply-To</dt>
                <dd className="break-all">{preview.replyTo}</dd>
              </div>
              <div>
                <dt>Subject</dt>
                <dd>{preview.subject}</dd>
              </div>
            </dl>
            {/* No allow-* token: nothing in the email may run, submit, navigate or open windows. */}
            <iframe
              key={revision}
              sandbox=""
              src={preview.htmlUrl}
              title={`Email preview: ${preview.subject}`}
              className="email-frame"
              referrerpolicy="no-referrer"
            />
            <details className="email-text">
              <summary>Plain-text version</summary>
              <pre>{preview.text}</pre>
            </details>
          </>
        )}
        {loading && <Spinner label="Loading the preview" className="email-preview__spinner" />}
      </section>

      <form
        ref={form.ref}
        className="form email-edit"
        noValidate
        onSubmit={submit}
        aria-labelledby={editHeading}
      >
        <h3 className="email-dialog__heading" id={editHeading}>
          Correct before sending
        </h3>
        <TextArea label="Summary" rows={6} {...form.field("summary")} />
        <StepsEditor
          steps={steps}
          clientName={form.values.name.trim()}
          problem={stepsTried ? stepsError : null}
          onChange={setSteps}
        />
        <fieldset className="email-edit__contact">
          <legend>Client details</legend>
          <ContactFields field={form.field} />
        </fieldset>
        {note &&
          !(note.ok && unsaved) &&
          (note.ok ? (
            <p role="status" className="email-edit__note">
              {note.text}
            </p>
          ) : (
            <div role="alert" className="notice notice--error email-edit__note">
              <AlertIcon size={20} className="notice__icon" />
              <p>{note.text}</p>
            </div>
          ))}
        <Button type="submit" variant="outline" busy={saving} disabled={sending}>
          Save Changes
        </Button>
        {unsaved && (
          <p className="muted email-edit__hold" id={holdId}>
            Save the changes to see them in the preview before sending.
          </p>
        )}
      </form>
    </Dialog>
  );
}

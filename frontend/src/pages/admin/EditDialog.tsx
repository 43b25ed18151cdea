import { useState } from "react";
import { Button } from "../../components/Button.tsx";
import { Dialog } from "../../components/Dialog.tsx";
import { Input } from "../../components/Input.tsx";
import { ApiError } from "../../lib/api.ts";
import { useForm } from "../../lib/use-form.ts";
import type { SaveOutcome } from "./dashboard-store.ts";

export interface EditField<F extends string> {
  name: F;
  label: string;
  type?: "text" | "email" | "tel";
  autoComplete?: string;
}

interface EditFormProps<F extends string> {
  formId: string;
  fields: ReadonlyArray<EditField<F>>;
  initial: Record<F, string>;
  /** The field a 409 (already taken) is about. */
  conflictField?: F;
  save: (values: Record<F, string>) => Promise<SaveOutcome<unknown>>;
  onSaved: () => void;
  onBusy: (busy: boolean) => void;
}

// The admin edit dialogs have no rules of their own (spec section 5): the server checks,
// and what it says shows under the fields it names, or above the fields otherwise.
const noRules = () => ({});

function EditForm<F extends string>({ formId, fields, initial, conflictField, save, onSaved, onBusy }: EditFormProps<F>) {
  const form = useForm(initial, noRules);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = form.onSubmit(async (values) => {
    setProblem(null);
    onBusy(true);
    const trimmed = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v).trim()])) as Record<F, string>;
    const outcome = await save(trimmed);
    onBusy(false);
    if (outcome.ok) {
      onSaved();
      return;
    }
    if (outcome.sessionLost) return;
    const err = outcome.error;
    if (err instanceof ApiError) {
      const others = form.showServerErrors(err.fieldErrors);
      const named = err.fieldErrors.length > others.length;
      if (err.status === 409 && conflictField && err.serverMessage) form.setServerError(conflictField, err.serverMessage);
      else if (!named) setProblem(err.serverMessage ?? err.message);
      else if (others.length > 0) setProblem(others.map((e) => e.message).join(" "));
    } else {
      setProblem("The server could not be reached. Check the connection and try again.");
    }
  });

  return (
    <form id={formId} ref={form.ref} className="form" noValidate onSubmit={submit}>
      {problem && (
        <p className="notice notice--error" role="alert">
          {problem}
        </p>
      )}
      {fields.map((f) => (
        <Input
          key={f.name}
          label={f.label}
          type={f.type ?? "text"}
          inputMode={f.type === "email" ? "email" : f.type === "tel" ? "tel" : undefined}
          autoCapitalize={f.type === "email" ? "none" : undefined}
          spellcheck={f.type === "email" ? false : undefined}
          autoComplete={f.autoComplete ?? "off"}
          {...form.field(f.name)}
        />
      ))}
    </form>
  );
}

interface EditDialogProps<F extends string> extends Omit<EditFormProps<F>, "onBusy" | "formId" | "initial"> {
  title: string;
  /** The record's values; null while the dialog is closed. */
  initial: Record<F, string> | null;
  onClose: () => void;
}

/** Edit User and Edit Client: the record's fields, Cancel and Save Changes. */
export function EditDialog<F extends string>({ title, initial, onClose, ...formProps }: EditDialogProps<F>) {
  const [busy, setBusy] = useState(false);
  const formId = `admin-edit-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <Dialog
      open={initial !== null}
      onClose={() => {
        if (!busy) onClose();
      }}
      title={title}
      footer={
        <>
          <Button variant="outline" disabled={busy} onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={formId} busy={busy}>
            Save Changes
          </Button>
        </>
      }
    >
      {initial && <EditForm {...formProps} formId={formId} initial={initial} onBusy={setBusy} />}
    </Dialog>
  );
}

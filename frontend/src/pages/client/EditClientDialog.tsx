import { useState } from "react";
import { Button } from "../../components/Button.tsx";
import { Dialog } from "../../components/Dialog.tsx";
import { api, ApiError, errorMessage } from "../../lib/api.ts";
import type { Client } from "../../lib/types.ts";
import { ContactFields } from "./ContactFields.tsx";
import { useForm } from "../../lib/use-form.ts";
import { validateClient, type ClientField } from "../../lib/validation.ts";
import { toast } from "../../stores/toast.ts";

const FORM_ID = "edit-client-form";

function valuesOf(client: Client): Record<ClientField, string> {
  return {
    name: client.name,
    email: client.email,
    phone: client.phone,
    company: client.company ?? "",
    position: client.position ?? "",
  };
}

function EditClientForm({ client, onSaved, onBusy }: { client: Client; onSaved: (c: Client) => void; onBusy: (b: boolean) => void }) {
  const form = useForm(valuesOf(client), validateClient);

  const submit = form.onSubmit(async (values) => {
    onBusy(true);
    try {
      const saved = await api.patch<Client>(`/api/clients/${client.id}`, {
        name: values.name.trim(),
        email: values.email.trim(),
        phone: values.phone.trim(),
        company: values.company.trim(),
        position: values.position.trim(),
      });
      toast({ title: "Success", description: "Client updated successfully" });
      onSaved(saved);
    } catch (err) {
      if (err instanceof ApiError) form.showServerErrors(err.fieldErrors);
      const description =
        err instanceof ApiError && err.status === 401 ? "User not authenticated" : errorMessage(err, "Failed to update client");
      toast({ title: "Error", description, variant: "destructive" });
    } finally {
      onBusy(false);
    }
  });

  return (
    <form id={FORM_ID} ref={form.ref} className="form" noValidate onSubmit={submit}>
      <ContactFields field={form.field} />
    </form>
  );
}

/** Edit Details: the client's contact details, checked like a new client's. */
export function EditClientDialog({
  open,
  client,
  onClose,
  onSaved,
}: {
  open: boolean;
  client: Client;
  onClose: () => void;
  onSaved: (client: Client) => void;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog
      open={open}
      onClose={() => {
        if (!busy) onClose();
      }}
      title="Edit Client"
      footer={
        <>
          <Button variant="outline" disabled={busy} onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={FORM_ID} busy={busy}>
            Save Changes
          </Button>
        </>
      }
    >
      <EditClientForm client={client} onSaved={onSaved} onBusy={setBusy} />
    </Dialog>
  );
}

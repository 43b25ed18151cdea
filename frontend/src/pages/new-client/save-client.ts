// Saving a new client (spec section 4): create the client, then send the photo, then
// the recording. The photo and the recording are retried on dropped connections; if
// they still fail the client stays saved and the flow goes on. The recording's copy
// on the phone is marked as belonging to the client first, so an upload that never
// completes can be retried from the client's page.

import { api, ApiError, type FieldError } from "../../lib/api.ts";
import { deleteRecording, updateRecording } from "../../lib/recordings-db.ts";
import type { Client } from "../../lib/types.ts";
import { uploadPhoto, uploadRecording, type RetryOptions, type UploadProgress } from "../../lib/upload.ts";
import type { ClientField } from "../../lib/validation.ts";

export const SAVE_TEXT = {
  success: "Client saved successfully",
  errorTitle: "Error",
  fixThese: "Please fix the following:",
  createFailed: "Failed to create client",
  saveFailed: "Failed to save client information. Please try again.",
  notAuthenticated: "User not authenticated",
} as const;

export interface SaveInput {
  values: Record<ClientField, string>;
  userId: string | number;
  /** Made once per form submission, sent again when the user retries. */
  idempotencyKey: string;
  photo: string | null;
  /** The finished recording and the id of its copy on the phone (null when it has none). */
  recording: { wav: Blob; localId: string | null; recordedAt: number } | null;
}

export interface SaveResult {
  client: Client;
  photoSaved: boolean | null;
  /** null: there was no recording. */
  recordingSaved: boolean | null;
}

export type SaveStage = "client" | "photo" | "recording";

export interface SaveHooks {
  onStage?: (stage: SaveStage) => void;
  onUpload?: (progress: UploadProgress) => void;
  retry?: Omit<RetryOptions, "onProgress">;
}

/** Why the client could not be created, as the toast shows it. */
export interface CreateFailure {
  title: string;
  description: string;
  fieldErrors: FieldError[];
  /** The server answered: nothing was created, so a new submission may use a new key. */
  answered: boolean;
}

export function describeCreateFailure(err: unknown): CreateFailure {
  if (err instanceof ApiError) {
    if (err.status === 401) {
      return { title: SAVE_TEXT.errorTitle, description: SAVE_TEXT.notAuthenticated, fieldErrors: [], answered: true };
    }
    if (err.fieldErrors.length > 0) {
      const lines = err.fieldErrors.map((e) => `${e.field}: ${e.message}`);
      return {
        title: SAVE_TEXT.errorTitle,
        description: [SAVE_TEXT.fixThese, ...lines].join("\n"),
        fieldErrors: err.fieldErrors,
        answered: true,
      };
    }
    return {
      title: SAVE_TEXT.errorTitle,
      description: err.serverMessage ?? SAVE_TEXT.createFailed,
      fieldErrors: [],
      answered: err.status < 500,
    };
  }
  return { title: SAVE_TEXT.errorTitle, description: SAVE_TEXT.saveFailed, fieldErrors: [], answered: false };
}

export function clientPayload(values: Record<ClientField, string>, userId: string | number) {
  return {
    clientData: {
      name: values.name.trim(),
      email: values.email.trim(),
      phone: values.phone.trim(),
      company: values.company.trim(),
      position: values.position.trim(),
      userId,
    },
  };
}

const same = (a: string | null | undefined, b: string) => (a ?? "") === b;

/**
 * A retried submission gets back the client the first one made; if the user changed
 * the details in between, the client is brought up to date.
 */
async function matchDetails(client: Client, values: Record<ClientField, string>): Promise<Client> {
  const wanted = clientPayload(values, "").clientData;
  const differs =
    !same(client.name, wanted.name) ||
    !same(client.email?.toLowerCase(), wanted.email.toLowerCase()) ||
    !same(client.phone, wanted.phone) ||
    !same(client.company, wanted.company) ||
    !same(client.position, wanted.position);
  if (!differs) return client;
  const { userId: _owner, ...details } = wanted;
  try {
    return await api.patch<Client>(`/api/clients/${client.id}`, details);
  } catch (err) {
    console.warn("updating the client's details failed", err);
    return client;
  }
}

/** Runs the save; rejects only when the client itself could not be created. */
export async function saveClient(input: SaveInput, hooks: SaveHooks = {}): Promise<SaveResult> {
  hooks.onStage?.("client");
  const created = await api.post<Client>("/api/clients", clientPayload(input.values, input.userId), {
    headers: { "Idempotency-Key": input.idempotencyKey },
  });
  const client = await matchDetails(created, input.values);
  const clientId = String(client.id);

  const local = input.recording?.localId ?? null;
  if (local) {
    // From now on the phone's copy is this client's pending upload.
    await updateRecording(local, { clientId }).catch((err) => console.warn("marking the recording failed", err));
  }

  let photoSaved: boolean | null = null;
  if (input.photo) {
    hooks.onStage?.("photo");
    try {
      await uploadPhoto(clientId, input.photo, input.userId, hooks.retry);
      photoSaved = true;
    } catch (err) {
      console.warn("the photo was not saved", err);
      photoSaved = false;
    }
  }

  let recordingSaved: boolean | null = null;
  if (input.recording) {
    hooks.onStage?.("recording");
    try {
      await uploadRecording(clientId, input.recording.wav, input.userId, input.recording.recordedAt, {
        ...hooks.retry,
        onProgress: hooks.onUpload,
      });
      recordingSaved = true;
    } catch (err) {
      console.warn("the recording was not uploaded", err);
      recordingSaved = false;
    }
    // Confirmed by size and checksum: the phone's copy has done its job.
    if (recordingSaved && local) await deleteRecording(local).catch(() => {});
  }
  return { client, photoSaved, recordingSaved };
}

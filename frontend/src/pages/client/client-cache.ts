// The cached reads a client appears in, its own and its History row, kept in step
// after every change, so neither screen shows an older summary or status.

import type { Client, ClientRow, Job } from "../../lib/types.ts";
import { setQueryData } from "../../stores/query.ts";
import type { EmailClient } from "./email-flow.ts";

export const LIST_PATH = "/api/clients";
export const clientPath = (id: number | string) => `${LIST_PATH}/${id}`;

/** A History row brought up to date with the client as the server now has it. */
export function updatedRow(row: ClientRow, client: EmailClient): ClientRow {
  return {
    ...row,
    name: client.name,
    email: client.email,
    company: client.company,
    photoUrl: client.photoUrl,
    summary: client.summary,
    jobStatus: client.job?.status ?? null,
    ...(client.emailedAt !== undefined ? { emailedAt: client.emailedAt } : {}),
  };
}

function updateRow(id: number, change: (row: ClientRow) => ClientRow): void {
  setQueryData<ClientRow[] | undefined>(LIST_PATH, (rows) => rows?.map((row) => (row.id === id ? change(row) : row)));
}

/** The client as the server answered it, on this page and in History. */
export function rememberClient(client: EmailClient): void {
  setQueryData<EmailClient>(clientPath(client.id), () => client);
  updateRow(client.id, (row) => updatedRow(row, client));
}

/** The transcript's text after a correction or its undoing, on the client's page. */
export function rememberTranscription(clientId: number, transcription: string): void {
  setQueryData<Client | undefined>(clientPath(clientId), (client) => client && { ...client, transcription });
}

/** The job's new state, on the client's page and in its History row. */
export function rememberJob(clientId: number, job: Job): void {
  setQueryData<Client | undefined>(clientPath(clientId), (client) => client && { ...client, job });
  updateRow(clientId, (row) => ({ ...row, jobStatus: job.status }));
}

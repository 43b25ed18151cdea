// A follow-up sent another way (a call, a message, a meeting): the client is marked
// followed up, so the tracker stops listing it as waiting. Undone by taking the mark off.

import { api, errorMessage } from "../../lib/api.ts";
import { invalidate } from "../../stores/query.ts";
import { toast } from "../../stores/toast.ts";
import { INSIGHTS_PREFIX } from "../insights/paths.ts";
import { clientPath, rememberClient } from "./client-cache.ts";
import type { EmailClient } from "./email-flow.ts";

export const followedUpPath = (id: number | string) => `${clientPath(id)}/followed-up`;

/** Puts the mark on (or takes it off); resolves with the client, or null after a toast saying why not. */
export async function setFollowedUp(id: number, on: boolean): Promise<EmailClient | null> {
  try {
    const path = followedUpPath(id);
    const client = on ? await api.post<EmailClient>(path) : await api.delete<EmailClient>(path);
    rememberClient(client);
    return client;
  } catch (err) {
    toast({
      title: on ? "Not marked as followed up" : "Still marked as followed up",
      description: errorMessage(err, "The server did not answer. Try again."),
      variant: "destructive",
    });
    return null;
  } finally {
    // The tracker's waiting list and its count of follow-ups.
    invalidate(INSIGHTS_PREFIX);
  }
}

/** Marks the client followed up, then says so with an Undo. */
export async function markFollowedUp(client: { id: number; name: string }): Promise<EmailClient | null> {
  const marked = await setFollowedUp(client.id, true);
  if (marked) {
    toast({
      title: "Marked as followed up",
      description: client.name,
      action: { label: "Undo", onClick: () => void setFollowedUp(client.id, false) },
    });
  }
  return marked;
}

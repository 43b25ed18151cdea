// Ticking a next step done (and back) and moving its date, from the tracker: shown at
// once, sent in order, put right from the server's answer. The client page shows the
// same records, so its cached read is dropped after every change.

import { atom } from "nanostores";
import { api, ApiError, errorMessage } from "../../lib/api.ts";
import { invalidate, query, setQueryData } from "../../stores/query.ts";
import { toast } from "../../stores/toast.ts";
import { clientPath } from "../client/client-cache.ts";
import { DONE_PATH, INSIGHTS_PREFIX, OPEN_PATH, stepPath } from "./paths.ts";
import { placeStep, type TrackedStep } from "./tracker.ts";

/** What the tracker asks of a step (`PATCH /api/next-steps/{id}`); a field left out stays. */
export interface StepChange {
  done?: boolean;
  dueDate?: string | null;
}

/** A control of a step that should take the focus once the step is drawn where it now is. */
export interface FocusRequest {
  id: number;
  control: "check" | "date";
  /** The list the step is to be found in: it may still be drawn in the other one. */
  done: boolean;
}

export const $focusStep = atom<FocusRequest | null>(null);

const loaded = (path: string) => query<TrackedStep[]>(path).value?.data;

/** Draws `step` in whichever list it now belongs to; a list not loaded yet is read afresh. */
function show(step: TrackedStep): void {
  for (const path of [OPEN_PATH, DONE_PATH]) {
    const list = loaded(path);
    if (!list) {
      invalidate(path);
      continue;
    }
    const lists = placeStep(path === OPEN_PATH ? { open: list, done: undefined } : { open: undefined, done: list }, step);
    setQueryData<TrackedStep[]>(path, () => (path === OPEN_PATH ? lists.open! : lists.done!));
  }
}

/** Takes a step off both lists (it is gone on the server). */
function drop(id: number): void {
  for (const path of [OPEN_PATH, DONE_PATH]) {
    if (loaded(path)) setQueryData<TrackedStep[]>(path, (list) => (list ?? []).filter((step) => step.id !== id));
  }
}

// A step's writes go out one after the other, so an Undo never overtakes the tick it undoes,
// and only the answer to the latest one is drawn.
const queues = new Map<number, Promise<unknown>>();
const latest = new Map<number, number>();
let writes = 0;

/**
 * Shows `change` on `step` at once and sends it. Resolves with the step as the server
 * keeps it, or null when it was refused (then the step is shown as it was, and a toast
 * says why).
 */
export async function changeStep(step: TrackedStep, change: StepChange): Promise<TrackedStep | null> {
  const token = ++writes;
  latest.set(step.id, token);
  show({ ...step, ...change });
  const before = queues.get(step.id) ?? Promise.resolve();
  const sent = before.catch(() => {}).then(() => api.patch<TrackedStep>(stepPath(step.id), change));
  queues.set(step.id, sent);
  const current = () => latest.get(step.id) === token;
  try {
    const saved = await sent;
    if (current()) show(saved);
    return saved;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) drop(step.id);
    else if (current()) show(step);
    toast({
      title: change.done === undefined ? "Date not changed" : "Next step not updated",
      description: errorMessage(err, "The server did not answer. Try again."),
      variant: "destructive",
    });
    return null;
  } finally {
    if (queues.get(step.id) === sent) queues.delete(step.id);
    // The figures count open and overdue steps; the client page lists the same step.
    invalidate(INSIGHTS_PREFIX);
    invalidate(clientPath(step.clientId));
  }
}

/** Ticks a step done, with an Undo that opens it again and gives its checkbox the focus. */
export function tickDone(step: TrackedStep): void {
  void changeStep(step, { done: true });
  toast({
    title: "Marked as done",
    description: step.action,
    action: {
      label: "Undo",
      onClick: () => {
        $focusStep.set({ id: step.id, control: "check", done: false });
        void changeStep({ ...step, done: true }, { done: false });
      },
    },
  });
}

// A client's next steps without the screen: how an item is labelled, and the list the
// email preview edits (seeded from the items, or from the lines of an older text),
// checked by the server's rules and sent back whole.

import type { ActionItem, Client, Who } from "../../lib/types.ts";

/** One step as the editor holds it; `id` is null for a step added here. */
export interface EditableStep {
  key: string;
  id: number | null;
  who: Who;
  action: string;
  dueText: string;
  dueDate: string;
  done: boolean;
}

/** What the server accepts for each step (`PATCH /api/clients/{id}` `actionItems`). */
export interface StepInput {
  id?: number;
  who: Who;
  action: string;
  dueText: string | null;
  dueDate: string | null;
  done: boolean;
}

export const STEPS_MAX = 50;
export const ACTION_MAX = 500;
export const WHO_CHOICES: { value: Who; label: string }[] = [
  { value: "me", label: "Me" },
  { value: "client", label: "The client" },
  { value: "we", label: "Both of us" },
  { value: "unattributed", label: "Not said" },
];

/** A list line without the "- ", "* ", "• " or "1. " it may start with. */
function withoutBullet(line: string): string {
  return line.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, "").trim();
}

/** The lines of a next-steps text, as the client page lists them. */
export function stepLines(nextSteps: string | null): string[] {
  return (nextSteps ?? "").split(/\r?\n/).map(withoutBullet).filter(Boolean);
}

let keys = 0;
const newKey = () => `step-${++keys}`;

/** The client's steps to edit: its items, or its text's lines for a client from before items. */
export function editableSteps(client: Pick<Client, "actionItems" | "nextSteps">): EditableStep[] {
  const items = client.actionItems ?? [];
  if (items.length === 0) {
    return stepLines(client.nextSteps).map((action) => blankStep({ action }));
  }
  return items.map((item: ActionItem) => ({
    key: `item-${item.id}`,
    id: item.id,
    who: item.who,
    action: item.action,
    dueText: item.dueText ?? "",
    dueDate: item.dueDate ?? "",
    done: item.done,
  }));
}

export function blankStep(fill: Partial<EditableStep> = {}): EditableStep {
  return { key: newKey(), id: null, who: "unattributed", action: "", dueText: "", dueDate: "", done: false, ...fill };
}

/** The list as the server takes it. */
export function stepsPayload(steps: EditableStep[]): StepInput[] {
  return steps.map((step) => ({
    ...(step.id !== null ? { id: step.id } : {}),
    who: step.who,
    action: step.action.trim(),
    dueText: step.dueText.trim() || null,
    dueDate: step.dueDate || null,
    done: step.done,
  }));
}

/** True when two lists would save the same. */
export function sameSteps(a: EditableStep[], b: EditableStep[]): boolean {
  return JSON.stringify(stepsPayload(a)) === JSON.stringify(stepsPayload(b));
}

/** The server's first objection to the list, in its words; null when it would be saved. */
export function stepsProblem(steps: EditableStep[]): string | null {
  if (steps.length > STEPS_MAX) return "Next steps must be at most 50 items";
  if (steps.some((step) => step.action.trim() === "")) return "Every next step needs an action";
  if (steps.some((step) => [...step.action.trim()].length > ACTION_MAX)) {
    return "A next step must be less than 500 characters";
  }
  return null;
}

/** A new due date: the deadline then reads as that day ("by Friday 6 March"). */
export function withDueDate(step: EditableStep, dueDate: string): EditableStep {
  return { ...step, dueDate, dueText: dueDate ? `by ${longDay(dueDate)}` : "" };
}

/** A YYYY-MM-DD date as that day on this phone's calendar. */
export function dayOf(iso: string): Date {
  const [y, m, d] = iso.split("-").map(Number);
  return new Date(y, m - 1, d);
}

/** "Friday 6 March". */
export function longDay(iso: string): string {
  return dayOf(iso).toLocaleDateString("en-GB", { weekday: "long", day: "numeric", month: "long" });
}

/** "Fri 6 Mar". */
export function shortDay(iso: string): string {
  return dayOf(iso).toLocaleDateString("en-GB", { weekday: "short", day: "numeric", month: "short" });
}

/** Who will do it, as the consultant reads their own client's page. */
export function whoLabel(who: Who, clientName: string): string {
  switch (who) {
    case "me":
      return "Me";
    case "client":
      return clientName;
    case "we":
      return "Both of us";
    case "unattributed":
      return "Not said";
    default:
      return who;
  }
}

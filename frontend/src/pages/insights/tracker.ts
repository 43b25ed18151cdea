// The follow-up tracker's next steps without the screen: what the server sends, the
// phone's own calendar (today, the end of this week) and the groups the list shows.

import type { ActionItem, Who } from "../../lib/types.ts";
import { whoLabel } from "../client/next-steps.ts";
import { isoDay } from "./paths.ts";

/** One next step of any of the user's clients (`GET /api/next-steps`): an item and whose it is. */
export interface TrackedStep extends ActionItem {
  clientId: number;
  clientName: string;
}

/** The Sunday that ends the week of `today` (Monday to Sunday); `today` itself on a Sunday. */
export function endOfWeek(today: string): string {
  const [y, m, d] = today.split("-").map(Number);
  const day = new Date(y, m - 1, d);
  // Counting days on the date's own numbers, so a clock change inside the week moves nothing.
  return isoDay(new Date(y, m - 1, d + ((7 - day.getDay()) % 7)));
}

export type GroupKey = "overdue" | "week" | "later" | "undated";

export interface StepGroup {
  key: GroupKey;
  title: string;
  steps: TrackedStep[];
}

const TITLES: Record<GroupKey, string> = {
  overdue: "Overdue",
  week: "This week",
  later: "Later",
  undated: "No date",
};

/** Which group a step is under on `today` (YYYY-MM-DD dates compare as text). */
export function groupOf(dueDate: string | null, today: string, sunday = endOfWeek(today)): GroupKey {
  if (!dueDate) return "undated";
  if (dueDate < today) return "overdue";
  return dueDate <= sunday ? "week" : "later";
}

/**
 * The open steps under Overdue, This week, Later and No date, each soonest first (the
 * server's order, undated last); a group with nothing in it is left out.
 */
export function groupSteps(steps: TrackedStep[], today: string): StepGroup[] {
  const sunday = endOfWeek(today);
  const groups = new Map<GroupKey, TrackedStep[]>(
    (Object.keys(TITLES) as GroupKey[]).map((key) => [key, []]),
  );
  for (const step of sortSteps(steps)) groups.get(groupOf(step.dueDate, today, sunday))!.push(step);
  return [...groups]
    .filter(([, list]) => list.length > 0)
    .map(([key, list]) => ({ key, title: TITLES[key], steps: list }));
}

const dueKey = (step: TrackedStep) => step.dueDate ?? "9999-99-99";

/** Soonest due first, undated last; the same date keeps the order it came in. */
export function sortSteps(steps: TrackedStep[]): TrackedStep[] {
  return steps
    .map((step, i) => ({ step, i }))
    .sort((a, b) => {
      const x = dueKey(a.step);
      const y = dueKey(b.step);
      return x < y ? -1 : x > y ? 1 : a.i - b.i;
    })
    .map(({ step }) => step);
}

/** `step` put into a list in date order (among its date, by id), the others left as they are. */
function insertStep(list: TrackedStep[], step: TrackedStep): TrackedStep[] {
  const key = dueKey(step);
  const at = list.findIndex((other) => dueKey(other) > key || (dueKey(other) === key && other.id > step.id));
  return at < 0 ? [...list, step] : [...list.slice(0, at), step, ...list.slice(at)];
}

/**
 * Who will do it, read across all clients: "we" and a step nobody was named for say
 * so plainly here, where the client page says "Both of us" and "Not said".
 */
export function trackerWho(who: Who, clientName: string): string {
  if (who === "we") return "We";
  if (who === "unattributed") return "Not known";
  return whoLabel(who, clientName);
}

export interface StepLists {
  open: TrackedStep[] | undefined;
  done: TrackedStep[] | undefined;
}

/**
 * The lists with `changed` in its place: kept where it was when it stays in its list,
 * else moved to the other one in date order. A list not loaded stays not loaded.
 */
export function placeStep(lists: StepLists, changed: TrackedStep): StepLists {
  const put = (list: TrackedStep[] | undefined, belongs: boolean) => {
    if (!list) return list;
    const here = list.some((step) => step.id === changed.id);
    if (!belongs) return here ? list.filter((step) => step.id !== changed.id) : list;
    return here ? list.map((step) => (step.id === changed.id ? changed : step)) : insertStep(list, changed);
  };
  return { open: put(lists.open, !changed.done), done: put(lists.done, changed.done) };
}

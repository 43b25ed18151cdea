// What a scanned business card changes in the client form. The card fills the fields
// that are empty; a field the user typed is replaced only when they agree to it. Fields
// the server read unsurely are marked for the user to check. Pure: no DOM, no network.

import type { ClientField } from "../../lib/validation.ts";

export type ClientValues = Record<ClientField, string>;
export type ClientChanges = Partial<ClientValues>;

/** The form's fields in the order they appear on screen. */
export const CARD_FIELDS: readonly ClientField[] = ["name", "email", "phone", "company", "position"];

/** The fields' labels on the New Client form. */
export const FIELD_LABELS: Readonly<Record<ClientField, string>> = {
  name: "Full Name",
  email: "Email Address",
  phone: "Phone Number",
  company: "Company",
  position: "Position",
};

/** The server is less sure than this of a field it read: the form highlights it. */
export const CHECK_BELOW = 0.6;

/** Under a field the card filled but could not read for sure, and under one it could not read. */
export const CHECK_TEXT = {
  filled: "Check this against the card: it was hard to read.",
  empty: "The card was hard to read here: type it from the card.",
} as const;

/** One field the user typed that the card reads differently. */
export interface ScanConflict {
  field: ClientField;
  label: string;
  /** What the form holds now. */
  typed: string;
  /** What the card says. */
  scanned: string;
}

export interface ScanMerge {
  /** Fields the card read (with a value), in form order. */
  found: ClientField[];
  /** Empty fields of the form and the card's values for them. */
  fills: ClientChanges;
  /** Typed fields whose value differs from the card's, in form order. */
  conflicts: ScanConflict[];
  /**
   * Fields read unsurely that the scan fills, would replace, or could not read while
   * the form's field is empty: the ones to check, in form order.
   */
  unsure: ClientField[];
}

/** White space runs as one space, none at the ends. */
export function tidy(value: string): string {
  return value.replace(/\s+/gu, " ").trim();
}

/**
 * The server's answer (`{name, email, phone, company, position}`), read defensively:
 * strings are tidied, anything missing or not a string counts as not found.
 */
export function readScan(body: unknown): ClientValues {
  const record = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const scan = {} as ClientValues;
  for (const field of CARD_FIELDS) {
    const value = record[field];
    scan[field] = typeof value === "string" ? tidy(value) : "";
  }
  return scan;
}

/**
 * Whether a typed value and a scanned one say the same: compared without case or
 * extra spaces; phone numbers by their digits (and a leading plus) alone.
 */
export function sameValue(field: ClientField, typed: string, scanned: string): boolean {
  if (field === "phone") {
    const digits = (s: string) => {
      const t = tidy(s);
      return (t.startsWith("+") ? "+" : "") + t.replace(/\D/g, "");
    };
    const a = digits(typed);
    if (a !== "" && a !== "+") return a === digits(scanned);
  }
  return tidy(typed).toLowerCase() === tidy(scanned).toLowerCase();
}

/**
 * The fields of the server's answer whose `confidence` (0–1 per field) is under
 * CHECK_BELOW; an answer without confidences has none.
 */
export function readDoubts(body: unknown): ClientField[] {
  const record = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const confidence = record.confidence;
  if (typeof confidence !== "object" || confidence === null) return [];
  const sure = confidence as Record<string, unknown>;
  return CARD_FIELDS.filter((f) => typeof sure[f] === "number" && (sure[f] as number) < CHECK_BELOW);
}

/**
 * What the card would change in the form whose values are `current`; `doubtful` are
 * the fields the server read unsurely.
 */
export function mergeScan(current: ClientValues, scan: ClientValues, doubtful: ClientField[] = []): ScanMerge {
  const found: ClientField[] = [];
  const fills: ClientChanges = {};
  const conflicts: ScanConflict[] = [];
  const unsure: ClientField[] = [];
  for (const field of CARD_FIELDS) {
    const scanned = tidy(scan[field] ?? "");
    const typed = current[field] ?? "";
    const doubted = doubtful.includes(field);
    if (scanned === "") {
      if (doubted && tidy(typed) === "") unsure.push(field);
      continue;
    }
    found.push(field);
    if (tidy(typed) === "") {
      fills[field] = scanned;
      if (doubted) unsure.push(field);
    } else if (!sameValue(field, typed, scanned)) {
      conflicts.push({ field, label: FIELD_LABELS[field], typed, scanned });
      if (doubted) unsure.push(field);
    }
  }
  return { found, fills, conflicts, unsure };
}

/** The fields to highlight once the user answered: a typed value kept needs no check. */
export function toCheck(merge: ScanMerge, replaced: boolean): ClientField[] {
  const kept = replaced ? [] : merge.conflicts.map((c) => c.field);
  return merge.unsure.filter((f) => !kept.includes(f));
}

/** The card's values for the typed fields that differ: what Replace changes. */
export function replacements(merge: ScanMerge): ClientChanges {
  const changes: ClientChanges = {};
  for (const c of merge.conflicts) changes[c.field] = c.scanned;
  return changes;
}

/** "A", "A and B", "A, B and C". */
function listOf(labels: string[]): string {
  if (labels.length <= 1) return labels.join("");
  return `${labels.slice(0, -1).join(", ")} and ${labels[labels.length - 1]}`;
}

/**
 * The success toast's description: which fields were filled or replaced and which
 * kept what the user typed. `replaced` says whether the user chose Replace.
 */
export function scanOutcome(merge: ScanMerge, replaced: boolean): string {
  const labels = (fields: ClientField[]) => fields.map((f) => FIELD_LABELS[f]);
  const filled = labels(CARD_FIELDS.filter((f) => merge.fills[f] !== undefined));
  const conflicting = labels(merge.conflicts.map((c) => c.field));
  const parts: string[] = [];
  if (filled.length > 0) parts.push(`Filled ${listOf(filled)}.`);
  if (conflicting.length > 0) {
    parts.push(replaced ? `Replaced ${listOf(conflicting)}.` : `Kept what you typed in ${listOf(conflicting)}.`);
  }
  if (parts.length === 0) parts.push("The form already had these details.");
  const check = labels(toCheck(merge, replaced));
  if (check.length > 0) parts.push(`Check ${listOf(check)}: the card was hard to read there.`);
  return parts.join(" ");
}

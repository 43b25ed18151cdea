// The follow-up email as the template form describes it, for the live preview. It
// follows the server's renderer (src/mail/render.rs): placeholders filled, the first
// section, the AI's summary and next steps, then the second and third sections, each
// cut into paragraphs at blank lines. The result is plain text in blocks; the screen
// renders it as text, so nothing typed here is ever read as markup.

import { trimText } from "../../lib/validation.ts";
import type { TemplateValues } from "./validation.ts";

export const CLIENT_NAME = "[client name]";
export const USER_NAME = "[user name]";

/** Names and AI text shown in place of a real meeting's. */
export const PREVIEW_SAMPLE = {
  clientName: "Jane Smith",
  userName: "Alex Morgan",
  summary:
    "We reviewed the current onboarding process and agreed that the reporting module is the first priority.",
  nextSteps: ["Send the proposal by Friday", "Schedule a demo with the operations team"],
} as const;

export type PreviewBlock =
  | { kind: "paragraph"; text: string }
  | { kind: "heading"; text: string }
  | { kind: "list"; items: string[] }
  /** Where an empty section goes: the preview says so rather than leaving a gap. */
  | { kind: "missing"; text: string };

export interface EmailPreview {
  fromName: string;
  subject: string;
  blocks: PreviewBlock[];
}

interface Sample {
  clientName: string;
  userName: string;
  summary: string;
  nextSteps: readonly string[];
}

export function fillPlaceholders(text: string, sample: Pick<Sample, "clientName" | "userName">): string {
  return text.split(CLIENT_NAME).join(sample.clientName).split(USER_NAME).join(sample.userName);
}

/** Paragraphs at blank lines (a line break inside one stays a line break). */
export function paragraphs(text: string): string[] {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n\n")
    .map((p) => trimText(p))
    .filter((p) => p !== "");
}

export function renderPreview(values: TemplateValues, sample: Sample = PREVIEW_SAMPLE): EmailPreview {
  const fill = (text: string) => fillPlaceholders(trimText(text), sample);
  const section = (text: string, label: string): PreviewBlock[] => {
    const parts = paragraphs(fill(text));
    return parts.length > 0
      ? parts.map((p) => ({ kind: "paragraph", text: p }))
      : [{ kind: "missing", text: `(${label} is empty)` }];
  };
  return {
    fromName: trimText(values.fromName),
    subject: fill(values.emailTitle).replace(/[\r\n]/g, " "),
    blocks: [
      ...section(values.firstContentSection, "First content section"),
      { kind: "heading", text: "Meeting Summary" },
      ...paragraphs(sample.summary).map((p): PreviewBlock => ({ kind: "paragraph", text: p })),
      { kind: "heading", text: "Next Steps" },
      { kind: "list", items: [...sample.nextSteps] },
      ...section(values.secondContentSection, "Second content section"),
      ...section(values.thirdContentSection, "Third content section"),
    ],
  };
}

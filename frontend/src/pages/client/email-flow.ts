// The follow-up email of a client, without the screen: who can be emailed, the rules
// of the corrected summary and next steps, and what a send attempt leads to.

import { ApiError } from "../../lib/api.ts";
import { relativeTime } from "../../lib/format.ts";
import type { Client } from "../../lib/types.ts";
import { charCount, isEmail, trimText, type FieldErrors } from "../../lib/validation.ts";

export type EmailStatus = "idle" | "sending" | "sent";

export const EMAIL_LABELS: Record<EmailStatus, string> = {
  idle: "Email Client",
  sending: "Sending...",
  sent: "Email Sent",
};

export const EMAIL_MISSING = "Cannot send email: Client email or summary is missing";
export const SEND_FAILED = "Failed to send email";
export const OUTBOX_MESSAGE = "Saved to outbox: email is not configured on this server";

/**
 * The client as the server returns it; `emailedAt` is set once the follow-up went out,
 * `followedUpAt` once the owner said it went another way.
 */
export type EmailClient = Client & { emailedAt?: string | null; followedUpAt?: string | null };

/** `GET /api/clients/{id}/email`: the email exactly as it will be sent. */
export interface EmailPreview {
  fromName: string;
  to: string;
  replyTo: string;
  subject: string;
  text: string;
  htmlUrl: string;
}

/** `POST /api/clients/{id}/send-email`. */
export interface SendResult {
  message: string;
  delivery: "sent" | "outbox";
}

/** The server renders an email only with an address and a summary. */
export function canEmail(client: Pick<Client, "email" | "summary">): boolean {
  return isEmail(trimText(client.email)) && trimText(client.summary) !== "";
}

export const emailPath = (id: number | string) => `/api/clients/${id}/email`;
export const sendPath = (id: number | string) => `/api/clients/${id}/send-email`;

// --- the corrected texts (src/domain/client.rs, TextsInput) -----------------------

export type TextField = "summary" | "nextSteps";
export const TEXT_BLOCK_MAX = 10_000;

/** Control characters other than line feed and tab. */
const BAD_CHAR = /[^\P{Cc}\n\t]/u;

/** A text block as the server keeps it: trimmed, with `\n` line ends. */
export function textBlock(value: string | null | undefined): string {
  return trimText(value ?? "").replace(/\r\n/g, "\n");
}

/** The server's rules for the summary and the next steps, in its order. */
export function validateEmailTexts(input: Partial<Record<TextField, string>>): FieldErrors<TextField> {
  const errors: FieldErrors<TextField> = {};
  const check = (failed: boolean, field: TextField, message: string) => {
    if (failed && errors[field] === undefined) errors[field] = message;
  };
  const summary = textBlock(input.summary);
  const nextSteps = textBlock(input.nextSteps);
  check(charCount(summary) > TEXT_BLOCK_MAX, "summary", "Summary must be less than 10000 characters");
  check(BAD_CHAR.test(summary), "summary", "Summary contains characters that are not allowed");
  check(charCount(nextSteps) > TEXT_BLOCK_MAX, "nextSteps", "Next steps must be less than 10000 characters");
  check(BAD_CHAR.test(nextSteps), "nextSteps", "Next steps contain characters that are not allowed");
  return errors;
}

// --- a send attempt ----------------------------------------------------------------

export interface ToastText {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
}

export interface SendOutcome {
  status: EmailStatus;
  toast: ToastText;
  /** The server recorded the email as sent: the client's `emailedAt` changed. */
  delivered: boolean;
}

/** The server answered 200: sent, or filed in the outbox of a server without SMTP. */
export function sentOutcome(result: Partial<SendResult> | null, email: string): SendOutcome {
  const message = typeof result?.message === "string" && result.message !== "" ? result.message : undefined;
  if (result?.delivery === "outbox") {
    return { status: "idle", toast: { title: message ?? OUTBOX_MESSAGE }, delivered: false };
  }
  return { status: "sent", toast: { title: "Success", description: message ?? `Email sent to ${email}` }, delivered: true };
}

/** Anything else: back to idle, and the server's reason when it gave one. */
export function failedOutcome(err: unknown): SendOutcome {
  let description: string | undefined;
  if (err instanceof ApiError) {
    if (err.status === 401) description = "User not authenticated";
    else if (err.serverMessage && err.serverMessage !== SEND_FAILED) description = err.serverMessage;
  }
  return { status: "idle", toast: { title: SEND_FAILED, description, variant: "destructive" }, delivered: false };
}

/** "{what} just now", "{what} 5 minutes ago"; a time ahead of this phone's clock reads "just now". */
function happenedText(what: string, at: string, now: number): string {
  const then = Date.parse(at);
  if (!Number.isFinite(then)) return "";
  const when = relativeTime(Math.min(then, now), now);
  return `${what} ${when === "now" ? "just now" : when}`;
}

/** "Last emailed just now", "… 5 minutes ago". */
export function lastEmailedText(emailedAt: string, now: number = Date.now()): string {
  return happenedText("Last emailed", emailedAt, now);
}

/** "Marked as followed up 3 days ago": a follow-up that went another way than this email. */
export function followedUpText(followedUpAt: string, now: number = Date.now()): string {
  return happenedText("Marked as followed up", followedUpAt, now);
}

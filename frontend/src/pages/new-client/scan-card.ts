// Sending a photo of a business card to the server and reading its answer.

import { api, ApiError } from "../../lib/api.ts";
import type { ClientField } from "../../lib/validation.ts";
import { readDoubts, readScan, type ClientValues } from "./scan-merge.ts";

export const SCAN_URL = "/api/business-card/scan";
/** The multipart field the server reads. */
export const SCAN_FIELD = "businessCard";
/** The server's limit on the photo (it answers 413 above it). */
export const CARD_MAX_BYTES = 15 * 1024 * 1024;

export const SCAN_TEXT = {
  invalidTitle: "Invalid File",
  invalidDescription: "Please select an image file.",
  failedTitle: "Scan Failed",
  failedDescription: (reason: string) => `Failed to extract information: ${reason}`,
  success: "Card Scanned Successfully",
  tooLarge: "The photo is too large (15 MB at most)",
  nothingFound: "No contact details were found on the card. Try a sharper photo, straight on, in good light.",
  unreachable: "The server could not be reached. Check the connection and try again.",
} as const;

// Phones sometimes give a photo no type at all; then its name says what it is.
const IMAGE_NAME = /\.(jpe?g|png|webp|heic|heif|gif|bmp|tiff?|avif)$/i;

/** Whether the picked file is an image (any kind: the server says which it can read). */
export function isImageFile(file: { type: string; name?: string }): boolean {
  if (file.type) return file.type.toLowerCase().startsWith("image/");
  return IMAGE_NAME.test(file.name ?? "");
}

/** A failure found before anything was sent. */
export class ScanProblem extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "ScanProblem";
  }
}

/** What a card gave: its fields, and those the server read unsurely. */
export interface CardScan {
  values: ClientValues;
  doubtful: ClientField[];
}

/**
 * POSTs the original file (the server honours EXIF orientation) and returns the
 * fields the card gave. Throws ScanProblem, ApiError, or the transport's error.
 */
export async function scanCard(file: Blob & { name?: string }, signal?: AbortSignal): Promise<CardScan> {
  if (file.size > CARD_MAX_BYTES) throw new ScanProblem(SCAN_TEXT.tooLarge);
  const body = new FormData();
  body.append(SCAN_FIELD, file, file.name || "card.jpg");
  const answer = await api.post<unknown>(SCAN_URL, body, { signal });
  const values = readScan(answer);
  if (Object.values(values).every((v) => v === "")) throw new ScanProblem(SCAN_TEXT.nothingFound);
  return { values, doubtful: readDoubts(answer) };
}

export function isAbort(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { name?: unknown }).name === "AbortError";
}

// The standard reason phrases of the statuses a scan can meet, for an answer
// without a message of its own.
const REASONS: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  408: "Request Timeout",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** The answer's status text, when it came with an empty body (the error's message is then "STATUS: TEXT"). */
function statusText(err: ApiError): string | undefined {
  if (err.body !== null) return undefined;
  const text = err.message.slice(`${err.status}: `.length).trim();
  return text === "" ? undefined : text;
}

/** The {reason} of 'Failed to extract information: {reason}'. */
export function scanFailureReason(err: unknown): string {
  if (err instanceof ScanProblem) return err.message;
  if (err instanceof ApiError) return err.serverMessage ?? statusText(err) ?? REASONS[err.status] ?? `HTTP ${err.status}`;
  return SCAN_TEXT.unreachable;
}

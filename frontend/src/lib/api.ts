// The one HTTP client every screen uses. Reads and writes are never retried here:
// the few calls that may retry (session check, uploads) do so in their own code.
// Whether the server answered at all is noted for the offline message.

import { noteAnswer, noteNoAnswer } from "../stores/connection.ts";

export interface FieldError {
  field: string;
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  /** Parsed JSON body, the plain text, or null when the body was empty. */
  readonly body: unknown;
  /** The server's `message` (or `error`) field, when it sent one. */
  readonly serverMessage: string | undefined;
  readonly fieldErrors: FieldError[];

  constructor(status: number, statusText: string, text: string, body: unknown) {
    super(`${status}: ${text || statusText}`);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
    const record = isRecord(body) ? body : {};
    const msg = record.message ?? record.error;
    this.serverMessage = typeof msg === "string" && msg !== "" ? msg : undefined;
    this.fieldErrors = Array.isArray(record.fieldErrors)
      ? record.fieldErrors.filter(isFieldError)
      : [];
  }
}

export interface RequestOptions {
  /** A plain value is sent as JSON; FormData, Blob and strings are sent as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  cache?: RequestCache;
  /** Treat 401 as "nothing here" and resolve with null instead of throwing. */
  allow401?: boolean;
}

type Fetch = typeof fetch;
let fetchImpl: Fetch | null = null;

/** Unit tests swap the transport; the app always uses the browser's fetch. */
export function setFetch(fn: Fetch | null): void {
  fetchImpl = fn;
}

export async function request<T>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  let body: BodyInit | undefined;
  const raw = options.body;
  if (raw === undefined || raw === null) {
    body = undefined;
  } else if (isPassThroughBody(raw)) {
    body = raw;
  } else {
    body = JSON.stringify(raw);
    headers["Content-Type"] = "application/json";
  }

  const doFetch = fetchImpl ?? globalThis.fetch.bind(globalThis);
  let res: Response;
  try {
    res = await doFetch(path, {
      method,
      headers,
      body,
      credentials: "same-origin",
      cache: options.cache,
      signal: options.signal,
    });
  } catch (err) {
    if (!options.signal?.aborted) noteNoAnswer();
    throw err;
  }
  noteAnswer(res.status);

  // Read whatever the answer, a 401 too: a body left unread keeps the request open
  // until the connection closes, and the page never settles.
  const text = await res.text();
  if (res.status === 401 && options.allow401) return null as T;

  const parsed = parseBody(text, res.headers.get("Content-Type"));
  if (!res.ok) throw new ApiError(res.status, res.statusText, text, parsed);
  return parsed as T;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, "body">) => request<T>("GET", path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>("POST", path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>("PUT", path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>("PATCH", path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>("DELETE", path, options),
};

/** What a toast should say for a failed call: the server's words, else the fallback. */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return err.serverMessage ?? fallback;
  return fallback;
}

function parseBody(text: string, contentType: string | null): unknown {
  if (text === "") return null;
  if (contentType && /\bjson\b/i.test(contentType)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function isPassThroughBody(value: unknown): value is BodyInit {
  return (
    typeof value === "string" ||
    (typeof FormData !== "undefined" && value instanceof FormData) ||
    (typeof Blob !== "undefined" && value instanceof Blob) ||
    (typeof URLSearchParams !== "undefined" && value instanceof URLSearchParams) ||
    value instanceof ArrayBuffer ||
    ArrayBuffer.isView(value)
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isFieldError(value: unknown): value is FieldError {
  return isRecord(value) && typeof value.field === "string" && typeof value.message === "string";
}

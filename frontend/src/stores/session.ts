import { atom } from "nanostores";
import { api } from "../lib/api.ts";
import type { User } from "../lib/types.ts";
import { clearQueries } from "./query.ts";

// The session check: GET /api/auth/session, never from the HTTP cache, fresh for 30 s,
// checked again when the window regains focus after that, and never retried. It answers
// 200 with `{ user: null }` to a visitor nobody signed in, where the spec's
// GET /api/auth/me answers 401, which browsers log as an error on every first visit.
//
// The signed-in user is also kept in the browser's storage (the product's
// "logged-in flag and user record"), so that an app opened while the server is
// out of reach still shows the signed-in screens and can record. The server
// decides again as soon as it answers.

export type Session =
  | { status: "loading"; user: null }
  | { status: "authenticated"; user: User }
  | { status: "anonymous"; user: null };

export const SESSION_FRESH_MS = 30_000;

/** What `GET /api/auth/session` answers. */
interface SessionProbe {
  user: User | null;
}

export const $session = atom<Session>({ status: "loading", user: null });

let checkedAt = -Infinity;
let inFlight: Promise<void> | null = null;
let epoch = 0;
const now = () => Date.now();

const REMEMBERED = "debrief.user";

function remember(user: User | null): void {
  try {
    if (user) localStorage.setItem(REMEMBERED, JSON.stringify(user));
    else localStorage.removeItem(REMEMBERED);
  } catch {
    // no storage (private browsing, tests): nothing is remembered
  }
}

/** Someone has signed in on this browser and not signed out since. */
export function signedInBefore(): boolean {
  return rememberedUser() !== null;
}

/** The user last signed in on this browser, if any. */
function rememberedUser(): User | null {
  try {
    const text = localStorage.getItem(REMEMBERED);
    const user = text ? (JSON.parse(text) as User) : null;
    return user && typeof user === "object" && "id" in user ? user : null;
  } catch {
    return null;
  }
}

/** Ask the server who we are, unless the last answer is under 30 s old. */
export function checkSession(force = false): Promise<void> {
  if (inFlight) return inFlight;
  if (!force && now() - checkedAt < SESSION_FRESH_MS) return Promise.resolve();
  const started = epoch;
  inFlight = api
    .get<SessionProbe>("/api/auth/session", { cache: "no-store" })
    .then(
      ({ user }) => {
        if (started !== epoch) return;
        checkedAt = now();
        remember(user);
        $session.set(user ? { status: "authenticated", user } : { status: "anonymous", user: null });
      },
      () => {
        if (started !== epoch) return;
        checkedAt = now();
        // A failed check (not a 401) keeps what we knew, else the user this browser
        // remembers; with nobody known the visitor is treated as signed out, so the
        // sign-in screen is reachable.
        if ($session.get().status !== "loading") return;
        const known = rememberedUser();
        $session.set(known ? { status: "authenticated", user: known } : { status: "anonymous", user: null });
      },
    )
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

/** After a successful login or profile update: the server's user record. */
export function setUser(user: User): void {
  epoch++;
  inFlight = null;
  checkedAt = now();
  remember(user);
  $session.set({ status: "authenticated", user });
}

/** After logout (or a revoked session): forget the user and every cached read. */
export function clearSession(): void {
  epoch++;
  inFlight = null;
  checkedAt = now();
  remember(null);
  clearQueries();
  $session.set({ status: "anonymous", user: null });
}

/** Check now, then again whenever the window regains focus and the answer is stale. */
export function watchSession(target: Window = window): () => void {
  const onFocus = () => void checkSession();
  const onVisible = () => {
    if (target.document.visibilityState === "visible") void checkSession();
  };
  target.addEventListener("focus", onFocus);
  target.document.addEventListener("visibilitychange", onVisible);
  void checkSession();
  return () => {
    target.removeEventListener("focus", onFocus);
    target.document.removeEventListener("visibilitychange", onVisible);
  };
}

/** Unit tests start each case from a blank session. */
export function resetSessionForTests(): void {
  epoch++;
  inFlight = null;
  checkedAt = -Infinity;
  $session.set({ status: "loading", user: null });
}

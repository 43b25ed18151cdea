import { atom } from "nanostores";

// Whether the server can be reached. A phone in a client's lobby is online (their
// Wi-Fi, mobile data) and still cannot reach a server on the office network, so
// this is learnt from the requests themselves: one that gets no answer at all
// marks the server unreachable, and from then on /api/health is asked now and
// then, and whenever the phone says it is back online or the app is looked at
// again, until it answers.

export const $reachable = atom(true);

export const HEALTH_PATH = "/api/health";
const FIRST_PROBE_MS = 2000;
const LONGEST_PROBE_MS = 15_000;
const PROBE_TIMEOUT_MS = 5000;

/**
 * A request was answered. A 502 or 504 may come from a reverse proxy in front of
 * a server that is down (or from the server about the mail server), so it says
 * nothing either way.
 */
export function noteAnswer(status: number): void {
  if (status === 502 || status === 504) return;
  if (!$reachable.get()) $reachable.set(true);
}

/** A request got no answer: no network, connection refused or dropped. */
export function noteNoAnswer(): void {
  if ($reachable.get()) $reachable.set(false);
  watcher?.soon();
}

/** Asks /api/health once; true when it answered 200. */
export async function probe(fetchFn: typeof fetch = globalThis.fetch.bind(globalThis)): Promise<boolean> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), PROBE_TIMEOUT_MS);
  try {
    const res = await fetchFn(HEALTH_PATH, { cache: "no-store", signal: controller.signal });
    // A reverse proxy answers for a server that is down; only the server says 200 here.
    if (res.ok) noteAnswer(res.status);
    else noteNoAnswer();
    return res.ok;
  } catch {
    noteNoAnswer();
    return false;
  } finally {
    clearTimeout(timer);
  }
}

let watcher: { soon(): void } | null = null;

/**
 * Follows the phone's network events and, while the server is out of reach, asks
 * it again with growing pauses (2 s up to 15 s). Returns the function that stops.
 */
export function watchConnection(win: Window = window, fetchFn?: typeof fetch): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pause = FIRST_PROBE_MS;
  let probing = false;

  const schedule = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(check, ms);
  };
  const check = async () => {
    clearTimeout(timer);
    timer = undefined;
    if (probing) return;
    probing = true;
    const ok = await probe(fetchFn);
    probing = false;
    if (ok) {
      pause = FIRST_PROBE_MS;
      return;
    }
    // Offline by the phone's own account: the "online" event will say when to try.
    if (win.navigator.onLine === false) return;
    schedule(pause);
    pause = Math.min(LONGEST_PROBE_MS, pause * 2);
  };
  const onOnline = () => {
    pause = FIRST_PROBE_MS;
    void check();
  };
  const onOffline = () => {
    clearTimeout(timer);
    timer = undefined;
    $reachable.set(false);
  };
  const onLookedAt = () => {
    if (!$reachable.get() && win.document.visibilityState === "visible") onOnline();
  };

  win.addEventListener("online", onOnline);
  win.addEventListener("offline", onOffline);
  win.addEventListener("focus", onLookedAt);
  win.document.addEventListener("visibilitychange", onLookedAt);
  watcher = {
    soon() {
      if (timer === undefined && !probing) schedule(pause);
    },
  };
  if (win.navigator.onLine === false) $reachable.set(false);

  return () => {
    clearTimeout(timer);
    watcher = null;
    win.removeEventListener("online", onOnline);
    win.removeEventListener("offline", onOffline);
    win.removeEventListener("focus", onLookedAt);
    win.document.removeEventListener("visibilitychange", onLookedAt);
  };
}

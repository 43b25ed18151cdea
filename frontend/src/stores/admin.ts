import { atom } from "nanostores";

// The browser-local admin flag. It only decides which admin screen to show: every
// admin call is still checked by the server, and the dashboard confirms the server
// session when it opens.

export const ADMIN_FLAG_KEY = "debrief.adminSession";

function read(): boolean {
  try {
    return globalThis.localStorage?.getItem(ADMIN_FLAG_KEY) === "true";
  } catch {
    return false;
  }
}

export const $adminFlag = atom<boolean>(read());

export function setAdminFlag(on: boolean): void {
  try {
    if (on) localStorage.setItem(ADMIN_FLAG_KEY, "true");
    else localStorage.removeItem(ADMIN_FLAG_KEY);
  } catch {
    // Storage can be unavailable (private mode quotas); the in-memory flag still works.
  }
  $adminFlag.set(on);
}

/**
 * The server answered an admin call as if this browser had no admin session: 401 (none,
 * or it expired), or 403 (only a user's session). Read from the status alone, so this
 * file stays free of the HTTP client.
 */
export function isAdminSessionLost(err: unknown): boolean {
  const status = (err as { status?: unknown } | null)?.status;
  return status === 401 || status === 403;
}

if (typeof window !== "undefined") {
  window.addEventListener("storage", (event) => {
    if (event.key === ADMIN_FLAG_KEY || event.key === null) $adminFlag.set(read());
  });
}

import { atom } from "nanostores";

// The browser-local admin flag. It only decides which admin screen to show: every
// admin call is still checked by the server.

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

if (typeof window !== "undefined") {
  window.addEventListener("storage", (event) => {
    if (event.key === ADMIN_FLAG_KEY || event.key === null) $adminFlag.set(read());
  });
}

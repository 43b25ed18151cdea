import { atom } from "nanostores";
import { $reachable } from "../stores/connection.ts";

// Registers the service worker (src/service-worker/sw.ts) that keeps the app's
// shell for offline use, and notices when a new version has taken over: the page
// still runs the old code until it reloads, which the app offers at a safe moment.

/** A newer version of the app is in place; this page runs the older one. */
export const $updateReady = atom(false);

/** An open app asks for a new version at most this often when it is looked at. */
const UPDATE_CHECK_MS = 30 * 60_000;

/** The longest the worker waits for an idle moment after the page has loaded. */
const IDLE_WAIT_MS = 3000;

export function registerServiceWorker(win: Window = window): void {
  const container = win.navigator.serviceWorker;
  // Service workers exist on secure pages only (HTTPS, or this machine).
  if (!container || !win.isSecureContext) return;

  let controlled = container.controller !== null;
  container.addEventListener("controllerchange", () => {
    // The first worker taking over this page is the first install, not an update.
    if (controlled) $updateReady.set(true);
    controlled = true;
  });

  const register = async () => {
    let registration: ServiceWorkerRegistration;
    try {
      registration = await container.register("/sw.js", { scope: "/", updateViaCache: "none" });
    } catch (err) {
      console.warn("the app cannot work offline: its service worker was not registered", err);
      return;
    }
    // A page that was still loading when the first worker claimed its pages is
    // missed by that claim (Chromium skips clients mid-navigation): ask again, or
    // this page would not be kept for offline use until the next full load.
    void container.ready.then((ready) => {
      if (container.controller === null) ready.active?.postMessage({ type: "claim" });
    });
    let checkedAt = Date.now();
    const check = () => {
      checkedAt = Date.now();
      registration.update().catch(() => {});
    };
    // An app left open for days sees no page loads, when browsers look for updates.
    win.document.addEventListener("visibilitychange", () => {
      if (win.document.visibilityState === "visible" && Date.now() - checkedAt > UPDATE_CHECK_MS) check();
    });
    // The server may have been upgraded while it was out of reach.
    $reachable.listen((reachable) => {
      if (reachable) check();
    });
  };
  // Once the page has loaded and the browser is idle: the worker fetches every file of
  // the app, which on a slow phone would otherwise hold up the first screen.
  const whenIdle = () => {
    // Safari has no requestIdleCallback.
    if (typeof win.requestIdleCallback === "function") win.requestIdleCallback(() => void register(), { timeout: IDLE_WAIT_MS });
    else win.setTimeout(() => void register(), 0);
  };
  if (win.document.readyState === "complete") whenIdle();
  else win.addEventListener("load", whenIdle, { once: true });
}

import { atom } from "nanostores";
import {
  initialToastState,
  TOAST_REMOVE_DELAY_MS,
  toastReducer,
  type ToastAction,
  type ToastContent,
  type ToastState,
} from "../lib/toast-state.ts";

export const $toasts = atom<ToastState>(initialToastState);

const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();
let counter = 0;

function dispatch(action: ToastAction): void {
  $toasts.set(toastReducer($toasts.get(), action));
}

function scheduleRemoval(id: string): void {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      dispatch({ type: "remove", id });
    }, TOAST_REMOVE_DELAY_MS),
  );
}

/** Hide a toast (all of them without an id); it is dropped from memory later. */
export function dismissToast(id?: string): void {
  const ids = id === undefined ? $toasts.get().toasts.map((t) => t.id) : [id];
  ids.forEach(scheduleRemoval);
  dispatch({ type: "dismiss", id });
}

export interface ToastHandle {
  id: string;
  update(changes: ToastContent): void;
  dismiss(): void;
}

export function toast(content: ToastContent): ToastHandle {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  dispatch({ type: "add", toast: { variant: "default", ...content, id, open: true } });
  return {
    id,
    update: (changes) => dispatch({ type: "update", id, changes }),
    dismiss: () => dismissToast(id),
  };
}

/** Where a toast waits for the page a full reload brings: this tab only. */
export const CARRIED_TOAST_KEY = "debrief.toast-after-reload";

/**
 * Shows `content` on the page the next full reload brings (a reload clears
 * memory, and with it any toast raised before it), for the usual time.
 */
export function toastAfterReload(content: ToastContent, storage: Storage = sessionStorage): void {
  try {
    storage.setItem(CARRIED_TOAST_KEY, JSON.stringify(content));
  } catch {
    // Storage refused (private mode, full): the toast is only a courtesy.
  }
}

/** Raises the toast carried across a reload, once; true when there was one. */
export function showCarriedToast(storage: Storage = sessionStorage): boolean {
  let content: ToastContent | null = null;
  try {
    const raw = storage.getItem(CARRIED_TOAST_KEY);
    storage.removeItem(CARRIED_TOAST_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (parsed && typeof parsed === "object" && typeof (parsed as ToastContent).title === "string") {
      const { title, description } = parsed as ToastContent;
      content = { title, ...(typeof description === "string" ? { description } : {}) };
    }
  } catch {
    return false;
  }
  if (content) toast(content);
  return content !== null;
}

/** Unit tests start from an empty list with no timers pending. */
export function resetToastsForTests(): void {
  removalTimers.forEach(clearTimeout);
  removalTimers.clear();
  $toasts.set(initialToastState);
}

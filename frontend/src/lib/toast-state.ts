// Pure toast state: what is shown, what was dismissed. Timers live in stores/toast.ts.

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

export type ToastVariant = "default" | "destructive";

/** A button in the toast that acts on what it reports (Undo); pressing it closes the toast. */
export interface ToastButton {
  label: string;
  onClick: () => void;
}

export interface ToastContent {
  title?: string;
  description?: string;
  variant?: ToastVariant;
  action?: ToastButton;
}

export interface ToastItem extends ToastContent {
  id: string;
  open: boolean;
}

export interface ToastState {
  toasts: ToastItem[];
}

export type ToastAction =
  | { type: "add"; toast: ToastItem }
  | { type: "update"; id: string; changes: ToastContent }
  | { type: "dismiss"; id?: string }
  | { type: "remove"; id?: string };

export const initialToastState: ToastState = { toasts: [] };

export function toastReducer(state: ToastState, action: ToastAction): ToastState {
  switch (action.type) {
    case "add":
      // Newest first; past the limit the older toasts are dropped, so a new one replaces.
      return { toasts: [action.toast, ...state.toasts].slice(0, TOAST_LIMIT) };
    case "update":
      return {
        toasts: state.toasts.map((t) => (t.id === action.id ? { ...t, ...action.changes } : t)),
      };
    case "dismiss":
      return {
        toasts: state.toasts.map((t) =>
          action.id === undefined || t.id === action.id ? { ...t, open: false } : t,
        ),
      };
    case "remove":
      return {
        toasts: action.id === undefined ? [] : state.toasts.filter((t) => t.id !== action.id),
      };
  }
}

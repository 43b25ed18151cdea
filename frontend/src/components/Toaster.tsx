import { useStore } from "@nanostores/react";
import { useEffect, useRef, useState, type PointerEvent } from "react";
import { cx } from "../lib/cx.ts";
import { TOAST_DURATION_MS, type ToastItem } from "../lib/toast-state.ts";
import { $toasts, dismissToast } from "../stores/toast.ts";
import { CloseIcon } from "./icons.tsx";

export const SWIPE_THRESHOLD_PX = 50;

// One region holds the toasts. It has two live lists that stay in the document so
// that screen readers announce what is added: polite for ordinary toasts, assertive
// for destructive ones.
export function Toaster() {
  const { toasts } = useStore($toasts);
  const regionRef = useRef<HTMLElement>(null);
  const [paused, setPaused] = useState(false);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "F8" && !event.altKey && !event.ctrlKey && !event.metaKey) {
        event.preventDefault();
        regionRef.current?.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  const visible = toasts.filter((t) => t.open);
  const list = (variant: "polite" | "assertive") =>
    visible
      .filter((t) => (t.variant === "destructive") === (variant === "assertive"))
      .map((t) => <Toast key={t.id} toast={t} paused={paused} />);

  return (
    <section
      ref={regionRef}
      aria-label="Notification"
      tabIndex={-1}
      className={cx("toaster", visible.length > 0 && "toaster--active")}
      onPointerEnter={() => setPaused(true)}
      onPointerLeave={() => setPaused(false)}
      onFocusCapture={() => setPaused(true)}
      onBlurCapture={(event) => {
        if (!regionRef.current?.contains(event.relatedTarget as Node | null)) setPaused(false);
      }}
    >
      <ol className="toaster__list" aria-live="polite">
        {list("polite")}
      </ol>
      <ol className="toaster__list" aria-live="assertive">
        {list("assertive")}
      </ol>
    </section>
  );
}

function Toast({ toast, paused }: { toast: ToastItem; paused: boolean }) {
  const ref = useRef<HTMLLIElement>(null);
  const drag = useRef<{ pointer: number; startX: number; dx: number; captured: boolean } | null>(null);

  // Pausing (pointer over or focus inside the region) gives the reader more time;
  // the full duration starts again when it resumes.
  useEffect(() => {
    if (paused) return;
    const timer = setTimeout(() => dismissToast(toast.id), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [paused, toast.id, toast.title, toast.description]);

  const setOffset = (px: number) => {
    const el = ref.current;
    if (!el) return;
    el.style.transform = px ? `translateX(${px}px)` : "";
    el.style.opacity = px ? String(Math.max(0.2, 1 - px / 200)) : "";
  };

  const onPointerDown = (event: PointerEvent<HTMLLIElement>) => {
    if (event.button !== 0) return;
    drag.current = { pointer: event.pointerId, startX: event.clientX, dx: 0, captured: false };
  };
  const onPointerMove = (event: PointerEvent<HTMLLIElement>) => {
    const d = drag.current;
    if (!d || d.pointer !== event.pointerId) return;
    d.dx = Math.max(0, event.clientX - d.startX);
    if (!d.captured && d.dx > 4) {
      // Capture only once it is clearly a swipe, so taps still reach the close button.
      ref.current?.setPointerCapture(event.pointerId);
      d.captured = true;
      ref.current?.classList.add("toast--swiping");
    }
    if (d.captured) setOffset(d.dx);
  };
  const onPointerEnd = (event: PointerEvent<HTMLLIElement>) => {
    const d = drag.current;
    if (!d || d.pointer !== event.pointerId) return;
    drag.current = null;
    ref.current?.classList.remove("toast--swiping");
    if (event.type === "pointerup" && d.dx >= SWIPE_THRESHOLD_PX) {
      dismissToast(toast.id);
      return;
    }
    setOffset(0);
  };

  return (
    <li
      ref={ref}
      className={cx("toast", toast.variant === "destructive" && "toast--destructive")}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
    >
      <div className="toast__body">
        {toast.title && <p className="toast__title">{toast.title}</p>}
        {toast.description && <p className="toast__description">{toast.description}</p>}
      </div>
      {toast.action && (
        <button
          type="button"
          className="btn btn--outline btn--sm toast__action"
          onClick={() => {
            toast.action?.onClick();
            dismissToast(toast.id);
          }}
        >
          {toast.action.label}
        </button>
      )}
      <button
        type="button"
        className="icon-btn toast__close"
        aria-label="Dismiss notification"
        onClick={() => dismissToast(toast.id)}
      >
        <CloseIcon size={18} />
      </button>
    </li>
  );
}

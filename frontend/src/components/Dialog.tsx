import { useEffect, useId, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from "react";
import { cx } from "../lib/cx.ts";
import { CloseIcon } from "./icons.tsx";

interface DialogProps {
  open: boolean;
  /** Called for Escape, the close button and a tap on the backdrop. */
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons at the bottom (Cancel, Save...). */
  footer?: ReactNode;
  className?: string;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

// Built on the native modal <dialog>: the browser makes the rest of the page inert
// and puts it in the top layer; we add the Tab wrap-around and give focus back.
export function Dialog({ open, onClose, title, description, children, footer, className }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const baseId = useId();
  const titleId = `dlg-${baseId}-title`;
  const descId = `dlg-${baseId}-desc`;

  // In the same commit as the render: a dialog closed by the state but still open
  // until the next frame keeps the page inert, and a tap in that frame is lost.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      returnFocus.current = document.activeElement as HTMLElement | null;
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
      returnFocus.current?.focus();
      returnFocus.current = null;
    }
  }, [open]);

  useEffect(
    () => () => {
      // Unmounted while open: still hand focus back.
      if (ref.current?.open) returnFocus.current?.focus();
    },
    [],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== "Tab" || !ref.current) return;
    const items = Array.from(ref.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    if (items.length === 0) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={ref}
      className={cx("dialog", className)}
      aria-labelledby={titleId}
      aria-describedby={description ? descId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClose={() => {
        // Closed by the browser (e.g. a form with method="dialog"): tell the owner.
        if (open) onClose();
      }}
      onKeyDown={onKeyDown}
      onClick={(event) => {
        // A click on the <dialog> itself (not its content) is a click on the backdrop.
        if (event.target === ref.current) onClose();
      }}
    >
      <div className="dialog__panel">
        <div className="dialog__header">
          <h2 className="dialog__title" id={titleId}>
            {title}
          </h2>
          <button type="button" className="icon-btn dialog__close" aria-label="Close" onClick={onClose}>
            <CloseIcon size={20} />
          </button>
        </div>
        {description && (
          <p className="dialog__description" id={descId}>
            {description}
          </p>
        )}
        {open && children}
        {footer && <div className="dialog__footer">{footer}</div>}
      </div>
    </dialog>
  );
}

import { cx } from "../lib/cx.ts";

interface SpinnerProps {
  /** Accessible name; omit when the spinner sits inside a control that is already named. */
  label?: string;
  size?: "sm" | "md" | "lg";
  className?: string;
}

export function Spinner({ label, size = "md", className }: SpinnerProps) {
  const ring = <span className={cx("spinner", `spinner--${size}`, className)} aria-hidden="true" />;
  if (!label) return ring;
  return (
    <span role="status" aria-label={label} className="spinner-status">
      {ring}
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** Covers the screen while we do not yet know what to show (the session check, a page's code). */
export function FullScreenSpinner({ label = "Loading" }: { label?: string }) {
  return (
    <div className="fullscreen-spinner">
      <Spinner label={label} size="lg" />
    </div>
  );
}

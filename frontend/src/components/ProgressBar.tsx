import { cx } from "../lib/cx.ts";

interface ProgressBarProps {
  /** Accessible name; the same for the life of the bar. */
  label: string;
  /** 0–100; null while there is nothing to measure (the bar then pulses, full width). */
  value: number | null;
  /** What a screen reader says instead of the bare number, e.g. "Transcribing… 42%". */
  valueText?: string;
  className?: string;
}

export function ProgressBar({ label, value, valueText, className }: ProgressBarProps) {
  return (
    <div
      className={cx("progress", className)}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value ?? undefined}
      aria-valuetext={valueText}
    >
      <div
        className={value === null ? "progress__fill progress__fill--unknown" : "progress__fill"}
        style={{ transform: `scaleX(${(value ?? 100) / 100})` }}
      />
    </div>
  );
}

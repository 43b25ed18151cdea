import { useId, type InputHTMLAttributes, type ReactNode } from "react";
import { cx } from "../lib/cx.ts";
import type { WithClass } from "../lib/props.ts";

export type InputProps = Omit<WithClass<InputHTMLAttributes<HTMLInputElement>>, "id"> & {
  id?: string;
  label: ReactNode;
  /** Shown under the field and announced with it; marks the field invalid. */
  error?: string;
  hint?: ReactNode;
};

export function Input({ label, error, hint, id, className, ...rest }: InputProps) {
  const autoId = useId();
  const inputId = id ?? `in-${autoId}`;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cx("field", error && "field--invalid", className)}>
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      <input
        // Omit<> flattens preact's union of input types; the props are the same ones.
        {...(rest as InputHTMLAttributes<HTMLInputElement>)}
        id={inputId}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      {hint && (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

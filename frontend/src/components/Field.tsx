import { useId, type ReactNode } from "react";
import { cx } from "../lib/cx.ts";

/** What a field's control needs to be labelled and described. */
export interface ControlProps {
  id: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

export interface FieldProps {
  id?: string;
  label: ReactNode;
  /** Shown under the field and announced with it; marks the field invalid. */
  error?: string;
  hint?: ReactNode;
  className?: string;
  /** Renders the control (an input, a textarea) with the ids that tie it to its texts. */
  control: (props: ControlProps) => ReactNode;
}

/** A label, a control, a hint and an error message, tied together for assistive technology. */
export function Field({ id, label, error, hint, className, control }: FieldProps) {
  const autoId = useId();
  const controlId = id ?? `field-${autoId}`;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cx("field", error && "field--invalid", className)}>
      <label className="field__label" htmlFor={controlId}>
        {label}
      </label>
      {control({ id: controlId, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy })}
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

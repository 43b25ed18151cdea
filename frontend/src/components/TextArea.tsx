import { useId, type ReactNode, type TextareaHTMLAttributes } from "react";
import { cx } from "../lib/cx.ts";
import type { WithClass } from "../lib/props.ts";

export type TextAreaProps = Omit<WithClass<TextareaHTMLAttributes<HTMLTextAreaElement>>, "id" | "onInput"> & {
  id?: string;
  onInput?: (event: Event) => void;
  label: ReactNode;
  /** Shown under the field and announced with it; marks the field invalid. */
  error?: string;
  hint?: ReactNode;
};

/** A multi-line field, laid out and announced like `<Input>`. */
export function TextArea({ label, error, hint, id, className, onInput, ...rest }: TextAreaProps) {
  const autoId = useId();
  const areaId = id ?? `ta-${autoId}`;
  const hintId = hint ? `${areaId}-hint` : undefined;
  const errorId = error ? `${areaId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cx("field", error && "field--invalid", className)}>
      <label className="field__label" htmlFor={areaId}>
        {label}
      </label>
      <textarea
        {...(rest as TextareaHTMLAttributes<HTMLTextAreaElement>)}
        id={areaId}
        className="field__input field__input--area"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onInput={onInput}
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

import type { ReactNode, TextareaHTMLAttributes } from "react";
import type { WithClass } from "../lib/props.ts";
import { Field } from "./Field.tsx";

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
  return (
    <Field
      id={id}
      label={label}
      error={error}
      hint={hint}
      className={className}
      control={(control) => (
        <textarea
          {...(rest as TextareaHTMLAttributes<HTMLTextAreaElement>)}
          {...control}
          className="field__input field__input--area"
          onInput={onInput}
        />
      )}
    />
  );
}

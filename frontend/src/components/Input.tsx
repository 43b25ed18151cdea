import type { InputHTMLAttributes, ReactNode } from "react";
import type { WithClass } from "../lib/props.ts";
import { Field } from "./Field.tsx";

export type InputProps = Omit<WithClass<InputHTMLAttributes<HTMLInputElement>>, "id"> & {
  id?: string;
  label: ReactNode;
  /** Shown under the field and announced with it; marks the field invalid. */
  error?: string;
  hint?: ReactNode;
};

export function Input({ label, error, hint, id, className, ...rest }: InputProps) {
  return (
    <Field
      id={id}
      label={label}
      error={error}
      hint={hint}
      className={className}
      control={(control) => (
        // Omit<> flattens preact's union of input types; the props are the same ones.
        <input {...(rest as InputHTMLAttributes<HTMLInputElement>)} {...control} className="field__input" />
      )}
    />
  );
}

/** An email address field: the keyboard, autofill and no autocorrection set for one. */
export function EmailInput(props: Omit<InputProps, "type" | "inputMode" | "autoCapitalize" | "spellcheck">) {
  return <Input autoComplete="email" {...props} type="email" inputMode="email" autoCapitalize="none" spellcheck={false} />;
}

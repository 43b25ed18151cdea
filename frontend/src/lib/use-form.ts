import { useEffect, useRef, useState, type FormEvent } from "react";
import type { FieldError } from "./api.ts";
import type { FieldErrors } from "./validation.ts";

// Form state shared by the account screens. A field's message shows once the form
// was submitted or the field was edited and left; from then on it follows the value.
// Messages the server sent stay under their field until that field is edited.

export interface FieldProps {
  name: string;
  value: string;
  error: string | undefined;
  onInput: (event: Event) => void;
  onBlur: () => void;
}

export interface Form<F extends string> {
  values: Record<F, string>;
  /** Props for <Input>: name, value, error and the handlers. */
  field(name: F): FieldProps;
  /** Wraps the submit handler: validates first and only calls `submit` when valid. */
  onSubmit(submit: (values: Record<F, string>) => void | Promise<void>): (event: FormEvent<HTMLFormElement>) => void;
  /** Shows the server's field errors under their fields; returns those of other fields. */
  showServerErrors(errors: FieldError[]): FieldError[];
  setServerError(name: F, message: string): void;
  /** New values (e.g. saved ones); messages and the submitted state are cleared. */
  reset(values: Record<F, string>): void;
  setValue(name: F, value: string): void;
  ref: { current: HTMLFormElement | null };
}

export function useForm<F extends string>(
  initial: Record<F, string>,
  validate: (values: Record<F, string>) => FieldErrors<F>,
): Form<F> {
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<F, boolean>>>({});
  const [dirty, setDirty] = useState<Partial<Record<F, boolean>>>({});
  const [submits, setSubmits] = useState(0);
  const [serverErrors, setServerErrors] = useState<FieldErrors<F>>({});
  const [focusRequest, setFocusRequest] = useState(0);
  const ref = useRef<HTMLFormElement | null>(null);

  const clientErrors = validate(values);
  const shown = (name: F): string | undefined =>
    (submits > 0 || touched[name] ? clientErrors[name] : undefined) ?? serverErrors[name];

  // After a refused submit, move focus to the first field that has a message.
  useEffect(() => {
    if (focusRequest === 0) return;
    ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusRequest]);

  const setValue = (name: F, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setDirty((d) => (d[name] ? d : { ...d, [name]: true }));
    setServerErrors((e) => {
      if (e[name] === undefined) return e;
      const next = { ...e };
      delete next[name];
      return next;
    });
  };

  return {
    values,
    ref,
    setValue,
    field: (name) => ({
      name,
      value: values[name],
      error: shown(name),
      onInput: (event) => setValue(name, (event.currentTarget as HTMLInputElement).value),
      onBlur: () => {
        if (dirty[name] && !touched[name]) setTouched((t) => ({ ...t, [name]: true }));
      },
    }),
    onSubmit: (submit) => (event) => {
      event.preventDefault();
      setSubmits((n) => n + 1);
      const errors = validate(values);
      if (Object.keys(errors).length > 0) {
        setFocusRequest((n) => n + 1);
        return;
      }
      void submit(values);
    },
    showServerErrors: (errors) => {
      const mine: FieldErrors<F> = {};
      const others: FieldError[] = [];
      for (const e of errors) {
        if (e.field in values && (mine as Record<string, string>)[e.field] === undefined) {
          (mine as Record<string, string>)[e.field] = e.message;
        } else if (!(e.field in values)) others.push(e);
      }
      setServerErrors(mine);
      if (Object.keys(mine).length > 0) setFocusRequest((n) => n + 1);
      return others;
    },
    setServerError: (name, message) => {
      setServerErrors((e) => ({ ...e, [name]: message }));
      setFocusRequest((n) => n + 1);
    },
    reset: (next) => {
      setValues(next);
      setTouched({});
      setDirty({});
      setSubmits(0);
      setServerErrors({});
    },
  };
}

import { Input } from "../../components/Input.tsx";
import type { FieldProps } from "../../lib/use-form.ts";

type ContactField = "name" | "email" | "phone" | "company" | "position";

/** A client's contact details, as both the editor and the email preview correct them. */
export function ContactFields({ field }: { field: (name: ContactField) => FieldProps }) {
  return (
    <>
      <Input label="Name" autoComplete="off" {...field("name")} />
      <Input
        label="Email"
        type="email"
        inputMode="email"
        autoComplete="off"
        autoCapitalize="none"
        spellcheck={false}
        {...field("email")}
      />
      <Input label="Phone" type="tel" inputMode="tel" autoComplete="off" {...field("phone")} />
      <Input label="Company" autoComplete="off" hint="Optional" {...field("company")} />
      <Input label="Position" autoComplete="off" hint="Optional" {...field("position")} />
    </>
  );
}

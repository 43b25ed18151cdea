import { useState } from "react";
import { useLocation } from "wouter";
import { Button } from "../../components/Button.tsx";
import { Card, CardHeader } from "../../components/Card.tsx";
import { EmailInput, Input } from "../../components/Input.tsx";
import { api, ApiError } from "../../lib/api.ts";
import type { User } from "../../lib/types.ts";
import { useForm } from "../../lib/use-form.ts";
import { validateProfile } from "../../lib/validation.ts";
import { setUser } from "../../stores/session.ts";
import { toast } from "../../stores/toast.ts";
import { authRequired } from "./auth-required.ts";

const valuesOf = (user: User) => ({
  firstName: user.firstName,
  lastName: user.lastName,
  email: user.email,
  company: user.company,
  position: user.position,
  linkedinUrl: user.linkedinUrl ?? "",
});

/** The editable account details; the email is saved too (a change signs other browsers out). */
export function ProfileDetails({ user }: { user: User }) {
  const [, navigate] = useLocation();
  const form = useForm(valuesOf(user), validateProfile);
  const [busy, setBusy] = useState(false);

  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    try {
      const saved = await api.put<User>("/api/profile", {
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
        email: values.email.trim(),
        company: values.company.trim(),
        position: values.position.trim(),
        linkedinUrl: values.linkedinUrl.trim(),
      });
      setUser(saved);
      form.reset(valuesOf(saved));
      const asked = values.email.trim().toLowerCase();
      if (saved.pendingEmail && saved.pendingEmail === asked && saved.email !== asked) {
        toast({
          title: "Profile updated",
          description: `We sent a link to ${saved.pendingEmail}. Your email changes when you open it.`,
        });
      } else {
        toast({ title: "Profile updated" });
      }
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        authRequired(navigate);
        return;
      }
      let description = "Failed to update profile. Please try again.";
      if (err instanceof ApiError) {
        form.showServerErrors(err.fieldErrors);
        if (err.status === 409 && err.serverMessage) {
          description = err.serverMessage;
          form.setServerError("email", err.serverMessage);
        }
      }
      toast({ title: "Update failed", description, variant: "destructive" });
    } finally {
      setBusy(false);
    }
  });

  return (
    <Card>
      <CardHeader title="Your Details" id="profile-details" />
      <form ref={form.ref} className="form" noValidate aria-labelledby="profile-details" onSubmit={submit}>
        <div className="form__row">
          <Input label="First Name" autoComplete="given-name" {...form.field("firstName")} />
          <Input label="Last Name" autoComplete="family-name" {...form.field("lastName")} />
        </div>
        <EmailInput label="Email" {...form.field("email")} />
        <Input label="Company" autoComplete="organization" {...form.field("company")} />
        <Input label="Position" autoComplete="organization-title" {...form.field("position")} />
        <Input
          label="LinkedIn URL"
          type="url"
          inputMode="url"
          autoComplete="url"
          autoCapitalize="none"
          spellcheck={false}
          hint="Optional"
          placeholder="https://www.linkedin.com/in/…"
          {...form.field("linkedinUrl")}
        />
        <Button type="submit" block busy={busy}>
          Save Changes
        </Button>
      </form>
    </Card>
  );
}

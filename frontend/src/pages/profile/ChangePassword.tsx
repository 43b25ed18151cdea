import { useState } from "react";
import { useLocation } from "wouter";
import { Button } from "../../components/Button.tsx";
import { Card, CardHeader } from "../../components/Card.tsx";
import { Input } from "../../components/Input.tsx";
import { api, ApiError } from "../../lib/api.ts";
import { useForm } from "../../lib/use-form.ts";
import { validateNewPassword, type FieldErrors } from "../../lib/validation.ts";
import { toast } from "../../stores/toast.ts";
import { authRequired } from "./auth-required.ts";

type Field = "currentPassword" | "password" | "confirmPassword";

const EMPTY: Record<Field, string> = { currentPassword: "", password: "", confirmPassword: "" };

function validate(values: Record<Field, string>): FieldErrors<Field> {
  const errors: FieldErrors<Field> = {};
  if (values.currentPassword === "") errors.currentPassword = "Please enter your current password";
  return { ...errors, ...validateNewPassword(values) };
}

/** A new password for a signed-in user; the server signs the user's other browsers out. */
export function ChangePassword() {
  const [, navigate] = useLocation();
  const form = useForm(EMPTY, validate);
  const [busy, setBusy] = useState(false);

  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    try {
      const res = await api.put<{ message?: string } | null>("/api/profile/password", values);
      form.reset(EMPTY);
      toast({ title: "Password changed", description: res?.message === "Password changed" ? undefined : res?.message });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        authRequired(navigate);
        return;
      }
      if (err instanceof ApiError) form.showServerErrors(err.fieldErrors);
      const first = err instanceof ApiError ? (err.fieldErrors[0]?.message ?? err.serverMessage) : undefined;
      toast({
        title: "Password not changed",
        description: first ?? "Failed to change password. Please try again.",
        variant: "destructive",
      });
    } finally {
      setBusy(false);
    }
  });

  return (
    <Card>
      <CardHeader title="Change Password" id="change-password" />
      <form ref={form.ref} className="form" noValidate aria-labelledby="change-password" onSubmit={submit}>
        <Input label="Current Password" type="password" autoComplete="current-password" {...form.field("currentPassword")} />
        <Input
          label="New Password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters"
          {...form.field("password")}
        />
        <Input label="Confirm Password" type="password" autoComplete="new-password" {...form.field("confirmPassword")} />
        <Button type="submit" variant="secondary" block busy={busy}>
          Change Password
        </Button>
      </form>
    </Card>
  );
}

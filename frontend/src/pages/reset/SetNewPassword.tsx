import { useState } from "react";
import { Link, useLocation } from "wouter";
import { AuthBrand } from "../../components/AuthBrand.tsx";
import { Button } from "../../components/Button.tsx";
import { Card, CardHeader } from "../../components/Card.tsx";
import { AlertIcon } from "../../components/icons.tsx";
import { Input } from "../../components/Input.tsx";
import { Page } from "../../components/Page.tsx";
import { api, ApiError, errorMessage } from "../../lib/api.ts";
import { useForm } from "../../lib/use-form.ts";
import { validateNewPassword } from "../../lib/validation.ts";
import { clearSession } from "../../stores/session.ts";
import { toast } from "../../stores/toast.ts";

const FALLBACK = "The password could not be reset. Please try again.";

/** The page a reset link opens: sets the new password, which signs every browser out. */
export function SetNewPassword({ token }: { token: string }) {
  const [, navigate] = useLocation();
  const form = useForm({ password: "", confirmPassword: "" }, validateNewPassword);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = form.onSubmit(async ({ password, confirmPassword }) => {
    setBusy(true);
    setProblem(null);
    try {
      const res = await api.post<{ message?: string } | null>("/api/auth/reset-password/confirm", {
        token,
        password,
        confirmPassword,
      });
      // The server signed this user out everywhere, this browser included.
      clearSession();
      toast({ title: "Password reset", description: res?.message ?? "Your password has been reset. Please sign in." });
      navigate("/login", { replace: true });
    } catch (err) {
      setBusy(false);
      const fieldErrors = err instanceof ApiError ? err.fieldErrors : [];
      if (fieldErrors.length > 0) {
        form.showServerErrors(fieldErrors);
      } else {
        setProblem(errorMessage(err, FALLBACK));
      }
    }
  });

  return (
    <Page title="Set a New Password" ownHeading className="auth-page">
      <AuthBrand />
      <Card>
        <CardHeader level={1} title="Set a New Password" description="Choose a new password for your account." />
        {problem && (
          <div className="notice notice--error" role="alert">
            <AlertIcon size={20} className="notice__icon" />
            <div className="notice__body">
              <p>{problem}</p>
              <p>
                <Link href="/reset-password">Request a new reset link</Link>
              </p>
            </div>
          </div>
        )}
        <form ref={form.ref} className="form" noValidate onSubmit={submit}>
          <Input
            label="New Password"
            type="password"
            autoComplete="new-password"
            hint="At least 8 characters"
            {...form.field("password")}
          />
          <Input label="Confirm Password" type="password" autoComplete="new-password" {...form.field("confirmPassword")} />
          <Button type="submit" block busy={busy}>
            Reset Password
          </Button>
        </form>
        <p className="auth-links">
          <Link href="/login">Back to Login</Link>
        </p>
      </Card>
    </Page>
  );
}

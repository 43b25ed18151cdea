import { useState } from "react";
import { Link, useLocation } from "wouter";
import { AuthBrand } from "../../components/AuthBrand.tsx";
import { Button } from "../../components/Button.tsx";
import { Card, CardHeader } from "../../components/Card.tsx";
import { EmailInput } from "../../components/Input.tsx";
import { Page } from "../../components/Page.tsx";
import { api, ApiError } from "../../lib/api.ts";
import { useForm } from "../../lib/use-form.ts";
import { validateResetRequest } from "../../lib/validation.ts";
import { toast } from "../../stores/toast.ts";

/** Asks for a reset link. The server answers the same whether or not the email has an account. */
export function RequestReset() {
  const [, navigate] = useLocation();
  const form = useForm({ email: "" }, validateResetRequest);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = form.onSubmit(async ({ email }) => {
    setBusy(true);
    try {
      await api.post("/api/auth/reset-password", { email: email.trim() });
      setSentTo(email.trim());
      toast({
        title: "Password reset requested",
        description: "If an account with this email exists, you'll receive reset instructions.",
      });
    } catch (err) {
      if (err instanceof ApiError) form.showServerErrors(err.fieldErrors);
      toast({
        title: "Email not found",
        description: "We couldn't find an account with that email address.",
        variant: "destructive",
      });
    } finally {
      setBusy(false);
    }
  });

  if (sentTo !== null) {
    return (
      <Page title="Check Your Email" ownHeading className="auth-page">
        <AuthBrand />
        <Card>
          <CardHeader level={1} title="Check Your Email" />
          <p>
            If an account exists for <strong className="break-all">{sentTo}</strong>, we've sent a link to
            reset its password.
          </p>
          <p className="muted">Can't find the email? Check your spam folder.</p>
          <Button block onClick={() => navigate("/login")}>
            Back to Login
          </Button>
        </Card>
      </Page>
    );
  }

  return (
    <Page title="Reset Password" ownHeading className="auth-page">
      <AuthBrand />
      <Card>
        <CardHeader
          level={1}
          title="Reset Password"
          description="Enter the email of your account and we'll send you a link to reset your password."
        />
        <form ref={form.ref} className="form" noValidate onSubmit={submit}>
          <EmailInput label="Email" {...form.field("email")} />
          <Button type="submit" block busy={busy}>
            Send Reset Link
          </Button>
        </form>
        <p className="auth-links">
          <Link href="/login">Back to Login</Link>
        </p>
      </Card>
    </Page>
  );
}

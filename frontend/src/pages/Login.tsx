import { useState } from "react";
import { Link } from "wouter";
import { Button } from "../components/Button.tsx";
import { Card, CardHeader } from "../components/Card.tsx";
import { EmailInput, Input } from "../components/Input.tsx";
import { Page } from "../components/Page.tsx";
import { AuthBrand } from "../components/AuthBrand.tsx";
import { api, ApiError, errorMessage } from "../lib/api.ts";
import type { User } from "../lib/types.ts";
import { useForm } from "../lib/use-form.ts";
import { validateLogin } from "../lib/validation.ts";
import { setUser } from "../stores/session.ts";
import { toast, toastAfterReload } from "../stores/toast.ts";

export default function Login() {
  const form = useForm({ email: "", password: "" }, validateLogin);
  const [busy, setBusy] = useState(false);

  const submit = form.onSubmit(async ({ email, password }) => {
    setBusy(true);
    try {
      const user = await api.post<User>("/api/auth/login", { email: email.trim(), password });
      setUser(user);
      // A full reload, so that nothing of a previous visitor survives in
      // memory; the toast is shown by the page it brings.
      toastAfterReload({ title: "Login successful" });
      location.assign("/");
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError) form.showServerErrors(err.fieldErrors);
      toast({
        title: "Login failed",
        description: errorMessage(err, "Invalid email or password"),
        variant: "destructive",
      });
    }
  });

  return (
    <Page title="Welcome back" ownHeading className="auth-page">
      <AuthBrand />
      <Card>
        <CardHeader level={1} title="Welcome back" description="Sign in to your account" />
        <form ref={form.ref} className="form" noValidate onSubmit={submit}>
          <EmailInput label="Email" {...form.field("email")} />
          <Input label="Password" type="password" autoComplete="current-password" {...form.field("password")} />
          <Button type="submit" block busy={busy}>
            Sign In
          </Button>
        </form>
        <nav className="auth-links" aria-label="Account">
          <Link href="/signup">Create account</Link>
          <Link href="/reset-password">Forgot your password?</Link>
        </nav>
      </Card>
      <p className="auth-aside">
        <Link href="/install">Install on this phone</Link>
      </p>
    </Page>
  );
}

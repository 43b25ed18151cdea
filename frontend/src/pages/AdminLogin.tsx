import { useState } from "react";
import { Link, useLocation } from "wouter";
import { AuthBrand } from "../components/AuthBrand.tsx";
import { Button } from "../components/Button.tsx";
import { Card, CardHeader } from "../components/Card.tsx";
import { Input } from "../components/Input.tsx";
import { Page } from "../components/Page.tsx";
import { api, ApiError } from "../lib/api.ts";
import { useForm } from "../lib/use-form.ts";
import { setAdminFlag } from "../stores/admin.ts";
import { toast } from "../stores/toast.ts";
import { describeAdminLoginFailure } from "./admin/login-failure.ts";
import { validateAdminLogin } from "./admin/validation.ts";

export default function AdminLogin() {
  const [, navigate] = useLocation();
  const form = useForm({ username: "", password: "" }, validateAdminLogin);
  const [busy, setBusy] = useState(false);

  const submit = form.onSubmit(async ({ username, password }) => {
    setBusy(true);
    try {
      // The server sets its admin cookie (HttpOnly); the flag only tells this browser's
      // screens that an admin signed in.
      await api.post<{ username: string }>("/api/admin/login", { username: username.trim(), password });
      setAdminFlag(true);
      navigate("/admin/dashboard");
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError) form.showServerErrors(err.fieldErrors);
      toast({ ...describeAdminLoginFailure(err), variant: "destructive" });
    }
  });

  return (
    <Page title="Admin Login" ownHeading className="auth-page">
      <AuthBrand />
      <Card>
        <CardHeader level={1} title="Admin Login" description="Manage users, clients and the email template" />
        <form ref={form.ref} className="form" noValidate onSubmit={submit}>
          <Input
            label="Username"
            autoComplete="username"
            autoCapitalize="none"
            spellcheck={false}
            {...form.field("username")}
          />
          <Input label="Password" type="password" autoComplete="current-password" {...form.field("password")} />
          <Button type="submit" block busy={busy}>
            Sign In
          </Button>
        </form>
        <div className="notice admin-login__note">
          <p>
            There are no default credentials. An administrator is created on the server with{" "}
            <code>debrief admin create --username NAME</code>
          </p>
        </div>
        <p className="auth-links">
          <Link href="/login">Return to regular login</Link>
        </p>
      </Card>
    </Page>
  );
}

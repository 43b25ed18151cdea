import { useEffect, useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { AuthBrand } from "../components/AuthBrand.tsx";
import { Button } from "../components/Button.tsx";
import { Card, CardHeader } from "../components/Card.tsx";
import { EmailInput, Input } from "../components/Input.tsx";
import { Page } from "../components/Page.tsx";
import { api, ApiError, errorMessage } from "../lib/api.ts";
import type { User } from "../lib/types.ts";
import { useForm } from "../lib/use-form.ts";
import { validateSignup } from "../lib/validation.ts";
import { toast } from "../stores/toast.ts";

const EMPTY = {
  firstName: "",
  lastName: "",
  email: "",
  password: "",
  confirmPassword: "",
  company: "",
  position: "",
  linkedinUrl: "",
};

/** Who may sign up, as the admin set it. */
interface SignupPolicy {
  mode: "open" | "invitation" | "closed";
  domains: string[];
}

const CLOSED = "Sign-up is closed on this server. Ask your administrator for an account.";
const INVITATION_ONLY = "Sign-up on this server is by invitation. Ask your administrator for an invitation link.";

export default function Signup() {
  const [, navigate] = useLocation();
  const invitation = new URLSearchParams(useSearch()).get("invitation") ?? "";
  const form = useForm(EMPTY, validateSignup);
  const [busy, setBusy] = useState(false);
  const [policy, setPolicy] = useState<SignupPolicy | null>(null);

  // Unknown until the server answers: the form shows meanwhile, and the server
  // refuses a sign-up its policy does not allow whatever the screen showed.
  useEffect(() => {
    api.get<SignupPolicy>("/api/auth/signup-policy").then(setPolicy, () => setPolicy(null));
  }, []);
  const refusal =
    policy?.mode === "closed" ? CLOSED : policy?.mode === "invitation" && !invitation ? INVITATION_ONLY : null;
  const domains = !invitation && policy?.domains.length ? policy.domains.join(" or ") : null;

  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    try {
      const user = await api.post<User>("/api/auth/signup", {
        ...values,
        email: values.email.trim(),
        linkedinUrl: values.linkedinUrl.trim(),
        ...(invitation ? { invitation } : {}),
      });
      toast({
        title: "Account created successfully",
        description: `Welcome to Debrief, ${user.firstName}! You can now sign in with your new account.`,
      });
      navigate("/login");
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError) {
        form.showServerErrors(err.fieldErrors);
        if (err.status === 409 && err.serverMessage) form.setServerError("email", err.serverMessage);
      }
      toast({
        title: "Signup failed",
        description: errorMessage(err, "Unable to create account"),
        variant: "destructive",
      });
    }
  });

  return (
    <Page title="Create Account" ownHeading className="auth-page">
      <AuthBrand />
      <Card>
        <CardHeader level={1} title="Create Account" description="Enter your details to get started" />
        {refusal ? (
          <p className="auth-notice" role="status">
            {refusal}
          </p>
        ) : (
        <form ref={form.ref} className="form" noValidate onSubmit={submit}>
          <div className="form__row">
            <Input label="First Name" autoComplete="given-name" {...form.field("firstName")} />
            <Input label="Last Name" autoComplete="family-name" {...form.field("lastName")} />
          </div>
          <EmailInput
            label="Email"
            hint={domains ? `Your address at ${domains}` : undefined}
            {...form.field("email")}
          />
          <Input
            label="Password"
            type="password"
            autoComplete="new-password"
            hint="At least 8 characters"
            {...form.field("password")}
          />
          <Input label="Confirm Password" type="password" autoComplete="new-password" {...form.field("confirmPassword")} />
          <Input label="Company" autoComplete="organization" {...form.field("company")} />
          <Input label="Position" autoComplete="organization-title" {...form.field("position")} />
          <Input
            label="LinkedIn URL (optional)"
            type="url"
            inputMode="url"
            autoComplete="url"
            autoCapitalize="none"
            spellcheck={false}
            placeholder="https://www.linkedin.com/in/…"
            {...form.field("linkedinUrl")}
          />
          <Button type="submit" block busy={busy}>
            Create Account
          </Button>
        </form>
        )}
        <p className="auth-links">
          <span>Already have an account?</span> <Link href="/login">Sign in</Link>
        </p>
      </Card>
    </Page>
  );
}

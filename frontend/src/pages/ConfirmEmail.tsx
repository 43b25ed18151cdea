import { useStore } from "@nanostores/react";
import { useEffect, useState } from "react";
import { Link, useSearch } from "wouter";
import { AuthBrand } from "../components/AuthBrand.tsx";
import { Card, CardHeader } from "../components/Card.tsx";
import { Page } from "../components/Page.tsx";
import { Spinner } from "../components/Spinner.tsx";
import { api, errorMessage } from "../lib/api.ts";
import { $session, checkSession } from "../stores/session.ts";

type Outcome = { state: "working" } | { state: "done"; message: string } | { state: "failed"; message: string };

const FALLBACK = "This confirmation link is invalid, used or has expired. Sign in to ask for a new one.";

/** The page a confirmation link (/confirm-email?token=…) opens: it confirms the address at once. */
export default function ConfirmEmail() {
  const token = new URLSearchParams(useSearch()).get("token") ?? "";
  const { status } = useStore($session);
  const [outcome, setOutcome] = useState<Outcome>({ state: "working" });

  useEffect(() => {
    let live = true;
    api
      .post<{ message: string }>("/api/auth/confirm-email", { token })
      .then((res) => {
        if (!live) return;
        setOutcome({ state: "done", message: res.message });
        // The banner and the profile read the account again.
        void checkSession(true);
      })
      .catch((err) => live && setOutcome({ state: "failed", message: errorMessage(err, FALLBACK) }));
    return () => {
      live = false;
    };
  }, [token]);

  const onward = status === "authenticated" ? { href: "/", label: "Go to Debrief" } : { href: "/login", label: "Sign in" };
  return (
    <Page title="Confirm Your Email" ownHeading className="auth-page">
      <AuthBrand />
      <Card>
        <CardHeader level={1} title="Confirm Your Email" />
        {outcome.state === "working" ? (
          <Spinner label="Confirming…" />
        ) : (
          <div className={outcome.state === "done" ? "notice" : "notice notice--error"} role="alert">
            <div className="notice__body">
              <p>{outcome.message}</p>
              <p>
                <Link href={onward.href}>{onward.label}</Link>
              </p>
            </div>
          </div>
        )}
      </Card>
    </Page>
  );
}

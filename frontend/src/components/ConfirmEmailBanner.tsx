import { useStore } from "@nanostores/react";
import { useState } from "react";
import { api, errorMessage } from "../lib/api.ts";
import { $session } from "../stores/session.ts";
import { toast } from "../stores/toast.ts";
import { Button } from "./Button.tsx";

/**
 * Where the sign-up policy asks for it, an account's address is confirmed by a link
 * mailed to it; until then its follow-ups are not sent. Says so above every signed-in
 * page, with a way to have the link sent again.
 */
export function ConfirmEmailBanner() {
  const { user } = useStore($session);
  const [busy, setBusy] = useState(false);
  const waiting = user ? (user.emailConfirmed === false ? user.email : null) : null;
  if (!waiting) return null;

  const resend = async () => {
    setBusy(true);
    try {
      const res = await api.post<{ message: string }>("/api/profile/confirm-email");
      toast({ title: "Link sent", description: res.message });
    } catch (err) {
      toast({ title: "Not sent", description: errorMessage(err, "Please try again."), variant: "destructive" });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="status-bar status-bar--update" role="status">
      <span>Confirm your email: open the link we sent to {waiting}. Until then, follow-ups cannot be sent.</span>
      <Button size="sm" variant="outline" busy={busy} onClick={resend}>
        Send again
      </Button>
    </div>
  );
}

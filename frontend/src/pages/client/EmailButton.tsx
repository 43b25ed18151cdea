import { MailIcon } from "../../components/action-icons.tsx";
import { Button } from "../../components/Button.tsx";
import type { Client } from "../../lib/types.ts";

export type EmailStatus = "idle" | "sending" | "sent";

const LABELS: Record<EmailStatus, string> = { idle: "Email Client", sending: "Sending...", sent: "Email Sent" };
export const EMAIL_MISSING = "Cannot send email: Client email or summary is missing";

/** Email Client: idle → sending → sent (then stays disabled); unusable without an email and a summary. */
export function EmailButton({
  client,
  status = "idle",
  onSend,
}: {
  client: Pick<Client, "email" | "summary">;
  status?: EmailStatus;
  onSend?: () => void;
}) {
  const missing = !client.email?.trim() || !client.summary?.trim();
  return (
    <div className="email-action">
      <Button
        block
        disabled={missing || status === "sent"}
        busy={status === "sending"}
        aria-describedby={missing ? "email-missing" : undefined}
        onClick={onSend}
      >
        <MailIcon size={20} />
        {LABELS[status]}
      </Button>
      {missing && (
        <p className="muted email-action__why" id="email-missing">
          {EMAIL_MISSING}
        </p>
      )}
    </div>
  );
}

import { useEffect, useId, useRef, useState } from "react";
import { MailIcon } from "../../components/action-icons.tsx";
import { Button } from "../../components/Button.tsx";
import { api } from "../../lib/api.ts";
import { toast } from "../../stores/toast.ts";
import { clientPath, rememberClient } from "./client-cache.ts";
import {
  canEmail,
  EMAIL_LABELS,
  EMAIL_MISSING,
  failedOutcome,
  lastEmailedText,
  sendPath,
  sentOutcome,
  type EmailClient,
  type EmailStatus,
  type SendOutcome,
  type SendResult,
} from "./email-flow.ts";
import { EmailDialog } from "./EmailDialog.tsx";
import { FollowedUp } from "./FollowedUp.tsx";

/** Re-renders every minute while there is a relative time on screen. */
function useMinuteTick(active: boolean): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setTick((n) => n + 1), 60_000);
    return () => clearInterval(timer);
  }, [active]);
}

/**
 * Email Client: opens the preview, where the email is checked, corrected and sent.
 * idle → sending → sent (then stays disabled on this visit); unusable without an
 * email and a summary. After a reload the button is ready again and says when the
 * client was last emailed. `openNow` opens the preview as the page opens (a link from
 * the tracker); `onOpened` is told once it was asked for.
 */
export function EmailButton({
  client,
  openNow = false,
  onOpened,
}: {
  client: EmailClient;
  openNow?: boolean;
  onOpened?: () => void;
}) {
  const [status, setStatus] = useState<EmailStatus>("idle");
  const [open, setOpen] = useState(false);
  // A fresh preview and form each time the dialog opens.
  const [visit, setVisit] = useState(0);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const sentRef = useRef<HTMLParagraphElement>(null);
  const whyId = useId();
  const missing = !canEmail(client);
  const emailedAt = status === "sent" ? null : client.emailedAt ?? null;
  useMinuteTick(!!emailedAt || !!client.followedUpAt);

  useEffect(() => {
    if (!openNow) return;
    if (!missing) {
      setVisit((n) => n + 1);
      setOpen(true);
    }
    onOpened?.();
  }, [openNow]);

  // The dialog hands focus back to the button, which is disabled once sent: the
  // line saying where the email went takes it instead.
  useEffect(() => {
    if (status === "sent" && !open) sentRef.current?.focus();
  }, [status, open]);

  const send = async () => {
    setStatus("sending");
    let outcome: SendOutcome;
    try {
      const result = await api.post<SendResult>(sendPath(client.id), { userId: client.userId });
      outcome = sentOutcome(result, client.email);
    } catch (err) {
      outcome = failedOutcome(err);
    }
    setStatus(outcome.status);
    setSentTo(outcome.delivered ? outcome.toast.description ?? null : null);
    setOpen(false);
    toast(outcome.toast);
    if (outcome.delivered) {
      // The server noted when it went out: read it back for "Last emailed".
      api.get<EmailClient>(clientPath(client.id)).then(rememberClient, () => {});
    }
  };

  return (
    <div className="email-action">
      <Button
        block
        disabled={missing || status === "sent"}
        busy={status === "sending"}
        aria-haspopup="dialog"
        aria-describedby={missing ? whyId : undefined}
        onClick={() => {
          setVisit((n) => n + 1);
          setOpen(true);
        }}
      >
        <MailIcon size={20} />
        {EMAIL_LABELS[status]}
      </Button>
      {missing && (
        <p className="muted email-action__why" id={whyId}>
          {EMAIL_MISSING}
        </p>
      )}
      {status === "sent" && sentTo && (
        <p className="muted email-action__when" tabIndex={-1} ref={sentRef}>
          {sentTo}
        </p>
      )}
      {emailedAt && (
        <p className="muted email-action__when">
          <time dateTime={emailedAt} title={new Date(emailedAt).toLocaleString()}>
            {lastEmailedText(emailedAt)}
          </time>
        </p>
      )}
      <FollowedUp client={client} sent={status === "sent"} />
      <EmailDialog
        key={visit}
        open={open}
        client={client}
        sending={status === "sending"}
        onClose={() => setOpen(false)}
        onSend={send}
        onSaved={rememberClient}
      />
    </div>
  );
}

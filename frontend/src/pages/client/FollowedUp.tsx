import { useEffect, useId, useRef, useState } from "react";
import { Button } from "../../components/Button.tsx";
import { trimText } from "../../lib/validation.ts";
import { followedUpText, type EmailClient } from "./email-flow.ts";
import { markFollowedUp } from "./follow-up.ts";

/**
 * Under Email Client: a follow-up that went another way is marked here, so the tracker
 * stops listing the client as waiting; once marked, the line says when. Offered only
 * while a summary waits for its follow-up.
 */
export function FollowedUp({ client, sent }: { client: EmailClient; sent: boolean }) {
  const [busy, setBusy] = useState(false);
  const [marked, setMarked] = useState(false);
  const line = useRef<HTMLParagraphElement>(null);
  const askId = useId();

  // The button is gone once marked: the line that replaces it takes the focus.
  useEffect(() => {
    if (marked && client.followedUpAt) line.current?.focus();
  }, [marked, client.followedUpAt]);

  if (client.followedUpAt) {
    return (
      <p className="muted email-action__when" tabIndex={-1} ref={line}>
        <time dateTime={client.followedUpAt} title={new Date(client.followedUpAt).toLocaleString()}>
          {followedUpText(client.followedUpAt)}
        </time>
      </p>
    );
  }
  if (sent || client.emailedAt || trimText(client.summary) === "") return null;
  return (
    <div className="email-action__other">
      <span className="muted" id={askId}>
        Followed up another way?
      </span>
      <Button
        variant="ghost"
        size="sm"
        busy={busy}
        aria-describedby={askId}
        onClick={async () => {
          setBusy(true);
          const done = await markFollowedUp(client);
          setBusy(false);
          setMarked(done !== null);
        }}
      >
        Mark as followed up
      </Button>
    </div>
  );
}

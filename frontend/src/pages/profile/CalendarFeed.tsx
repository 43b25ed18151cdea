import { useEffect, useId, useRef, useState } from "react";
import { useLocation } from "wouter";
import { Button, type ButtonProps } from "../../components/Button.tsx";
import { Card, CardHeader } from "../../components/Card.tsx";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { Input } from "../../components/Input.tsx";
import { Spinner } from "../../components/Spinner.tsx";
import { api, ApiError, errorMessage } from "../../lib/api.ts";
import { longDate } from "../../lib/format.ts";
import { toast } from "../../stores/toast.ts";
import { authRequired } from "./auth-required.ts";

export const FEED_PATH = "/api/profile/calendar-feed";

/** `GET /api/profile/calendar-feed`: whether a link works, and since when. */
interface Feed {
  active: boolean;
  createdAt: string | null;
}

/** A new link: its path (with the token) is in this answer and nowhere else. */
interface NewFeed extends Feed {
  path: string;
}

/** The feed's address for a calendar app: https://… to copy, webcal://… to subscribe with a tap. */
export function feedLinks(origin: string, path: string): { url: string; webcal: string } {
  const url = new URL(path, origin).href;
  return { url, webcal: url.replace(/^https?:/, "webcal:") };
}

type AskFirstProps = Omit<ButtonProps, "children" | "onClick"> & {
  /** The button's text, and the dialog's answer that goes ahead. */
  label: string;
  question: string;
  warning: string;
  /** The change is under way: the dialog's answer shows it. */
  working: boolean;
  onConfirm: () => Promise<void>;
};

/**
 * A button for a change that breaks the calendars subscribed to the link, so it asks
 * first. The dialog stays up until the change is done, whatever the answer.
 */
function AskFirst({ label, question, warning, working, onConfirm, ...button }: AskFirstProps) {
  const [asking, setAsking] = useState(false);
  const confirm = async () => {
    await onConfirm();
    setAsking(false);
  };
  return (
    <>
      <Button {...button} onClick={() => setAsking(true)}>
        {label}
      </Button>
      <ConfirmDialog
        open={asking}
        title={question}
        description={warning}
        confirmLabel={label}
        busy={working}
        onConfirm={confirm}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}

/**
 * Profile → Calendar feed: a private link that calendar apps subscribe to, carrying the
 * dated next steps. The link is shown once, when made; a new one replaces it, Revoke
 * turns it off.
 */
export function CalendarFeed() {
  const [, navigate] = useLocation();
  const ids = useId();
  const root = useRef<HTMLDivElement>(null);
  const [feed, setFeed] = useState<Feed | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [link, setLink] = useState<{ url: string; webcal: string } | null>(null);
  const [busy, setBusy] = useState(false);
  // What takes the focus once drawn: the new link, or the button that makes one.
  const [focus, setFocus] = useState<"link" | "create" | null>(null);

  const refused = (err: unknown, title: string) => {
    if (err instanceof ApiError && err.status === 401) return authRequired(navigate);
    toast({ title, description: errorMessage(err, "The server did not answer. Try again."), variant: "destructive" });
  };

  useEffect(() => {
    let live = true;
    setFailed(false);
    api.get<Feed>(FEED_PATH).then(
      (answer) => live && setFeed(answer),
      (err: unknown) => {
        if (!live) return;
        if (err instanceof ApiError && err.status === 401) authRequired(navigate);
        else setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [attempt]);

  useEffect(() => {
    if (!focus) return;
    const target = focus === "link" ? "input" : ".calendar-feed__create";
    root.current?.querySelector<HTMLElement>(target)?.focus();
    setFocus(null);
  }, [focus]);

  const create = async () => {
    setBusy(true);
    try {
      const made = await api.post<NewFeed>(FEED_PATH);
      setFeed({ active: made.active, createdAt: made.createdAt });
      setLink(feedLinks(location.origin, made.path));
      setFocus("link");
    } catch (err) {
      refused(err, "No feed link made");
    } finally {
      setBusy(false);
    }
  };

  const revoke = async () => {
    setBusy(true);
    try {
      setFeed(await api.delete<Feed>(FEED_PATH));
      setLink(null);
      setFocus("create");
      toast({ title: "Calendar feed turned off", description: "The link no longer works." });
    } catch (err) {
      refused(err, "Calendar feed not turned off");
    } finally {
      setBusy(false);
    }
  };

  const copy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link.url);
      toast({ title: "Link copied" });
    } catch {
      // No clipboard (an insecure page, a refusal): the link is selected to copy by hand.
      root.current?.querySelector<HTMLInputElement>("input")?.select();
      toast({ title: "Copy the selected link", description: "This browser did not let the app copy it." });
    }
  };

  // Offered with the link just made and with one made before.
  const revokeButton = (
    <AskFirst
      variant="outline"
      className="btn--danger-outline"
      disabled={busy}
      label="Revoke"
      question="Revoke the feed link?"
      warning="Calendars subscribed to it stop getting your next steps. This cannot be undone."
      working={busy}
      onConfirm={revoke}
    />
  );

  let body;
  if (failed) {
    body = (
      <div className="notice notice--error">
        <p>Could not load the calendar feed.</p>
        <Button size="sm" variant="outline" onClick={() => setAttempt((n) => n + 1)}>
          Try again
        </Button>
      </div>
    );
  } else if (!feed) {
    body = <Spinner label="Loading the calendar feed" />;
  } else if (link) {
    body = (
      <>
        <Input
          label="Your feed link"
          readOnly
          value={link.url}
          hint="Shown only this once: copy it now. Anyone with the link can read your dated next steps."
          onFocus={(event) => event.currentTarget.select()}
        />
        <div className="btn-row">
          <Button variant="secondary" onClick={copy}>
            Copy link
          </Button>
          <a className="btn btn--primary btn--md" href={link.webcal}>
            Subscribe
          </a>
        </div>
        {revokeButton}
      </>
    );
  } else if (feed.active) {
    body = (
      <>
        <p>
          A feed link has been active since{" "}
          {feed.createdAt ? <time dateTime={feed.createdAt}>{longDate(feed.createdAt)}</time> : "before"}. It is not
          shown again: make a new link if you need it.
        </p>
        <div className="btn-row">
          <AskFirst
            variant="secondary"
            busy={busy}
            label="Make a new link"
            question="Make a new link?"
            warning="The current link stops working: calendars subscribed to it need the new one."
            working={busy}
            onConfirm={create}
          />
          {revokeButton}
        </div>
      </>
    );
  } else {
    body = (
      <Button block className="calendar-feed__create" busy={busy} onClick={create}>
        Create a feed link
      </Button>
    );
  }

  return (
    <Card>
      <div className="calendar-feed" ref={root}>
        <CardHeader
          id={`${ids}-title`}
          title="Calendar feed"
          description="Subscribe to your dated next steps from your calendar app."
        />
        {body}
      </div>
    </Card>
  );
}

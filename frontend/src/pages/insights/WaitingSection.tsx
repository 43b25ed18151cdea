import { useEffect, useId, useRef, useState } from "react";
import { Link } from "wouter";
import { Button } from "../../components/Button.tsx";
import { UserIcon } from "../../components/icons.tsx";
import { relativeTime } from "../../lib/format.ts";
import { setQueryData, type QueryState } from "../../stores/query.ts";
import { markFollowedUp } from "../client/follow-up.ts";
import type { Insights, WaitingClient } from "./figures.ts";
import { ReadStatus } from "./ReadStatus.tsx";

function WaitingRow({ client, now, onMark }: { client: WaitingClient; now: number; onMark: () => void }) {
  return (
    <li className="waiting__row" data-client={client.id}>
      {client.photoUrl ? (
        <img className="client-row__photo" src={client.photoUrl} alt="" width={48} height={48} loading="lazy" decoding="async" />
      ) : (
        <span className="client-row__photo client-row__photo--none" aria-hidden="true">
          <UserIcon size={22} />
        </span>
      )}
      <div className="waiting__text">
        <p className="waiting__name">{client.name}</p>
        {client.company && <p className="waiting__company">{client.company}</p>}
        <p className="waiting__when">
          Met <time dateTime={client.meetingAt}>{relativeTime(client.meetingAt, now)}</time>
        </p>
      </div>
      <div className="btn-row waiting__actions">
        <Link href={`/client/${client.id}?email=1`} className="btn btn--primary btn--sm">
          Review email<span className="sr-only"> to {client.name}</span>
        </Link>
        <Button variant="outline" size="sm" className="waiting__mark" onClick={onMark}>
          Mark as followed up<span className="sr-only">: {client.name}</span>
        </Button>
      </div>
    </li>
  );
}

/**
 * Clients with a summary whose follow-up has not gone out, oldest meeting first: each
 * opens on its email preview, or is marked followed up when it went another way.
 */
export function WaitingSection({ state, path }: { state: QueryState<Insights>; path: string }) {
  const ids = useId();
  const list = useRef<HTMLElement>(null);
  // The row marked is gone: the next one's button takes the focus, or the heading.
  const [focusAfter, setFocusAfter] = useState<number | "heading" | null>(null);
  const now = Date.now();

  useEffect(() => {
    if (focusAfter === null) return;
    const target =
      focusAfter === "heading"
        ? list.current?.querySelector<HTMLElement>("h2")
        : list.current?.querySelector<HTMLElement>(`[data-client="${focusAfter}"] .waiting__mark`);
    target?.focus();
    setFocusAfter(null);
  }, [focusAfter]);

  const mark = (client: WaitingClient, waiting: WaitingClient[]) => {
    const at = waiting.findIndex((c) => c.id === client.id);
    const next = waiting[at + 1] ?? waiting[at - 1];
    // Off the list at once; the tracker is read again once the server has answered.
    setQueryData<Insights | undefined>(path, (data) => data && { ...data, waiting: data.waiting.filter((c) => c.id !== client.id) });
    setFocusAfter(next ? next.id : "heading");
    void markFollowedUp(client);
  };

  return (
    <section className="insights-section" aria-labelledby={`${ids}-title`} ref={list}>
      <h2 className="insights-section__title" id={`${ids}-title`} tabIndex={-1}>
        Waiting for a follow-up
      </h2>
      <ReadStatus state={state} path={path} what="the clients waiting">
        {({ waiting }) =>
          waiting.length === 0 ? (
            <p className="insights-empty">No client is waiting: every summary has had its follow-up.</p>
          ) : (
            <ul className="waiting" aria-labelledby={`${ids}-title`}>
              {waiting.map((client) => (
                <WaitingRow key={client.id} client={client} now={now} onMark={() => mark(client, waiting)} />
              ))}
            </ul>
          )
        }
      </ReadStatus>
    </section>
  );
}

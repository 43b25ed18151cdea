import { useStore } from "@nanostores/react";
import { memo, useEffect, useMemo, useState } from "react";
import { Link } from "wouter";
import { SearchIcon } from "../components/action-icons.tsx";
import { Button } from "../components/Button.tsx";
import { UserIcon } from "../components/icons.tsx";
import { Page } from "../components/Page.tsx";
import { Spinner } from "../components/Spinner.tsx";
import { cx } from "../lib/cx.ts";
import { countOf, relativeTime } from "../lib/format.ts";
import { rowSummary } from "../lib/job.ts";
import type { ClientRow } from "../lib/types.ts";
import { invalidate, query } from "../stores/query.ts";
import { LIST_PATH } from "./client/client-cache.ts";
import { toast } from "../stores/toast.ts";
import { ClientsHeader } from "./clients/ClientsHeader.tsx";

const LOAD_FAILED = "Failed to fetch clients";
// More rows than a phone shows at once: they render with the page, the rest after the
// first frame, so a slow phone runs two short tasks rather than one that blocks input.
const FIRST_ROWS = 12;

/** What a search looks through: name, email and company, in lower case. */
function haystack(client: ClientRow): string {
  return `${client.name}\n${client.email}\n${client.company ?? ""}`.toLowerCase();
}

// A row is a link with a few lines of text and at most a small lazy image, kept cheap
// for a list of a thousand; rows off screen are not laid out (content-visibility).
const Row = memo(function Row({ client, now }: { client: ClientRow; now: number }) {
  const summary = rowSummary(client);
  return (
    <li className="client-row">
      <Link href={`/client/${client.id}`} className="client-row__link">
        {client.photoUrl ? (
          <img
            className="client-row__photo"
            src={client.photoUrl}
            alt=""
            loading="lazy"
            decoding="async"
            width={48}
            height={48}
          />
        ) : (
          <span className="client-row__photo client-row__photo--none" aria-hidden="true">
            <UserIcon size={22} />
          </span>
        )}
        <span className="client-row__text">
          <span className="client-row__top">
            <span className="client-row__name">{client.name}</span>
            <time className="client-row__time" dateTime={client.createdAt}>
              {relativeTime(client.createdAt, now)}
            </time>
          </span>
          {client.company && <span className="client-row__company">{client.company}</span>}
          <span className={cx("client-row__summary", summary.tone !== "summary" && `client-row__summary--${summary.tone}`)}>
            {summary.text}
          </span>
        </span>
      </Link>
    </li>
  );
});

/** How many of `total` rows to render: a first screenful, then all of them after a frame. */
function useRowsShown(total: number): number {
  const [all, setAll] = useState(false);
  useEffect(() => {
    if (all || total <= FIRST_ROWS) return;
    let timer = 0;
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => setAll(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [all, total]);
  return all ? total : Math.min(total, FIRST_ROWS);
}

export default function History() {
  const { data, error, loading } = useStore(query<ClientRow[]>(LIST_PATH));
  const [search, setSearch] = useState("");

  useEffect(() => {
    if (error) toast({ title: "Error", description: LOAD_FAILED, variant: "destructive" });
  }, [error]);

  const indexed = useMemo(() => (data ?? []).map((client) => ({ client, text: haystack(client) })), [data]);
  const needle = search.trim().toLowerCase();
  const shown = useMemo(
    () => (needle ? indexed.filter((entry) => entry.text.includes(needle)) : indexed),
    [indexed, needle],
  );
  // One "now" per list, so the rows agree and re-render only when the list changes.
  const now = useMemo(() => Date.now(), [data]);
  const rendered = useRowsShown(shown.length);

  return (
    <Page title="History" ownHeading className="history">
      <ClientsHeader />
      <h1 className="sr-only">History</h1>
      <div className="search">
        <SearchIcon size={20} className="search__icon" />
        <input
          type="search"
          className="search__input"
          placeholder="Search clients..."
          aria-label="Search clients"
          autoComplete="off"
          enterKeyHint="search"
          value={search}
          onInput={(event) => setSearch(event.currentTarget.value)}
        />
      </div>
      {data === undefined && loading && (
        <div className="history__loading">
          <Spinner label="Loading clients" />
        </div>
      )}
      {error && (
        <div className="notice notice--error history__error">
          <p>{LOAD_FAILED}</p>
          <Button size="sm" variant="outline" onClick={() => invalidate(LIST_PATH)}>
            Try again
          </Button>
        </div>
      )}
      {data !== undefined && (
        <>
          <p className="sr-only" role="status">
            {needle ? `${shown.length} of ${countOf(indexed.length, "client")}` : countOf(indexed.length, "client")}
          </p>
          {shown.length === 0 ? (
            <p className="history__empty">No clients found</p>
          ) : (
            <ul className="client-list" aria-label="Clients">
              {shown.slice(0, rendered).map(({ client }) => (
                <Row key={client.id} client={client} now={now} />
              ))}
            </ul>
          )}
        </>
      )}
    </Page>
  );
}

import { useStore } from "@nanostores/react";
import { useEffect, useRef } from "react";
import { Button } from "../../components/Button.tsx";
import { Card } from "../../components/Card.tsx";
import { RECORDING_SAFE_OFFLINE } from "../../components/OfflineBanner.tsx";
import { formatClock } from "../../lib/format.ts";
import { $waiting, syncNow } from "../../offline/sync.ts";
import { $reachable, probe } from "../../stores/connection.ts";

/** Clients saved on this phone while the server was out of reach, until it has them. */
export function QueuedSaves() {
  const { saves, sending, lastKept } = useStore($waiting);
  const reachable = useStore($reachable);
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // A save just kept: show where it waits (the form below is empty again), once.
    if (!lastKept) return;
    title.current?.focus();
    $waiting.set({ ...$waiting.get(), lastKept: null });
  }, [lastKept]);
  if (saves.length === 0) return null;
  const withRecording = saves.some((save) => save.recordingId);
  const state = sending
    ? "Sending to the server…"
    : !reachable && withRecording
      ? RECORDING_SAFE_OFFLINE
      : "They are sent as soon as the server can be reached.";

  const tryNow = async () => {
    if (reachable || (await probe())) await syncNow();
  };

  return (
    <Card className="queued">
      <h2 className="card__title" id="queued-title" ref={title} tabIndex={-1}>
        Waiting for the server
      </h2>
      <ul className="queued__list" aria-labelledby="queued-title">
        {saves.map((save) => (
          <li key={save.id}>
            <strong>{save.values.name.trim()}</strong>
            <span className="muted">
              {save.clientId ? " — the photo" : save.durationMs > 0 ? ` — recording ${formatClock(save.durationMs)}` : ""}
            </span>
            {save.problem && <p className="queued__problem">{save.problem}</p>}
          </li>
        ))}
      </ul>
      <p className="queued__state" role="status">
        {state}
      </p>
      <Button size="sm" variant="outline" busy={sending} onClick={() => void tryNow()}>
        Try now
      </Button>
    </Card>
  );
}

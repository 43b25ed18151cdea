import { useStore } from "@nanostores/react";
import { useEffect, useRef, useState } from "react";
import { MicIcon, PauseIcon, PlayIcon, RedoIcon, StopIcon } from "../components/action-icons.tsx";
import { AlertIcon } from "../components/icons.tsx";
import { Button } from "../components/Button.tsx";
import { Card, CardHeader } from "../components/Card.tsx";
import { ConfirmDialog } from "../components/ConfirmDialog.tsx";
import { formatClock, relativeTime, spokenDuration } from "../lib/format.ts";
import type { StoredRecording } from "../lib/recordings-db.ts";
import { samplesToMs } from "../lib/wav.ts";
import { toast } from "../stores/toast.ts";
import { Playback } from "./Playback.tsx";
import {
  $recorder,
  discard,
  discardLeftBehind,
  findLeftBehind,
  onLevel,
  pause,
  recover,
  resume,
  start,
  stop,
} from "./recorder.ts";

/** The input level as a bar; drawn straight into the element, 20 times a second. */
function LevelMeter() {
  const fill = useRef<HTMLDivElement>(null);
  useEffect(
    () =>
      onLevel((peak) => {
        // -60 dBFS and below shows empty, 0 dBFS full.
        const db = peak > 0 ? 20 * Math.log10(peak) : -100;
        const share = Math.min(1, Math.max(0, (db + 60) / 60));
        if (fill.current) fill.current.style.transform = `scaleX(${share})`;
      }),
    [],
  );
  return (
    <div className="level-meter" aria-hidden="true">
      <div ref={fill} className="level-meter__fill" />
    </div>
  );
}

function Notice({ children, tone = "info" }: { children: string; tone?: "info" | "error" }) {
  return (
    <div className={tone === "error" ? "notice notice--error" : "notice"} role={tone === "error" ? "alert" : "status"}>
      {tone === "error" && <AlertIcon size={20} className="notice__icon" />}
      <p>{children}</p>
    </div>
  );
}

/** A recording that a reload or a crash left on the phone, offered back. */
function LeftBehind({ userId }: { userId: string }) {
  const [offers, setOffers] = useState<StoredRecording[]>([]);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const status = useStore($recorder).status;

  useEffect(() => {
    let live = true;
    if (status === "idle") void findLeftBehind(userId).then((found) => live && setOffers(found));
    return () => {
      live = false;
    };
  }, [userId, status]);

  const offer = offers[0];
  if (!offer || status !== "idle") return null;
  const length = formatClock(samplesToMs(offer.samples));

  const take = async () => {
    setBusy(true);
    try {
      await recover(offer);
      setOffers([]);
    } catch {
      toast({ title: "Error", description: "The recording could not be read back.", variant: "destructive" });
    } finally {
      setBusy(false);
    }
  };
  const drop = async () => {
    setBusy(true);
    try {
      await discardLeftBehind(offer);
      setOffers((list) => list.filter((r) => r.id !== offer.id));
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };

  return (
    <section className="recovery" aria-labelledby="recovery-title">
      <h3 id="recovery-title">Unfinished recording found</h3>
      <p>
        A recording of {length} from {relativeTime(offer.startedAt)} was not saved with a client. It is still on this
        phone.
      </p>
      <div className="recovery__actions">
        <Button size="sm" busy={busy && !asking} onClick={take}>
          Recover recording
        </Button>
        <Button size="sm" variant="outline" disabled={busy} onClick={() => setAsking(true)}>
          Discard
        </Button>
      </div>
      <ConfirmDialog
        open={asking}
        title="Discard this recording?"
        description="It was never uploaded. Once discarded it cannot be recovered."
        confirmLabel="Discard Recording"
        busy={busy}
        onConfirm={drop}
        onCancel={() => setAsking(false)}
      />
    </section>
  );
}

/** Start, pause, resume and stop; then the recording with play and Record Again. */
export function RecorderCard({ userId }: { userId: string }) {
  const state = useStore($recorder);
  const [asking, setAsking] = useState(false);
  const [discarding, setDiscarding] = useState(false);
  const { status } = state;
  const active = status === "recording" || status === "paused" || status === "stopping";

  const recordAgain = async () => {
    setDiscarding(true);
    try {
      await discard();
    } finally {
      setDiscarding(false);
      setAsking(false);
    }
  };

  return (
    <Card className="recorder">
      <CardHeader title="Conversation Recorder" id="recorder-title" />
      <LeftBehind userId={userId} />

      {(status === "idle" || status === "starting") && (
        <div className="recorder__idle">
          <p className="muted">Record the meeting: it is kept on this phone as you go, then uploaded with the client.</p>
          <Button block busy={status === "starting"} onClick={() => void start(userId)}>
            <MicIcon size={20} />
            Start Recording
          </Button>
        </div>
      )}

      {active && (
        <div className="recorder__live">
          <div className="recorder__status">
            <span className={status === "recording" ? "rec-dot rec-dot--on" : "rec-dot"} aria-hidden="true" />
            <span>{status === "recording" ? "Recording" : status === "paused" ? "Paused" : "Finishing…"}</span>
          </div>
          <p className="recorder__time" role="timer" aria-label={`Recorded ${spokenDuration(state.elapsedMs)}`}>
            {formatClock(state.elapsedMs)}
          </p>
          {status === "recording" && <LevelMeter />}
          {state.pauseReason && <Notice>{state.pauseReason}</Notice>}
          <div className="btn-row">
            {status === "paused" ? (
              <Button variant="outline" onClick={() => void resume()}>
                <PlayIcon size={20} />
                Resume
              </Button>
            ) : (
              <Button variant="outline" disabled={status !== "recording"} onClick={() => void pause()}>
                <PauseIcon size={20} />
                Pause
              </Button>
            )}
            <Button variant="destructive" busy={status === "stopping"} onClick={() => void stop()}>
              <StopIcon size={20} />
              STOP RECORDING
            </Button>
          </div>
        </div>
      )}

      {status === "complete" && state.wav && (
        <div className="recorder__done">
          <p className="recorder__complete">
            <span>Recording Complete</span>
            <span className="recorder__duration">{formatClock(state.durationMs)}</span>
          </p>
          <Playback wav={state.wav} durationMs={state.durationMs} />
          <Button variant="outline" block onClick={() => setAsking(true)}>
            <RedoIcon size={20} />
            Record Again
          </Button>
        </div>
      )}

      {state.error && <Notice tone="error">{state.error}</Notice>}
      {state.warning && <Notice>{state.warning}</Notice>}

      <ConfirmDialog
        open={asking}
        title="Discard this recording?"
        description="It has not been uploaded yet. Once discarded it cannot be recovered."
        confirmLabel="Discard and Record Again"
        busy={discarding}
        onConfirm={recordAgain}
        onCancel={() => setAsking(false)}
      />
    </Card>
  );
}

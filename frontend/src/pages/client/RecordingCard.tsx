import { useCallback, useEffect, useState } from "react";

import { Card, CardHeader } from "../../components/Card.tsx";
import { formatClock, longDate } from "../../lib/format.ts";
import { browserCanPlay, fallBackWithoutLength, playbackUrl } from "../../lib/playback.ts";
import type { Client } from "../../lib/types.ts";
import { PendingUpload } from "./PendingUpload.tsx";

interface RecordingCardProps {
  client: Client;
  userId: string;
  /** The player, once there is one: the transcript's paragraphs play from it. */
  onAudio: (audio: HTMLAudioElement | null) => void;
  onUploaded: () => void;
}

/**
 * The meeting's recording: a copy still waiting on this phone, the player, or what
 * became of the audio once the retention policy removed it.
 */
export function RecordingCard({ client, userId, onAudio, onUploaded }: RecordingCardProps) {
  const { recording, recordingUrl } = client;
  const removedAt = recording?.removedAt ?? null;
  const source = recordingUrl ? playbackUrl(recordingUrl, recording?.contentType, browserCanPlay) : null;
  const [audio, setAudio] = useState<HTMLAudioElement | null>(null);
  const ogg = !!recordingUrl && source === recordingUrl && recording?.contentType === "audio/ogg";
  useEffect(() => {
    if (!audio || !ogg || !recordingUrl) return;
    return fallBackWithoutLength(audio, `${recordingUrl}&as=wav`);
  }, [audio, ogg, recordingUrl]);
  // One function for good: a new ref each render would detach and attach the player.
  const player = useCallback(
    (element: HTMLAudioElement | null) => {
      setAudio(element);
      onAudio(element);
    },
    [onAudio],
  );
  return (
    <Card>
      <CardHeader title="Recording" />
      <PendingUpload clientId={String(client.id)} userId={userId} server={recording} onUploaded={onUploaded} />
      {removedAt ? (
        <p className="muted">
          The audio was removed by the retention policy on{" "}
          <time dateTime={removedAt} title={new Date(removedAt).toLocaleString()}>
            {longDate(removedAt)}
          </time>
          . The transcript, summary and next steps are kept.
        </p>
      ) : source ? (
        <audio
          ref={player}
          className="client-detail__audio"
          controls
          preload="metadata"
          src={source}
          aria-label={`Recording of the meeting with ${client.name}`}
        />
      ) : (
        <p className="muted">No recording available</p>
      )}
      {recording && <p className="muted">Length {formatClock(recording.durationMs)}</p>}
    </Card>
  );
}

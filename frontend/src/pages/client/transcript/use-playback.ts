import { useEffect, useState } from "react";

export interface Playback {
  /** Where the recording is, in ms, once it has been played or moved; null before. */
  positionMs: number | null;
  /** Moves the recording to `ms` and plays from there. */
  seek: (ms: number) => void;
}

/** The client page's recording, followed as it plays: what the transcript highlights. */
export function usePlayback(audio: HTMLAudioElement | null): Playback {
  const [positionMs, setPositionMs] = useState<number | null>(null);

  useEffect(() => {
    if (!audio) return;
    const look = () => {
      // Untouched, the recording is nowhere yet: nothing is "being heard".
      const started = !audio.paused || audio.currentTime > 0;
      setPositionMs(started ? Math.round(audio.currentTime * 1000) : null);
    };
    const events = ["timeupdate", "seeked", "play", "pause", "emptied"] as const;
    for (const name of events) audio.addEventListener(name, look);
    look();
    return () => {
      for (const name of events) audio.removeEventListener(name, look);
    };
  }, [audio]);

  const seek = (ms: number) => {
    if (!audio) return;
    audio.currentTime = ms / 1000;
    setPositionMs(ms);
    // Refused without a gesture the browser counts, or while the file is unreachable:
    // the recording is still at the right place for its own play button.
    audio.play().catch(() => {});
  };

  return { positionMs, seek };
}

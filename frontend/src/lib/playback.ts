// Where the client page's player reads a recording from. Once it is transcribed the
// server keeps a recording as Ogg Opus, which some browsers (older Safari) cannot
// play; for those the server decodes it to WAV on request.

import type { RecordingInfo } from "./types.ts";

/** What the browser is asked about a recording kept as Ogg Opus. */
export const OGG_OPUS = "audio/ogg; codecs=opus";

/**
 * The player's source: `recordingUrl` as stored, or, for Ogg Opus the browser says it
 * cannot play (neither "probably" nor "maybe"), the server's WAV of it.
 */
export function playbackUrl(
  recordingUrl: string,
  contentType: RecordingInfo["contentType"] | undefined,
  canPlayType: (type: string) => string,
): string {
  if (contentType !== "audio/ogg") return recordingUrl;
  const answer = canPlayType(OGG_OPUS);
  return answer === "probably" || answer === "maybe" ? recordingUrl : `${recordingUrl}&as=wav`;
}

/** How long a player may take to learn an Ogg file's length before it gets the WAV. */
export const LENGTH_WAIT_MS = 3000;

/** What of an audio element the length watch needs. */
type Player = Pick<HTMLAudioElement, "duration" | "src" | "addEventListener" | "removeEventListener">;

/**
 * Gives `audio` the server's WAV (`wavUrl`) when it loads an Ogg Opus recording but
 * learns no length for it within `wait` ms: without one it cannot seek, as WebKitGTK
 * under load showed. Returns what stops the watch.
 */
export function fallBackWithoutLength(audio: Player, wavUrl: string, wait = LENGTH_WAIT_MS): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const known = () => Number.isFinite(audio.duration) && audio.duration > 0;
  const check = () => {
    if (known()) {
      clearTimeout(timer);
      return;
    }
    timer ??= setTimeout(() => {
      if (!known()) audio.src = wavUrl;
    }, wait);
  };
  audio.addEventListener("loadedmetadata", check);
  audio.addEventListener("durationchange", check);
  return () => {
    clearTimeout(timer);
    audio.removeEventListener("loadedmetadata", check);
    audio.removeEventListener("durationchange", check);
  };
}

/** This browser's answer, from an audio element made to ask. */
export const browserCanPlay = (type: string): string => document.createElement("audio").canPlayType(type);

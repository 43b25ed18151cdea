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

/** This browser's answer, from an audio element made to ask. */
export const browserCanPlay = (type: string): string => document.createElement("audio").canPlayType(type);

// The transcript's address and its writes, each followed by the client page's copy of
// `transcription`, so the page shows the words the server now has.

import { api } from "../../../lib/api.ts";
import type { Transcript } from "../../../lib/transcript-segments.ts";
import { setQueryData } from "../../../stores/query.ts";
import { clientPath, rememberTranscription } from "../client-cache.ts";

export const transcriptPath = (clientId: number) => `${clientPath(clientId)}/transcript`;

export type ExportFormat = "txt" | "srt" | "vtt";
export const EXPORT_FORMATS: readonly ExportFormat[] = ["txt", "srt", "vtt"];
export const exportPath = (clientId: number, format: ExportFormat) =>
  `${transcriptPath(clientId)}/export?format=${format}`;

function remember(clientId: number, transcript: Transcript): Transcript {
  setQueryData<Transcript>(transcriptPath(clientId), () => transcript);
  rememberTranscription(clientId, transcript.text);
  return transcript;
}

/** Sends the owner's words, one text per segment, in the segments' order. */
export async function saveCorrections(clientId: number, texts: readonly string[]): Promise<Transcript> {
  const body = { segments: texts.map((text) => ({ text })) };
  return remember(clientId, await api.put<Transcript>(transcriptPath(clientId), body));
}

/** Back to the recogniser's words. */
export async function undoCorrections(clientId: number): Promise<Transcript> {
  return remember(clientId, await api.delete<Transcript>(`${transcriptPath(clientId)}/corrections`));
}

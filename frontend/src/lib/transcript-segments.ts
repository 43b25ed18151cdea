// The timed transcript as the client page shows it: segments gathered into short
// paragraphs with their start times, the paragraph being heard, and search matches.

export interface Segment {
  startMs: number;
  endMs: number;
  text: string;
}

/** `GET /api/clients/{id}/transcript`, and the answer to a correction or its undoing. */
export interface Transcript {
  text: string;
  segments: Segment[];
  corrected: boolean;
}

export interface Paragraph {
  startMs: number;
  endMs: number;
  /** The segments' texts, trimmed and joined by a space, empty ones left out. */
  text: string;
}

/** A silence this long between two segments starts a new paragraph. */
export const PARAGRAPH_PAUSE_MS = 2000;
/** Without a pause, a paragraph still ends after this many segments: a phone screen's worth. */
export const PARAGRAPH_SEGMENTS = 5;
/**
 * …or once it lasts this long. The recogniser hears 30 s at a time and often writes the
 * whole window as one segment, ending where the next begins: without this, a meeting
 * would read as one paragraph with one time to play from.
 */
export const PARAGRAPH_MAX_MS = 20_000;

/** Consecutive segments as paragraphs: a new one after a pause, a screenful of segments, or 20 s. */
export function groupParagraphs(segments: readonly Segment[]): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  let current: Segment[] = [];
  const close = () => {
    if (current.length === 0) return;
    const text = current
      .map((s) => s.text.trim())
      .filter(Boolean)
      .join(" ");
    paragraphs.push({ startMs: current[0]!.startMs, endMs: current.at(-1)!.endMs, text });
    current = [];
  };
  for (const segment of segments) {
    const previous = current.at(-1);
    const full =
      previous &&
      (segment.startMs - previous.endMs >= PARAGRAPH_PAUSE_MS ||
        current.length >= PARAGRAPH_SEGMENTS ||
        previous.endMs - current[0]!.startMs >= PARAGRAPH_MAX_MS);
    if (full) close();
    current.push(segment);
  }
  close();
  // A paragraph of segments emptied by a correction says nothing; its time alone is noise.
  return paragraphs.filter((p) => p.text !== "");
}

/** A time in the recording as a player shows it: "0:42", "12:05", "1:02:03". */
export function formatTimestamp(ms: number): string {
  const total = Math.max(0, Math.floor((Number.isFinite(ms) ? ms : 0) / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

/**
 * The paragraph being heard at `ms`: the last one started by then, so a pause belongs to
 * the paragraph before it. -1 before the first one starts.
 */
export function paragraphAt(paragraphs: readonly { startMs: number }[], ms: number): number {
  let found = -1;
  for (let i = 0; i < paragraphs.length; i++) {
    if (paragraphs[i]!.startMs <= ms) found = i;
    else break;
  }
  return found;
}

export interface TextPart {
  text: string;
  match: boolean;
}

/**
 * `text` cut at each occurrence of `query`, ignoring case; the query is taken literally.
 * An empty query matches nothing. The parts joined give back `text` unchanged.
 */
export function splitMatches(text: string, query: string): TextPart[] {
  const needle = query.trim();
  if (needle === "") return text === "" ? [] : [{ text, match: false }];
  const pattern = new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "giu");
  const parts: TextPart[] = [];
  let at = 0;
  for (const found of text.matchAll(pattern)) {
    const start = found.index ?? 0;
    if (start > at) parts.push({ text: text.slice(at, start), match: false });
    parts.push({ text: found[0], match: true });
    at = start + found[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), match: false });
  return parts;
}

/** How many times `query` occurs in all of `texts`, as splitMatches finds it. */
export function countMatches(texts: readonly string[], query: string): number {
  let count = 0;
  for (const text of texts) count += splitMatches(text, query).filter((part) => part.match).length;
  return count;
}

/** The search's result in words: "1 match", "3 matches", "No matches". */
export function matchesText(count: number): string {
  if (count === 0) return "No matches";
  return count === 1 ? "1 match" : `${count} matches`;
}

import { splitMatches } from "../../../lib/transcript-segments.ts";

/** `text` with each match of `query` in a <mark>, built as nodes: the words stay text. */
export function Highlighted({ text, query }: { text: string; query: string }) {
  return (
    <>
      {splitMatches(text, query).map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : part.text))}
    </>
  );
}

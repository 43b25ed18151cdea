import { formatTimestamp, type Paragraph } from "../../../lib/transcript-segments.ts";
import { Highlighted } from "./Highlighted.tsx";

interface TranscriptParagraphsProps {
  paragraphs: readonly Paragraph[];
  query: string;
  /** The paragraph being heard, -1 for none. */
  current: number;
  /** Plays the recording from a time; absent when there is no recording to play. */
  onSeek?: (ms: number) => void;
}

/** Words being selected to copy are not a tap meant to play. */
const selecting = () => !(window.getSelection()?.isCollapsed ?? true);

/**
 * The transcript in paragraphs, each with its start time; a tap anywhere on a paragraph
 * plays the recording from there. The time is the paragraph's button, for the keyboard
 * and screen readers: a whole paragraph as a button's label would be read as one word.
 */
export function TranscriptParagraphs({ paragraphs, query, current, onSeek }: TranscriptParagraphsProps) {
  return (
    <div className="transcript__text">
      {paragraphs.map((paragraph, i) => {
        const time = formatTimestamp(paragraph.startMs);
        const words = (
          <p className="transcript__words">
            <Highlighted text={paragraph.text} query={query} />
          </p>
        );
        if (!onSeek) {
          return (
            <div key={i} className="transcript__para">
              <span className="transcript__time">{time}</span>
              {words}
            </div>
          );
        }
        return (
          // The button's own clicks (Enter, Space, a tap) reach this handler too.
          <div
            key={i}
            className="transcript__para transcript__para--play"
            aria-current={i === current ? "true" : undefined}
            onClick={() => {
              if (!selecting()) onSeek(paragraph.startMs);
            }}
          >
            <button type="button" className="transcript__time">
              <span className="sr-only">Play from </span>
              {time}
            </button>
            {words}
          </div>
        );
      })}
    </div>
  );
}

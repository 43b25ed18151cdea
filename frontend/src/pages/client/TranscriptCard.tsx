import { Card, CardHeader } from "../../components/Card.tsx";
import { transcriptParagraphs, wordCount } from "../../lib/transcript.ts";

/** The whole transcript, folded away at first: it is long, and the summary comes first. */
export function TranscriptCard({ text }: { text: string }) {
  const words = wordCount(text);
  return (
    <Card>
      <CardHeader title="Transcript" />
      <details className="transcript">
        <summary className="transcript__toggle">
          Read the transcript ({words} {words === 1 ? "word" : "words"})
        </summary>
        <div className="transcript__text">
          {transcriptParagraphs(text).map((paragraph, i) => (
            <p key={i}>{paragraph}</p>
          ))}
        </div>
      </details>
    </Card>
  );
}

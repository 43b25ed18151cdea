import { useState, type FormEvent } from "react";
import { Button } from "../../../components/Button.tsx";
import { TextArea } from "../../../components/TextArea.tsx";
import { ApiError, errorMessage } from "../../../lib/api.ts";
import { formatTimestamp, type Transcript } from "../../../lib/transcript-segments.ts";
import { invalidate } from "../../../stores/query.ts";
import { toast } from "../../../stores/toast.ts";
import { saveCorrections, transcriptPath } from "./transcript-api.ts";

/** The server's own limit on one segment's text. */
const SEGMENT_MAX = 5000;

interface TranscriptEditorProps {
  clientId: number;
  transcript: Transcript;
  /** Saved (true), or left without saving (false). */
  onDone: (saved: boolean) => void;
}

/** Each segment's words in a field of its own; the times are the recording's, not the owner's. */
export function TranscriptEditor({ clientId, transcript, onDone }: TranscriptEditorProps) {
  const [texts, setTexts] = useState(() => transcript.segments.map((segment) => segment.text));
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem("");
    try {
      await saveCorrections(clientId, texts);
      onDone(true);
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 409) {
        // Written again meanwhile (a job, another tab): these fields no longer fit it.
        toast({ title: "Error", description: errorMessage(err, "The transcript changed meanwhile"), variant: "destructive" });
        invalidate(transcriptPath(clientId));
        onDone(false);
        return;
      }
      const field = err instanceof ApiError ? err.fieldErrors[0]?.message : undefined;
      setProblem(field ?? errorMessage(err, "Failed to save the transcript"));
    }
  };

  return (
    <form className="transcript-edit" onSubmit={save} aria-label="Correct the transcript" noValidate>
      <ol className="transcript-edit__list">
        {transcript.segments.map((segment, i) => (
          <li key={i}>
            <TextArea
              label={`${formatTimestamp(segment.startMs)} – ${formatTimestamp(segment.endMs)}`}
              rows={2}
              maxLength={SEGMENT_MAX}
              value={texts[i] ?? ""}
              autoFocus={i === 0}
              onInput={(event) => {
                const value = (event.currentTarget as HTMLTextAreaElement).value;
                setTexts((old) => old.map((text, j) => (j === i ? value : text)));
              }}
            />
          </li>
        ))}
      </ol>
      {problem && (
        <p className="transcript-edit__problem" role="alert">
          {problem}
        </p>
      )}
      <div className="btn-row transcript-edit__actions">
        <Button type="submit" busy={busy}>
          Save
        </Button>
        <Button variant="outline" disabled={busy} onClick={() => onDone(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

import { useStore } from "@nanostores/react";
import { atom } from "nanostores";
import { useEffect, useRef, useState } from "react";
import { PencilIcon, SearchIcon, TrashIcon } from "../../components/action-icons.tsx";
import { Button } from "../../components/Button.tsx";
import { Card, CardHeader } from "../../components/Card.tsx";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { Spinner } from "../../components/Spinner.tsx";
import { errorMessage } from "../../lib/api.ts";
import { transcriptParagraphs, wordCount } from "../../lib/transcript.ts";
import {
  countMatches,
  groupParagraphs,
  matchesText,
  paragraphAt,
  type Paragraph,
  type Transcript,
} from "../../lib/transcript-segments.ts";
import { invalidate, query, type QueryState } from "../../stores/query.ts";
import { toast } from "../../stores/toast.ts";
import { RegenerateSummary } from "./RegenerateSummary.tsx";
import { TranscriptEditor } from "./transcript/TranscriptEditor.tsx";
import { TranscriptExport } from "./transcript/TranscriptExport.tsx";
import { TranscriptParagraphs } from "./transcript/TranscriptParagraphs.tsx";
import { transcriptPath, undoCorrections } from "./transcript/transcript-api.ts";
import { usePlayback } from "./transcript/use-playback.ts";

/** Read before the card is first opened: the timed transcript is not fetched until then. */
const UNREAD = atom<QueryState<Transcript>>({ loading: false, data: undefined, error: undefined });

interface TranscriptCardProps {
  clientId: number;
  /** The client's `transcription`: the job's words, or the owner's once corrected. */
  text: string;
  /** The page's recording, which a tap on a paragraph plays from its start. */
  audio: HTMLAudioElement | null;
  /** Whether Regenerate summary may be offered now (no job running, none failed). */
  canRegenerate: boolean;
  onRegenerateStarted: () => void;
}

/**
 * The transcript, folded away at first: it is long, and the summary comes first. Opened,
 * it reads in timed paragraphs that play the recording, can be searched, corrected (and
 * the correction undone) and downloaded.
 */
export function TranscriptCard({ clientId, text, audio, canRegenerate, onRegenerateStarted }: TranscriptCardProps) {
  const path = transcriptPath(clientId);
  const [open, setOpen] = useState(false);
  const [read, setRead] = useState(false);
  const [search, setSearch] = useState("");
  const [editing, setEditing] = useState(false);
  const [changed, setChanged] = useState<"" | "saved" | "undone">("");
  const [undoing, setUndoing] = useState<"" | "asking" | "busy">("");
  const editButton = useRef<HTMLButtonElement>(null);
  const changedNote = useRef<HTMLParagraphElement>(null);
  const { data, error } = useStore(read ? query<Transcript>(path) : UNREAD);
  const { positionMs, seek } = usePlayback(audio);
  const words = wordCount(text);

  // A job wrote the transcript again (a retry, a new recording): read it again.
  useEffect(() => {
    if (data && data.text !== text) invalidate(path);
  }, [text]);

  useEffect(() => {
    if (changed) changedNote.current?.focus();
  }, [changed]);

  const show = (now: boolean) => {
    setOpen(now);
    if (now) setRead(true);
  };

  const paragraphs: Paragraph[] = data
    ? groupParagraphs(data.segments)
    : // Without the timed segments (a failed read), the words as the client has them.
      transcriptParagraphs(text).map((words) => ({ startMs: -1, endMs: -1, text: words }));
  const searching = search.trim() !== "";
  const found = searching && (data || error) ? matchesText(countMatches(paragraphs.map((p) => p.text), search)) : "";

  const undo = async () => {
    setUndoing("busy");
    try {
      await undoCorrections(clientId);
      setUndoing("");
      setChanged("undone");
    } catch (err) {
      setUndoing("");
      toast({ title: "Error", description: errorMessage(err, "Failed to undo the corrections"), variant: "destructive" });
    }
  };

  const finishEditing = (saved: boolean) => {
    setEditing(false);
    if (saved) setChanged("saved");
    else requestAnimationFrame(() => editButton.current?.focus());
  };

  return (
    <Card className="transcript-card">
      <CardHeader title="Transcript" />
      {!editing && (
        <div className="search transcript__search">
          <SearchIcon size={20} className="search__icon" />
          <input
            type="search"
            className="search__input"
            placeholder="Search the transcript..."
            aria-label="Search the transcript"
            autoComplete="off"
            enterKeyHint="search"
            value={search}
            onInput={(event) => {
              const value = event.currentTarget.value;
              setSearch(value);
              if (value.trim() !== "") show(true);
            }}
          />
        </div>
      )}
      <p className="transcript__count" aria-live="polite">
        {editing ? "" : found}
      </p>
      <details className="transcript" open={open} onToggle={(event) => show(event.currentTarget.open)}>
        <summary className="transcript__toggle">
          Read the transcript ({words} {words === 1 ? "word" : "words"})
        </summary>
        {read && !data && !error && (
          <div className="transcript__loading">
            <Spinner label="Loading the transcript" />
          </div>
        )}
        {error && (
          <div className="notice transcript__unavailable">
            <p>{errorMessage(error, "The times of the transcript could not be loaded")}</p>
            <Button size="sm" variant="outline" onClick={() => invalidate(path)}>
              Try again
            </Button>
          </div>
        )}
        {data && editing && <TranscriptEditor clientId={clientId} transcript={data} onDone={finishEditing} />}
        {(data || error) && !editing && (
          <>
            {changed && (
              <div className="transcript__changed">
                <p ref={changedNote} tabIndex={-1}>
                  {changed === "saved" ? "Corrections saved." : "Corrections undone."} The summary and next steps are
                  still those of the earlier words.
                </p>
                {canRegenerate && <RegenerateSummary clientId={clientId} onStarted={onRegenerateStarted} />}
              </div>
            )}
            <TranscriptParagraphs
              paragraphs={paragraphs}
              query={search}
              current={data ? paragraphAt(paragraphs, positionMs ?? -1) : -1}
              onSeek={data && audio ? seek : undefined}
            />
            {data && (
              <div className="btn-row transcript__actions">
                <Button
                  ref={editButton}
                  variant="outline"
                  size="sm"
                  onClick={() => {
                    setChanged("");
                    setEditing(true);
                  }}
                >
                  <PencilIcon size={18} />
                  Edit
                </Button>
                {data.corrected && (
                  <Button variant="outline" size="sm" className="btn--danger-outline" onClick={() => setUndoing("asking")}>
                    <TrashIcon size={18} />
                    Undo corrections
                  </Button>
                )}
              </div>
            )}
          </>
        )}
      </details>
      <TranscriptExport clientId={clientId} />
      <ConfirmDialog
        open={undoing !== ""}
        title="Undo corrections?"
        description="The transcript goes back to the words as they were first heard. Your corrections are lost."
        confirmLabel="Undo corrections"
        busy={undoing === "busy"}
        onConfirm={undo}
        onCancel={() => setUndoing("")}
      />
    </Card>
  );
}

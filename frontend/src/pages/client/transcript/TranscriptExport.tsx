import { EXPORT_FORMATS, exportPath } from "./transcript-api.ts";

/** Downloads of the transcript: plain text, and subtitles for a video or a player. */
export function TranscriptExport({ clientId }: { clientId: number }) {
  return (
    <div className="transcript__export">
      <span className="transcript__export-label" aria-hidden="true">
        Download
      </span>
      {EXPORT_FORMATS.map((format) => (
        // The server answers with an attachment, so the page stays where it is.
        <a key={format} className="btn btn--outline btn--sm" href={exportPath(clientId, format)} download>
          <span className="sr-only">Download the transcript as </span>.{format}
        </a>
      ))}
    </div>
  );
}

import { useEffect, useId, useRef, useState, type ChangeEvent } from "react";
import { CameraIcon, ImageIcon } from "../../components/action-icons.tsx";
import { Button } from "../../components/Button.tsx";
import { Dialog } from "../../components/Dialog.tsx";
import { AlertIcon, Icon, type IconProps } from "../../components/icons.tsx";
import { Spinner } from "../../components/Spinner.tsx";
import type { ClientField } from "../../lib/validation.ts";
import { toast } from "../../stores/toast.ts";
import { isAbort, isImageFile, SCAN_TEXT, scanCard, scanFailureReason } from "./scan-card.ts";
import {
  mergeScan,
  replacements,
  scanOutcome,
  toCheck,
  type ClientChanges,
  type ClientValues,
  type ScanMerge,
} from "./scan-merge.ts";

const CardIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="2.5" y="5" width="19" height="14" rx="2" />
    <circle cx="8" cy="11" r="2" />
    <path d="M5 16c.6-1.4 1.7-2 3-2s2.4.6 3 2M14 10h4.5M14 13.5h3" />
  </Icon>
);

type Source = "camera" | "library";

// closed → open (choose) → scanning → closed on success; back to choose on a failure.
// When the card differs from what the user typed: confirm (Replace / Keep mine).
type Step =
  | { kind: "choose"; problem: string | null }
  | { kind: "scanning"; source: Source; preview: string | null }
  | { kind: "confirm"; merge: ScanMerge };

const CHOOSE: Step = { kind: "choose", problem: null };

interface ScanCardProps {
  /** The client form's values now. */
  values: ClientValues;
  /** Sets these fields of the client form. */
  onFill: (changes: ClientChanges) => void;
  /** The fields to highlight for the user to check against the card (after each scan). */
  onCheck: (fields: ClientField[]) => void;
  disabled?: boolean;
}

/**
 * Scan Business Card: a photo of the card, read on the server, fills the client form's
 * empty fields; fields the user typed are replaced only after asking. Fields the card
 * gave unsurely are handed to `onCheck` to be highlighted.
 */
export function ScanCard({ values, onFill, onCheck, disabled = false }: ScanCardProps) {
  const [open, setOpen] = useState(false);
  const [step, setStep] = useState<Step>(CHOOSE);
  const camera = useRef<HTMLInputElement>(null);
  const library = useRef<HTMLInputElement>(null);
  const baseId = useId();
  const keepId = `scan-${baseId}-keep`;
  const listId = `scan-${baseId}-changes`;
  const scan = useRef<AbortController | null>(null);
  const latest = useRef(values);
  latest.current = values;

  const preview = step.kind === "scanning" ? step.preview : null;
  useEffect(() => (preview ? () => URL.revokeObjectURL(preview) : undefined), [preview]);

  // The question replaces the buttons: the safe answer takes the focus.
  useEffect(() => {
    if (step.kind === "confirm") document.getElementById(keepId)?.focus();
  }, [step.kind, keepId]);

  // A scan still running when the page goes away is dropped.
  useEffect(() => () => scan.current?.abort(), []);

  const close = () => {
    scan.current?.abort();
    scan.current = null;
    setOpen(false);
    setStep(CHOOSE);
  };

  const finish = (merge: ScanMerge, replace: boolean) => {
    if (replace) onFill(replacements(merge));
    onCheck(toCheck(merge, replace));
    close();
    toast({ title: SCAN_TEXT.success, description: scanOutcome(merge, replace) });
  };

  const picked = (source: Source) => async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    event.currentTarget.value = ""; // the same photo picked again still counts
    if (!file || scan.current) return;
    if (!isImageFile(file)) {
      toast({ title: SCAN_TEXT.invalidTitle, description: SCAN_TEXT.invalidDescription, variant: "destructive" });
      setStep({ kind: "choose", problem: SCAN_TEXT.invalidDescription });
      return;
    }
    const controller = new AbortController();
    scan.current = controller;
    setStep({ kind: "scanning", source, preview: URL.createObjectURL(file) });
    try {
      const card = await scanCard(file, controller.signal);
      if (controller.signal.aborted) return;
      const merge = mergeScan(latest.current, card.values, card.doubtful);
      if (Object.keys(merge.fills).length > 0) onFill(merge.fills);
      scan.current = null;
      if (merge.conflicts.length > 0) setStep({ kind: "confirm", merge });
      else finish(merge, false);
    } catch (err) {
      if (controller.signal.aborted || isAbort(err)) return;
      scan.current = null;
      const description = SCAN_TEXT.failedDescription(scanFailureReason(err));
      toast({ title: SCAN_TEXT.failedTitle, description, variant: "destructive" });
      setStep({ kind: "choose", problem: description });
    }
  };

  const scanning = step.kind === "scanning";
  const confirming = step.kind === "confirm";

  return (
    <>
      <Button variant="secondary" block disabled={disabled} onClick={() => setOpen(true)} aria-haspopup="dialog">
        <CardIcon size={20} />
        Scan Business Card
      </Button>
      <Dialog
        open={open}
        onClose={() => (step.kind === "confirm" ? finish(step.merge, false) : close())}
        className="scan-card"
        title={confirming ? "Replace what you typed?" : "Scan Business Card"}
        description={
          confirming
            ? "The card reads these fields differently from what you typed."
            : "Take a photo of the card or choose one. Its details fill the empty fields of the client form."
        }
        footer={
          step.kind === "confirm" ? (
            <>
              <Button
                id={keepId}
                variant="outline"
                aria-describedby={listId}
                onClick={() => finish(step.merge, false)}
              >
                Keep mine
              </Button>
              <Button onClick={() => finish(step.merge, true)}>Replace</Button>
            </>
          ) : (
            <Button variant="outline" onClick={close}>
              Cancel
            </Button>
          )
        }
      >
        {step.kind === "confirm" ? (
          <ul className="scan-card__conflicts" id={listId}>
            {step.merge.conflicts.map((c) => (
              <li key={c.field} className="scan-card__conflict">
                <span className="scan-card__label">{c.label}</span>
                <span className="scan-card__change">
                  <span className="sr-only">You typed </span>
                  <span className="scan-card__typed">{c.typed}</span>
                  <span aria-hidden="true"> → </span>
                  <span className="sr-only">, the card reads </span>
                  <span className="scan-card__scanned">{c.scanned}</span>
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <>
            {/* Hidden inputs: the buttons open them. capture asks for the back camera. */}
            <input
              ref={camera}
              type="file"
              accept="image/*"
              capture="environment"
              hidden
              aria-label="Take a photo of the card"
              onChange={picked("camera")}
            />
            <input
              ref={library}
              type="file"
              accept="image/*"
              hidden
              aria-label="Choose a photo of the card"
              onChange={picked("library")}
            />
            {preview && (
              <img
                src={preview}
                alt="The card being read"
                className="scan-card__preview"
                onError={(event) => {
                  event.currentTarget.hidden = true; // e.g. a HEIC photo this browser cannot show
                }}
              />
            )}
            <div className="btn-row">
              <Button
                variant="secondary"
                busy={scanning && step.source === "camera"}
                disabled={scanning && step.source !== "camera"}
                onClick={() => camera.current?.click()}
              >
                <CameraIcon size={20} />
                Take Photo
              </Button>
              <Button
                variant="secondary"
                busy={scanning && step.source === "library"}
                disabled={scanning && step.source !== "library"}
                onClick={() => library.current?.click()}
              >
                <ImageIcon size={20} />
                Choose Photo
              </Button>
            </div>
            {step.kind === "choose" && step.problem && (
              <div className="notice notice--error" role="alert">
                <AlertIcon size={20} className="notice__icon" />
                <p>{step.problem}</p>
              </div>
            )}
          </>
        )}
        <p className="scan-card__status" role="status">
          {scanning && (
            <>
              <Spinner size="sm" />
              Reading the card…
            </>
          )}
        </p>
      </Dialog>
    </>
  );
}

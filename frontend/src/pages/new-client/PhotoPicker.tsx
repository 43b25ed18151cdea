import { useRef, useState, type ChangeEvent } from "react";
import { CameraIcon, ImageIcon, TrashIcon } from "../../components/action-icons.tsx";
import { Button } from "../../components/Button.tsx";
import { AlertIcon } from "../../components/icons.tsx";
import { photoErrorText, processPhoto } from "../../lib/image.ts";
import { PHOTO_MAX_CHARS, PHOTO_TOO_LARGE } from "../../lib/validation.ts";

interface PhotoPickerProps {
  /** The photo as a data URL, ready to send. */
  photo: string | null;
  onChange: (photo: string | null) => void;
  disabled?: boolean;
}

// Images of any kind the phone offers, HEIC/HEIF included (decoded where the browser can).
const ACCEPT = "image/*,.heic,.heif";

/** The client's photo: taken with the front camera or chosen, then previewed; removable. */
export function PhotoPicker({ photo, onChange, disabled = false }: PhotoPickerProps) {
  const camera = useRef<HTMLInputElement>(null);
  const library = useRef<HTMLInputElement>(null);
  const [processing, setProcessing] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const picked = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    event.currentTarget.value = ""; // the same file picked again still counts
    if (!file) return;
    setProcessing(true);
    setProblem(null);
    try {
      const url = await processPhoto(file);
      if (url.length >= PHOTO_MAX_CHARS) setProblem(PHOTO_TOO_LARGE);
      else onChange(url);
    } catch (err) {
      setProblem(photoErrorText(err));
    } finally {
      setProcessing(false);
    }
  };

  return (
    <fieldset className="photo-picker" disabled={disabled}>
      <legend className="field__label">Client Photo</legend>
      <input
        ref={camera}
        type="file"
        accept={ACCEPT}
        capture="user"
        hidden
        aria-label="Take a photo of the client"
        onChange={picked}
      />
      <input ref={library} type="file" accept={ACCEPT} hidden aria-label="Choose a photo of the client" onChange={picked} />
      {photo ? (
        <div className="photo-picker__preview">
          <img src={photo} alt="The client's photo" className="photo-picker__image" />
          <Button variant="outline" size="sm" onClick={() => onChange(null)}>
            <TrashIcon size={18} />
            Remove Photo
          </Button>
        </div>
      ) : (
        <p className="muted photo-picker__empty">No photo yet.</p>
      )}
      <div className="photo-picker__actions">
        <Button variant="secondary" size="sm" busy={processing} onClick={() => camera.current?.click()}>
          <CameraIcon size={18} />
          {photo ? "Retake Photo" : "Take Photo"}
        </Button>
        <Button variant="secondary" size="sm" disabled={processing} onClick={() => library.current?.click()}>
          <ImageIcon size={18} />
          Choose Photo
        </Button>
      </div>
      {processing && (
        <p className="muted" role="status">
          Processing photo…
        </p>
      )}
      {problem && (
        <div className="notice notice--error" role="alert">
          <AlertIcon size={20} className="notice__icon" />
          <p>{problem}</p>
        </div>
      )}
    </fieldset>
  );
}

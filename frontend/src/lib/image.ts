// Photos from the phone, made small enough to send as a data URL: decoded, scaled
// down to at most 800 px wide and re-encoded as JPEG. Used for the profile picture
// and for client photos. Every failure becomes one of the spec's photo alerts.

export const MAX_WIDTH = 800;
export const JPEG_QUALITY = 0.6;
export const FALLBACK_JPEG_QUALITY = 0.4;
/** The original file is sent as it is only when its data URL is shorter than this. */
export const ORIGINAL_MAX_CHARS = 500_000;
/** The server's limit on a photo, in data-URL characters. */
export const DATA_URL_MAX_CHARS = 1_000_000;

export const PHOTO_ALERTS = {
  unsupportedFormat: "This photo format isn't supported. Please choose a JPEG, PNG or WebP photo.",
  readFailed: "Could not read the selected file. Please try again.",
  processFailed: "Could not process this image. Please try a different photo.",
  tooLarge: "Photo is too large. Please try a smaller image or take a new photo.",
  generic: "Error processing photo. Please try again.",
} as const;

export const IPHONE_HINT =
  "On an iPhone, choose Settings > Camera > Formats > Most Compatible so that new photos are saved as JPEG.";

export type PhotoAlert = keyof typeof PHOTO_ALERTS;

/** Thrown by ImageTools when the browser cannot decode the picture at all. */
export class DecodeFailure extends Error {
  constructor(cause?: unknown) {
    super("the picture could not be decoded", { cause });
    this.name = "DecodeFailure";
  }
}

export class PhotoError extends Error {
  readonly kind: PhotoAlert;
  /** Extra advice shown with the alert (the iPhone camera format). */
  readonly hint: string | undefined;
  constructor(kind: PhotoAlert, hint?: string) {
    super(PHOTO_ALERTS[kind]);
    this.name = "PhotoError";
    this.kind = kind;
    this.hint = hint;
  }
}

/** What the user reads for any failure of processPhoto(). */
export function photoErrorText(err: unknown): string {
  if (err instanceof PhotoError) return err.hint ? `${err.message} ${err.hint}` : err.message;
  return PHOTO_ALERTS.generic;
}

export type SniffedType = "image/jpeg" | "image/png" | "image/webp" | "image/heic" | null;

const HEIF_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1"]);

/** The picture's type from its first bytes, never from the name or the claimed type. */
export function sniffImage(bytes: Uint8Array): SniffedType {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (bytes.length >= 8 && ascii(0, 8) === "\x89PNG\r\n\x1a\n") return "image/png";
  if (bytes.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  if (bytes.length >= 12 && ascii(4, 8) === "ftyp" && HEIF_BRANDS.has(ascii(8, 12))) return "image/heic";
  return null;
}

function looksLikeHeif(file: Blob & { name?: string }, sniffed: SniffedType): boolean {
  return sniffed === "image/heic" || /^image\/hei[cf]/i.test(file.type) || /\.hei[cf]$/i.test(file.name ?? "");
}

/** Width and height after scaling down to at most `maxWidth` wide (never up). */
export function fitWidth(width: number, height: number, maxWidth = MAX_WIDTH): { width: number; height: number } {
  if (width <= maxWidth) return { width, height };
  const scale = maxWidth / width;
  return { width: maxWidth, height: Math.max(1, Math.round(height * scale)) };
}

/** The browser's image machinery, replaceable in unit tests. */
export interface ImageTools {
  /** Decode with createImageBitmap and re-encode; resolves with a data URL. */
  primary(file: Blob, maxWidth: number, quality: number): Promise<string>;
  /** Decode with an <img> element and re-encode on a canvas; resolves with a data URL. */
  fallback(file: Blob, maxWidth: number, quality: number): Promise<string>;
  /** The file's first bytes. */
  head(file: Blob, length: number): Promise<Uint8Array>;
  /** The whole file as base64 (no data: prefix). */
  base64(file: Blob): Promise<string>;
}

/**
 * Turn a picked picture into a JPEG data URL under DATA_URL_MAX_CHARS characters.
 * Rejects with a PhotoError whose message is the alert to show.
 */
export async function processPhoto(file: Blob & { name?: string }, tools: ImageTools = browserTools): Promise<string> {
  let head: Uint8Array;
  try {
    head = await tools.head(file, 16);
  } catch {
    throw new PhotoError("readFailed");
  }
  if (head.length === 0) throw new PhotoError("readFailed");
  const sniffed = sniffImage(head);

  let tooLarge = false;
  let decoded = false;
  for (const attempt of [
    () => tools.primary(file, MAX_WIDTH, JPEG_QUALITY),
    () => tools.fallback(file, MAX_WIDTH, FALLBACK_JPEG_QUALITY),
  ]) {
    try {
      const url = await attempt();
      decoded = true;
      if (!url.startsWith("data:image/")) continue;
      if (url.length < DATA_URL_MAX_CHARS) return url;
      tooLarge = true;
    } catch (err) {
      // Decoded but not re-encoded (a canvas too large, out of memory): remember it.
      if (!(err instanceof DecodeFailure)) decoded = true;
    }
  }

  // Neither way could decode and re-encode it: the original may still do, if the
  // server can read it and it is small.
  if (sniffed === "image/jpeg" || sniffed === "image/png" || sniffed === "image/webp") {
    let payload: string;
    try {
      payload = await tools.base64(file);
    } catch {
      throw new PhotoError("readFailed");
    }
    const url = `data:${sniffed};base64,${payload}`;
    if (url.length < ORIGINAL_MAX_CHARS) return url;
    throw new PhotoError("tooLarge");
  }
  if (tooLarge) throw new PhotoError("tooLarge");
  if (looksLikeHeif(file, sniffed)) throw new PhotoError("unsupportedFormat", IPHONE_HINT);
  if (!decoded) throw new PhotoError("unsupportedFormat");
  throw new PhotoError("processFailed");
}

// --- the browser's implementation -------------------------------------------------

type Canvas2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

function paint(ctx: Canvas2D | null, source: CanvasImageSource, width: number, height: number): void {
  if (!ctx) throw new Error("no 2D canvas");
  // JPEG has no transparency: a transparent PNG turns white, not black.
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(source, 0, 0, width, height);
}

function blobToDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("read failed"));
    reader.readAsDataURL(blob);
  });
}

async function encodeBitmap(bitmap: ImageBitmap, maxWidth: number, quality: number): Promise<string> {
  const { width, height } = fitWidth(bitmap.width, bitmap.height, maxWidth);
  if (typeof OffscreenCanvas !== "undefined") {
    try {
      const canvas = new OffscreenCanvas(width, height);
      paint(canvas.getContext("2d"), bitmap, width, height);
      const blob = await canvas.convertToBlob({ type: "image/jpeg", quality });
      if (blob.type === "image/jpeg") return await blobToDataUrl(blob);
    } catch {
      // an OffscreenCanvas without 2D or JPEG support: use a document canvas
    }
  }
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  paint(canvas.getContext("2d"), bitmap, width, height);
  return canvas.toDataURL("image/jpeg", quality);
}

function loadImage(file: Blob): Promise<{ img: HTMLImageElement; release: () => void }> {
  const url = URL.createObjectURL(file);
  const img = new Image();
  img.decoding = "async";
  const release = () => URL.revokeObjectURL(url);
  return new Promise((resolve, reject) => {
    img.onload = () => resolve({ img, release });
    img.onerror = () => {
      release();
      reject(new DecodeFailure());
    };
    img.src = url;
  });
}

function base64Of(bytes: Uint8Array): string {
  let binary = "";
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) {
    binary += String.fromCharCode(...bytes.subarray(i, i + step));
  }
  return btoa(binary);
}

export const browserTools: ImageTools = {
  async primary(file, maxWidth, quality) {
    if (typeof createImageBitmap !== "function") throw new DecodeFailure();
    let bitmap: ImageBitmap;
    try {
      bitmap = await createImageBitmap(file);
    } catch (err) {
      throw new DecodeFailure(err);
    }
    try {
      return await encodeBitmap(bitmap, maxWidth, quality);
    } finally {
      bitmap.close();
    }
  },
  async fallback(file, maxWidth, quality) {
    const { img, release } = await loadImage(file);
    try {
      const { width, height } = fitWidth(img.naturalWidth, img.naturalHeight, maxWidth);
      if (!width || !height) throw new DecodeFailure();
      const canvas = document.createElement("canvas");
      canvas.width = width;
      canvas.height = height;
      paint(canvas.getContext("2d"), img, width, height);
      return canvas.toDataURL("image/jpeg", quality);
    } finally {
      release();
    }
  },
  async head(file, length) {
    return new Uint8Array(await file.slice(0, length).arrayBuffer());
  },
  async base64(file) {
    return base64Of(new Uint8Array(await file.arrayBuffer()));
  },
};

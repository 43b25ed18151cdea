// Recordings are RIFF/WAVE files: 16 kHz, mono, 16-bit little-endian PCM, the
// samples after a 44-byte header. The server reads the duration from the header.

export const WAV_RATE = 16_000;
export const WAV_HEADER_BYTES = 44;
const BYTES_PER_SAMPLE = 2;

/** The 44-byte header of a mono 16-bit PCM file holding `samples` samples. */
export function wavHeader(samples: number, rate = WAV_RATE): Uint8Array {
  const dataBytes = samples * BYTES_PER_SAMPLE;
  const header = new ArrayBuffer(WAV_HEADER_BYTES);
  const view = new DataView(header);
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) view.setUint8(offset + i, text.charCodeAt(i));
  };
  ascii(0, "RIFF");
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true); // size of the fmt chunk
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * BYTES_PER_SAMPLE, true); // bytes per second
  view.setUint16(32, BYTES_PER_SAMPLE, true); // bytes per frame
  view.setUint16(34, 16, true); // bits per sample
  ascii(36, "data");
  view.setUint32(40, dataBytes, true);
  return new Uint8Array(header);
}

/** A WAV file of the given chunks of samples (Int16Array or Blobs of their bytes). */
export function wavBlob(chunks: ReadonlyArray<Blob | Int16Array>, rate = WAV_RATE): Blob {
  let bytes = 0;
  for (const c of chunks) bytes += c instanceof Blob ? c.size : c.byteLength;
  const parts: BlobPart[] = [wavHeader(bytes / BYTES_PER_SAMPLE, rate) as Uint8Array<ArrayBuffer>];
  for (const c of chunks) parts.push(c instanceof Blob ? c : (c as Int16Array<ArrayBuffer>));
  return new Blob(parts, { type: "audio/wav" });
}

export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  dataOffset: number;
  dataBytes: number;
  durationMs: number;
}

/** Reads a PCM WAV header (any chunk order before `data`); null when it is not one. */
export function parseWav(bytes: Uint8Array): WavInfo | null {
  if (bytes.length < 12) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (offset: number) => String.fromCharCode(...bytes.subarray(offset, offset + 4));
  if (tag(0) !== "RIFF" || tag(8) !== "WAVE") return null;
  let offset = 12;
  let fmt: { channels: number; sampleRate: number; bits: number } | null = null;
  while (offset + 8 <= bytes.length) {
    const id = tag(offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === "fmt " && body + 16 <= bytes.length) {
      if (view.getUint16(body, true) !== 1) return null;
      fmt = { channels: view.getUint16(body + 2, true), sampleRate: view.getUint32(body + 4, true), bits: view.getUint16(body + 14, true) };
    } else if (id === "data") {
      if (!fmt || fmt.sampleRate === 0 || fmt.channels === 0) return null;
      const frame = fmt.channels * Math.ceil(fmt.bits / 8);
      return {
        sampleRate: fmt.sampleRate,
        channels: fmt.channels,
        bitsPerSample: fmt.bits,
        dataOffset: body,
        dataBytes: size,
        durationMs: Math.floor((Math.floor(size / frame) * 1000) / fmt.sampleRate),
      };
    }
    offset = body + size + (size % 2);
  }
  return null;
}

/** Milliseconds of audio in `samples` samples at 16 kHz, as the server computes it. */
export function samplesToMs(samples: number, rate = WAV_RATE): number {
  return Math.floor((samples * 1000) / rate);
}

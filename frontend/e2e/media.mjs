// Media made by the tests themselves: PNG pictures, WAV files for the fake microphone,
// and readers for what comes back (WAV headers, multipart bodies).

import { createHash } from "node:crypto";
import zlib from "node:zlib";

// --- PNG ----------------------------------------------------------------------------


const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGB PNG with a diagonal gradient. */
export function makePng(width, height) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      rows[row + 1 + x * 3] = (x * 255) / width;
      rows[row + 2 + x * 3] = (y * 255) / height;
      rows[row + 3 + x * 3] = 160;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A PNG as a data URL, the way the app sends photos. */
export function pngDataUrl(width, height) {
  return `data:image/png;base64,${makePng(width, height).toString("base64")}`;
}

// --- WAV ----------------------------------------------------------------------------

/** The voice's pitch in makeSpeechLikeWav(), so a test can tell the sample rate was kept. */
export const SPEECH_PITCH_HZ = 150;

/**
 * A mono 16-bit WAV of something speech-like: a voiced tone with harmonics whose
 * pitch drifts a little around 150 Hz, cut into syllables of about 180 ms with gaps.
 */
export function makeSpeechLikeWav(rate, seconds) {
  const frames = Math.round(rate * seconds);
  const data = Buffer.alloc(frames * 2);
  let phase = 0;
  for (let i = 0; i < frames; i++) {
    const t = i / rate;
    const syllable = (t * 4.2) % 1; // about four syllables a second
    const envelope = syllable < 0.75 ? Math.sin((Math.PI * syllable) / 0.75) : 0;
    const pitch = SPEECH_PITCH_HZ + 4 * Math.sin(2 * Math.PI * 0.7 * t);
    phase += (2 * Math.PI * pitch) / rate;
    const voice = Math.sin(phase) + 0.5 * Math.sin(2 * phase) + 0.3 * Math.sin(3 * phase) + 0.15 * Math.sin(5 * phase);
    data.writeInt16LE(Math.round(voice * envelope * 0.35 * 32767), i * 2);
  }
  return Buffer.concat([wavHeader(rate, 1, frames * 2), data]);
}

function wavHeader(rate, channels, dataBytes) {
  const h = Buffer.alloc(44);
  h.write("RIFF", 0, "ascii");
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write("WAVE", 8, "ascii");
  h.write("fmt ", 12, "ascii");
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(channels, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * channels * 2, 28);
  h.writeUInt16LE(channels * 2, 32);
  h.writeUInt16LE(16, 34);
  h.write("data", 36, "ascii");
  h.writeUInt32LE(dataBytes, 40);
  return h;
}

/** The format chunk and the data chunk's place of a WAV file, read chunk by chunk. */
export function readWav(buf) {
  if (buf.toString("ascii", 0, 4) !== "RIFF" || buf.toString("ascii", 8, 12) !== "WAVE") return null;
  let offset = 12;
  let fmt = null;
  while (offset + 8 <= buf.length) {
    const id = buf.toString("ascii", offset, offset + 4);
    const size = buf.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === "fmt ") {
      fmt = {
        format: buf.readUInt16LE(body),
        channels: buf.readUInt16LE(body + 2),
        sampleRate: buf.readUInt32LE(body + 4),
        byteRate: buf.readUInt32LE(body + 8),
        blockAlign: buf.readUInt16LE(body + 12),
        bitsPerSample: buf.readUInt16LE(body + 14),
      };
    } else if (id === "data") {
      if (!fmt) return null;
      const frames = size / fmt.blockAlign;
      return { ...fmt, riffSize: buf.readUInt32LE(4), dataOffset: body, dataBytes: size, durationMs: (frames * 1000) / fmt.sampleRate };
    }
    offset = body + size + (size % 2);
  }
  return null;
}

/** Root-mean-square level of 16-bit mono samples, 0…1. */
export function rms(buf, from, to) {
  let sum = 0;
  let n = 0;
  for (let i = from; i + 1 < to; i += 2) {
    const v = buf.readInt16LE(i) / 32768;
    sum += v * v;
    n++;
  }
  return n ? Math.sqrt(sum / n) : 0;
}

/**
 * The median pitch of the voiced stretches of 16-bit mono samples, by autocorrelation
 * over 64 ms windows (80–400 Hz).
 */
export function medianPitch(buf, dataOffset, sampleRate) {
  const samples = new Int16Array(buf.buffer.slice(buf.byteOffset + dataOffset, buf.byteOffset + buf.length - ((buf.length - dataOffset) % 2)));
  const size = Math.round(sampleRate * 0.064);
  const minLag = Math.floor(sampleRate / 400);
  const maxLag = Math.ceil(sampleRate / 80);
  const found = [];
  for (let start = 0; start + size + maxLag < samples.length; start += size) {
    let energy = 0;
    for (let i = start; i < start + size; i++) energy += samples[i] * samples[i];
    if (Math.sqrt(energy / size) < 0.05 * 32768) continue;
    let best = 0;
    let bestLag = 0;
    for (let lag = minLag; lag <= maxLag; lag++) {
      let sum = 0;
      for (let i = start; i < start + size; i++) sum += samples[i] * samples[i + lag];
      if (sum > best) {
        best = sum;
        bestLag = lag;
      }
    }
    if (bestLag) found.push(sampleRate / bestLag);
  }
  found.sort((a, b) => a - b);
  return found.length ? found[Math.floor(found.length / 2)] : null;
}

export const sha256 = (buf) => createHash("sha256").update(buf).digest("hex");

// --- multipart ----------------------------------------------------------------------

/** The parts of a multipart/form-data body: `{ name, filename, type, data }`. */
export function parseMultipart(body, contentType) {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!boundary) throw new Error(`no boundary in ${contentType}`);
  const marker = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts = [];
  let start = body.indexOf(marker);
  while (start >= 0) {
    const next = body.indexOf(marker, start + marker.length);
    if (next < 0) break;
    const part = body.subarray(start + marker.length + 2, next - 2); // drop CRLFs around it
    const split = part.indexOf("\r\n\r\n");
    const head = part.subarray(0, split).toString("utf8");
    const disposition = /content-disposition:[^\r\n]*/i.exec(head)?.[0] ?? "";
    parts.push({
      name: /\bname="([^"]*)"/.exec(disposition)?.[1],
      filename: /\bfilename="([^"]*)"/.exec(disposition)?.[1],
      type: /content-type:\s*([^\r\n]*)/i.exec(head)?.[1],
      data: part.subarray(split + 4),
    });
    start = next;
  }
  return parts;
}

// Streaming sample-rate conversion for the recorder: float samples at the device's
// rate in, 16-bit samples at 16 kHz out. Each output sample is a windowed-sinc
// interpolation of the input, with the cut-off below the lower of the two Nyquist
// frequencies, so that downsampling does not fold high frequencies into speech.
// Pure code: it runs in the audio worklet and in the unit tests.

export const TARGET_RATE = 16_000;

/** Zero crossings of the sinc on each side, counted at the lower rate. */
const ZERO_CROSSINGS = 12;
/** Kernel samples per input sample in the lookup table. */
const TABLE_STEPS = 128;
/** Pass band edge as a share of the lower Nyquist frequency. */
const CUTOFF = 0.92;

function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  const q = (x * x) / 4;
  for (let k = 1; k < 40; k++) {
    term *= q / (k * k);
    sum += term;
    if (term < 1e-12 * sum) break;
  }
  return sum;
}

export class Resampler {
  readonly inRate: number;
  readonly outRate: number;
  /** Input samples advanced per output sample. */
  private readonly step: number;
  /** Half-width of the kernel, in input samples. */
  private readonly half: number;
  private readonly table: Float32Array;
  /** Input not yet consumed; `buffer[0]` is input sample number `base`. */
  private buffer: Float32Array;
  private length = 0;
  private base = 0;
  /** Position of the next output sample, in input samples since the start. */
  private time = 0;

  constructor(inRate: number, outRate = TARGET_RATE) {
    if (!(inRate > 0) || !(outRate > 0)) throw new RangeError("sample rates must be positive");
    this.inRate = inRate;
    this.outRate = outRate;
    this.step = inRate / outRate;
    // Cut-off in cycles per input sample.
    const fc = (0.5 * CUTOFF * Math.min(inRate, outRate)) / inRate;
    this.half = Math.ceil(ZERO_CROSSINGS / (2 * fc));
    const beta = 8.6;
    const i0beta = besselI0(beta);
    const size = this.half * TABLE_STEPS + 2;
    this.table = new Float32Array(size);
    for (let i = 0; i < size; i++) {
      const x = i / TABLE_STEPS;
      const r = x / this.half;
      if (r >= 1) continue;
      const arg = 2 * fc * x;
      const sinc = arg === 0 ? 1 : Math.sin(Math.PI * arg) / (Math.PI * arg);
      const window = besselI0(beta * Math.sqrt(1 - r * r)) / i0beta;
      this.table[i] = 2 * fc * sinc * window;
    }
    this.buffer = new Float32Array(Math.max(4096, this.half * 4));
    // Start half a kernel in, as if silence came before the first sample.
    this.time = 0;
    this.base = -this.half;
    this.length = this.half;
  }

  private kernel(distance: number): number {
    const x = Math.abs(distance) * TABLE_STEPS;
    const i = Math.floor(x);
    if (i + 1 >= this.table.length) return 0;
    const f = x - i;
    return this.table[i] + (this.table[i + 1] - this.table[i]) * f;
  }

  private append(input: Float32Array): void {
    if (this.length + input.length > this.buffer.length) {
      const grown = new Float32Array(Math.max(this.buffer.length * 2, this.length + input.length));
      grown.set(this.buffer.subarray(0, this.length));
      this.buffer = grown;
    }
    this.buffer.set(input, this.length);
    this.length += input.length;
  }

  /** Feed input samples; returns the output samples that became computable. */
  process(input: Float32Array): Int16Array {
    this.append(input);
    const out: number[] = [];
    const end = this.base + this.length; // one past the last input sample held
    while (this.time + this.half < end) {
      const t = this.time;
      const first = Math.max(Math.ceil(t - this.half), this.base);
      const last = Math.floor(t + this.half);
      let acc = 0;
      for (let n = first; n <= last; n++) acc += this.buffer[n - this.base] * this.kernel(t - n);
      out.push(toInt16(acc));
      this.time += this.step;
    }
    // Drop input that no future output sample reaches.
    const keepFrom = Math.max(this.base, Math.floor(this.time - this.half) - 1);
    const drop = keepFrom - this.base;
    if (drop > 0) {
      this.buffer.copyWithin(0, drop, this.length);
      this.length -= drop;
      this.base = keepFrom;
    }
    return Int16Array.from(out);
  }

  /** Feeds half a kernel of silence so the last input samples come out too. */
  drain(): Int16Array {
    return this.process(new Float32Array(this.half + 1));
  }
}

export function toInt16(sample: number): number {
  const s = sample >= 1 ? 1 : sample <= -1 ? -1 : sample;
  return Math.round(s < 0 ? s * 0x8000 : s * 0x7fff);
}

/** Average of the channels: phones give one, some desktop microphones two. */
export function mixToMono(channels: readonly Float32Array[], into?: Float32Array): Float32Array {
  const frames = channels[0]?.length ?? 0;
  const out = into && into.length === frames ? into : new Float32Array(frames);
  if (channels.length === 1) {
    out.set(channels[0]);
    return out;
  }
  out.fill(0);
  for (const channel of channels) for (let i = 0; i < frames; i++) out[i] += channel[i];
  const scale = 1 / channels.length;
  for (let i = 0; i < frames; i++) out[i] *= scale;
  return out;
}

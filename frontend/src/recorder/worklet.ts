// The recorder's audio worklet, built as its own file (worklets load from our origin).
// It mixes the microphone to mono, converts it to 16 kHz 16-bit samples and posts
// them to the page one second at a time, plus the input level for the meter.
//
// The messages are in protocol.ts. A chunk is a second of samples, or less when
// pausing or stopping; "paused" and "stopped" come after the chunks before them.

import { PROCESSOR_NAME, type FromWorklet, type ToWorklet } from "./protocol.ts";
import { mixToMono, Resampler, TARGET_RATE } from "./resampler.ts";

// The worklet global scope, which TypeScript's DOM library does not describe.
declare const sampleRate: number;
declare function registerProcessor(name: string, ctor: unknown): void;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}

const LEVEL_PER_SECOND = 20;

class RecorderProcessor extends AudioWorkletProcessor {
  private readonly resampler = new Resampler(sampleRate, TARGET_RATE);
  private readonly chunk = new Int16Array(TARGET_RATE);
  private filled = 0;
  private capturing = true;
  private finished = false;
  private mono: Float32Array = new Float32Array(128);
  private peak = 0;
  private blocks = 0;
  private readonly blocksPerLevel: number;

  constructor() {
    super();
    this.blocksPerLevel = Math.max(1, Math.round(sampleRate / 128 / LEVEL_PER_SECOND));
    this.port.onmessage = (event: MessageEvent<ToWorklet>) => {
      switch (event.data?.type) {
        case "pause":
          this.capturing = false;
          this.flush();
          this.post({ type: "paused" });
          break;
        case "resume":
          if (!this.finished) this.capturing = true;
          break;
        case "stop":
          if (!this.finished) {
            this.capturing = false;
            this.finished = true;
            this.push(this.resampler.drain());
            this.flush();
          }
          this.post({ type: "stopped" });
          break;
      }
    };
  }

  private post(message: FromWorklet, transfer: Transferable[] = []): void {
    this.port.postMessage(message, transfer);
  }

  private push(samples: Int16Array): void {
    let offset = 0;
    while (offset < samples.length) {
      const n = Math.min(samples.length - offset, this.chunk.length - this.filled);
      this.chunk.set(samples.subarray(offset, offset + n), this.filled);
      this.filled += n;
      offset += n;
      if (this.filled === this.chunk.length) this.flush();
    }
  }

  private flush(): void {
    if (this.filled === 0) return;
    const pcm = this.chunk.slice(0, this.filled).buffer;
    this.filled = 0;
    this.post({ type: "chunk", pcm }, [pcm]);
  }

  process(inputs: Float32Array[][]): boolean {
    const channels = inputs[0];
    if (this.finished) return false;
    if (!channels || channels.length === 0 || !this.capturing) return true;
    this.mono = mixToMono(channels, this.mono);
    for (let i = 0; i < this.mono.length; i++) {
      const v = Math.abs(this.mono[i]);
      if (v > this.peak) this.peak = v;
    }
    if (++this.blocks >= this.blocksPerLevel) {
      this.post({ type: "level", peak: this.peak });
      this.blocks = 0;
      this.peak = 0;
    }
    this.push(this.resampler.process(this.mono));
    return true;
  }
}

registerProcessor(PROCESSOR_NAME, RecorderProcessor);

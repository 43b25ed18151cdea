// What the page and the recorder's audio worklet say to each other.

export const PROCESSOR_NAME = "debrief-recorder";

export type ToWorklet = { type: "pause" } | { type: "resume" } | { type: "stop" };

export type FromWorklet =
  | { type: "chunk"; pcm: ArrayBuffer }
  | { type: "level"; peak: number }
  | { type: "paused" }
  | { type: "stopped" };

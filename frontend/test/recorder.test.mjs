// The recorder's pure parts: sample-rate conversion to 16 kHz and the WAV file.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseWav, samplesToMs, wavBlob, wavHeader, WAV_HEADER_BYTES } from "../src/lib/wav.ts";
import { mixToMono, Resampler, toInt16 } from "../src/recorder/resampler.ts";

/** Feeds `seconds` of a sine at `freq` through a resampler in 128-frame blocks, as a worklet does. */
function run(inRate, freq, seconds, amplitude = 0.5) {
  const r = new Resampler(inRate, 16_000);
  const frames = Math.round(inRate * seconds);
  const out = [];
  for (let start = 0; start < frames; start += 128) {
    const block = new Float32Array(Math.min(128, frames - start));
    for (let i = 0; i < block.length; i++) block[i] = amplitude * Math.sin((2 * Math.PI * freq * (start + i)) / inRate);
    out.push(...r.process(block));
  }
  out.push(...r.drain());
  return Int16Array.from(out);
}

function rmsOf(samples, from = 0, to = samples.length) {
  let sum = 0;
  for (let i = from; i < to; i++) sum += (samples[i] / 32768) ** 2;
  return Math.sqrt(sum / (to - from));
}

/** Frequency by counting upward zero crossings. */
function frequencyOf(samples, rate) {
  let crossings = 0;
  let first = -1;
  let last = -1;
  for (let i = 1; i < samples.length; i++) {
    if (samples[i - 1] < 0 && samples[i] >= 0) {
      if (first < 0) first = i;
      last = i;
      crossings++;
    }
  }
  return ((crossings - 1) * rate) / (last - first);
}

describe("resampler", () => {
  for (const rate of [48_000, 44_100, 16_000, 8_000]) {
    test(`${rate} Hz in: 16 kHz out, the same length, pitch and level`, () => {
      const out = run(rate, 440, 2);
      assert.ok(Math.abs(out.length - 32_000) <= 2, `${out.length} samples for 2 s`);
      const middle = out.subarray(4000, 28_000);
      assert.ok(Math.abs(frequencyOf(middle, 16_000) - 440) < 1, `${frequencyOf(middle, 16_000)} Hz`);
      const level = rmsOf(middle);
      assert.ok(Math.abs(level - 0.5 / Math.SQRT2) < 0.01, `rms ${level}`);
    });
  }

  test("a tone above 8 kHz does not fold back into the speech band", () => {
    const out = run(48_000, 11_000, 1);
    assert.ok(rmsOf(out, 1000, 15_000) < 0.005, `rms ${rmsOf(out, 1000, 15_000)} left of an 11 kHz tone`);
  });

  test("a tone near the top of the band passes", () => {
    const out = run(48_000, 6_000, 1);
    assert.ok(rmsOf(out, 1000, 15_000) > 0.3);
  });

  test("block size does not change the result", () => {
    const input = new Float32Array(48_000);
    for (let i = 0; i < input.length; i++) input[i] = Math.sin(i / 7) * 0.3 + Math.sin(i / 53) * 0.2;
    const whole = new Resampler(48_000);
    const a = [...whole.process(input), ...whole.drain()];
    const pieces = new Resampler(48_000);
    const b = [];
    for (let i = 0; i < input.length; i += 97) b.push(...pieces.process(input.subarray(i, i + 97)));
    b.push(...pieces.drain());
    assert.deepEqual(b, a);
  });

  test("samples are clipped to 16 bits, not wrapped", () => {
    assert.equal(toInt16(2), 32767);
    assert.equal(toInt16(-2), -32768);
    assert.equal(toInt16(0), 0);
    assert.equal(toInt16(0.5), 16384);
  });

  test("stereo is mixed to mono by averaging", () => {
    const mono = mixToMono([Float32Array.from([1, 0, 0.5]), Float32Array.from([0, 0, -0.5])]);
    assert.deepEqual([...mono], [0.5, 0, 0]);
    assert.deepEqual([...mixToMono([Float32Array.from([0.25])])], [0.25]);
  });

  test("refuses a rate of zero", () => {
    assert.throws(() => new Resampler(0));
  });
});

describe("WAV file", () => {
  test("a 44-byte RIFF/WAVE header for 16 kHz mono 16-bit PCM", () => {
    const h = wavHeader(16_000);
    assert.equal(h.length, WAV_HEADER_BYTES);
    const info = parseWav(h);
    assert.deepEqual(info, {
      sampleRate: 16_000,
      channels: 1,
      bitsPerSample: 16,
      dataOffset: 44,
      dataBytes: 32_000,
      durationMs: 1000,
    });
    const view = new DataView(h.buffer);
    assert.equal(view.getUint32(4, true), 36 + 32_000, "RIFF size");
    assert.equal(view.getUint32(28, true), 32_000, "bytes per second");
    assert.equal(view.getUint16(32, true), 2, "block align");
  });

  test("chunks of samples and blobs of them make one file with the right sizes", async () => {
    const a = Int16Array.from([1, -1, 2]);
    const b = new Blob([Int16Array.from([3, 4]).buffer]);
    const blob = wavBlob([a, b]);
    assert.equal(blob.type, "audio/wav");
    const bytes = new Uint8Array(await blob.arrayBuffer());
    assert.equal(bytes.length, 44 + 10);
    const info = parseWav(bytes);
    assert.equal(info.dataBytes, 10);
    assert.deepEqual([...new Int16Array(bytes.buffer.slice(44))], [1, -1, 2, 3, 4]);
  });

  test("durations are whole milliseconds rounded down, as the server reads them", () => {
    assert.equal(samplesToMs(16_000), 1000);
    assert.equal(samplesToMs(15_999), 999);
    assert.equal(samplesToMs(24_008), 1500);
  });

  test("anything else is not a WAV", () => {
    assert.equal(parseWav(new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 ")), null);
    assert.equal(parseWav(new Uint8Array(4)), null);
  });
});

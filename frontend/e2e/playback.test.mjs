// Playing a recording the server keeps compressed, in Chromium against the real server
// and models: once a spoken meeting is transcribed the server keeps it as Ogg Opus; the
// client page's player reads that file itself (Chromium plays Opus), knows its length,
// seeks and plays; and the WAV the server decodes for browsers without Opus answers ranges.

import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { apiFromPage, checkA11y, createClient, heading, signIn, uploadFromPage, useApp } from "./harness.mjs";
import { readWav } from "./media.mjs";
import { importModels, spoken, TEST_MODELS } from "./speech.mjs";

const MEETING =
  "Thanks for meeting today. Sarah will send the revised proposal by Friday. " +
  "I will schedule a follow-up call with the finance team next week.";
// The job transcribes the meeting (processing.test.mjs gives it as long), then the
// server's storage upkeep, every 10 s, compresses it.
const COMPRESSED_TIMEOUT = 120_000;
const POLL_MS = 250;
// How far a player's or a decoder's idea of the length may stray from the upload's.
const LENGTH_TOLERANCE_S = 0.5;
// What the page waits for a media event before it says so, rather than hang the test.
const EVENT_TIMEOUT = 10_000;

const work = mkdtempSync(join(tmpdir(), "debrief-playback-"));
const modelsDir = join(work, "models");
let meetingWav;

// Registered before useApp's hooks, so the models are in place when the server starts.
before(async () => {
  if (!process.env.DEBRIEF_BIN) throw new Error("DEBRIEF_BIN is not set: point it at the debrief binary to test");
  await importModels(modelsDir, TEST_MODELS, ["whisper-tiny.en-ct2", "all-minilm-l6-v2"]);
  meetingWav = await spoken(work, "meeting", MEETING);
});
after(() => rm(work, { recursive: true, force: true }));

const app = useApp({ args: ["--models-dir", modelsDir] });

/** Polls the client until its recording is kept as Ogg Opus; resolves with the client then. */
async function compressedClient(page, id) {
  const deadline = Date.now() + COMPRESSED_TIMEOUT;
  for (;;) {
    const { status, body } = await apiFromPage(page, "GET", `/api/clients/${id}`);
    assert.equal(status, 200, JSON.stringify(body));
    if (body.recording?.contentType === "audio/ogg") return body;
    assert.ok(Date.now() < deadline, `not compressed yet: ${JSON.stringify({ recording: body.recording, job: body.job })}`);
    await page.waitForTimeout(POLL_MS);
  }
}

/** The first bytes of `url` as the server answers `Range: bytes=0-{count - 1}`, fetched by the page with its cookie. */
async function firstBytes(page, url, count) {
  const answer = await page.evaluate(
    async ({ url, count }) => {
      const res = await fetch(url, { credentials: "same-origin", headers: { Range: `bytes=0-${count - 1}` } });
      return { status: res.status, contentRange: res.headers.get("content-range"), bytes: [...new Uint8Array(await res.arrayBuffer())] };
    },
    { url, count },
  );
  return { ...answer, bytes: Buffer.from(answer.bytes) };
}

describe("playing a compressed recording", () => {
  test("once transcribed, the recording is kept as Ogg Opus, and the client page's player plays it whole, seeks and plays on", (t) =>
    app.run(t, async (page) => {
      const { user } = await signIn(page);
      const client = await createClient(page, { summary: "" });
      const receipt = await uploadFromPage(page, `/api/clients/${client.id}/recording`, {
        recording: { bytes: meetingWav, filename: "recording.wav", type: "audio/wav" },
        userId: String(user.id),
      });
      assert.ok(receipt.status < 300, `upload answered ${receipt.status}: ${JSON.stringify(receipt.body)}`);

      const saved = await compressedClient(page, client.id);
      const { recording, recordingUrl } = saved;
      assert.equal(recording.size, meetingWav.length, "the size is still the upload's");
      assert.ok(recording.storedSize < recording.size / 4, `compressed to ${recording.storedSize} of ${recording.size} bytes`);
      assert.equal(recording.removedAt, null);
      const stored = await firstBytes(page, recordingUrl, 4);
      assert.equal(stored.status, 206);
      assert.equal(stored.bytes.toString("latin1"), "OggS", "the stored file is an Ogg stream");

      await page.goto(`/client/${client.id}`);
      await heading(page, client.name).waitFor();
      const audio = page.getByLabel(`Recording of the meeting with ${client.name}`, { exact: true });
      const duration = await audio.evaluate(
        (a, timeout) =>
          new Promise((resolve, reject) => {
            if (a.readyState >= HTMLMediaElement.HAVE_METADATA) return resolve(a.duration);
            setTimeout(() => reject(new Error(`no loadedmetadata; error ${a.error?.code} ${a.error?.message}`)), timeout);
            a.addEventListener("loadedmetadata", () => resolve(a.duration), { once: true });
          }),
        EVENT_TIMEOUT,
      );
      const src = await audio.evaluate((a) => a.currentSrc);
      assert.equal(src, new URL(recordingUrl, app.url).href, "Chromium plays Ogg Opus: the stored file, not the WAV");
      assert.doesNotMatch(src, /as=wav/);
      const length = recording.durationMs / 1000;
      assert.ok(Math.abs(duration - length) <= LENGTH_TOLERANCE_S, `the player says ${duration} s, the upload was ${length} s`);

      // To the middle, then played (muted) from there for a moment.
      const middle = duration / 2;
      const seeked = await audio.evaluate(
        (a, { to, timeout }) =>
          new Promise((resolve, reject) => {
            setTimeout(() => reject(new Error(`no seeked; at ${a.currentTime} s`)), timeout);
            a.addEventListener("seeked", () => resolve(a.currentTime), { once: true });
            a.currentTime = to;
          }),
        { to: middle, timeout: EVENT_TIMEOUT },
      );
      assert.ok(Math.abs(seeked - middle) < 0.25, `seeked to ${seeked} s, asked for ${middle} s`);
      await audio.evaluate((a) => {
        a.muted = true;
        return a.play();
      });
      await page.waitForFunction(([a, from]) => a.currentTime > from + 0.5, [await audio.elementHandle(), seeked], {
        timeout: EVENT_TIMEOUT,
      });
      const played = await audio.evaluate((a) => {
        a.pause();
        return { at: a.currentTime, error: a.error && `${a.error.code} ${a.error.message}` };
      });
      assert.ok(played.at > seeked, `played on from ${seeked} s to ${played.at} s`);
      assert.equal(played.error, null);
      await checkA11y(page);

      // For browsers without Opus: the server's 16 kHz WAV of it, by ranges too.
      const wav = await firstBytes(page, `${recordingUrl}&as=wav`, 44);
      assert.equal(wav.status, 206);
      assert.match(wav.contentRange ?? "", /^bytes 0-43\/\d+$/);
      assert.equal(wav.bytes.subarray(0, 4).toString("latin1"), "RIFF");
      const header = readWav(wav.bytes);
      assert.ok(header, "a WAV header");
      assert.deepEqual([header.sampleRate, header.channels], [16_000, 1]);
      assert.ok(
        Math.abs(header.durationMs - recording.durationMs) <= LENGTH_TOLERANCE_S * 1000,
        `the WAV holds ${header.durationMs} ms, the upload ${recording.durationMs} ms`,
      );
    }));
});

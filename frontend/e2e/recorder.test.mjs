// Recording a meeting and saving the client, with Chromium's fake microphone playing
// a speech-like WAV made here: the recorder's states, the WAV file the server keeps,
// playback with seeking, recovery after a reload, and uploads over a bad connection.

import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import {
  apiFromPage,
  checkA11y,
  heading,
  onPath,
  seeToast,
  signIn,
  useApp,
} from "./harness.mjs";
import { makePng, makeSpeechLikeWav, medianPitch, parseMultipart, readWav, rms, sha256, SPEECH_PITCH_HZ } from "./media.mjs";

const micFile = join(mkdtempSync(join(tmpdir(), "debrief-mic-")), "speech-48k.wav");
writeFileSync(micFile, makeSpeechLikeWav(48_000, 6));

const app = useApp({
  browserArgs: [
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
    `--use-file-for-fake-audio-capture=${micFile}`,
    "--autoplay-policy=no-user-gesture-required",
  ],
});

const recorder = (page) => page.locator(".recorder");
const timer = (page) => page.getByRole("timer");
const CLIENT_PATH = /^\/client\/\d+$/;

/** "mm:ss" → seconds. */
function seconds(text) {
  const match = /(\d+):(\d\d)/.exec(text);
  assert.ok(match, `a mm:ss time in ${JSON.stringify(text)}`);
  return Number(match[1]) * 60 + Number(match[2]);
}

async function newClientPage(page) {
  await signIn(page);
  await page.goto("/");
  await heading(page, "New Client").waitFor();
  await page.getByRole("button", { name: "Start Recording" }).waitFor();
}

/** Records for about `ms` of recording time; returns the time measured here. */
async function recordFor(page, ms) {
  await page.getByRole("button", { name: "Start Recording" }).click();
  await recorder(page).getByText("Recording", { exact: true }).waitFor();
  const started = Date.now();
  await page.waitForTimeout(ms);
  return { started };
}

async function stopRecording(page) {
  await page.getByRole("button", { name: "STOP RECORDING" }).click();
  await recorder(page).getByText("Recording Complete").waitFor();
  return seconds(await recorder(page).locator(".recorder__duration").innerText());
}

async function fillClient(page, client) {
  const fields = {
    "Full Name": client.name,
    "Email Address": client.email,
    "Phone Number": client.phone,
    Company: client.company ?? "",
    Position: client.position ?? "",
  };
  for (const [label, value] of Object.entries(fields)) await page.getByLabel(label, { exact: true }).fill(value);
  // Typing lost to a page still inert under a closing dialog would show here, not as a save that never starts.
  for (const [label, value] of Object.entries(fields)) {
    assert.equal(await page.getByLabel(label, { exact: true }).inputValue(), value, label);
  }
}

/** The recording as the server serves it, fetched inside the page with its cookie. */
async function downloadRecording(page, url) {
  const { status, type, base64 } = await page.evaluate(async (u) => {
    const res = await fetch(u, { credentials: "same-origin" });
    const bytes = new Uint8Array(await res.arrayBuffer());
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { status: res.status, type: res.headers.get("content-type"), base64: btoa(binary) };
  }, url);
  assert.equal(status, 200);
  return { type, bytes: Buffer.from(base64, "base64") };
}

/** Recordings still kept in the phone's IndexedDB. */
function storedRecordings(page) {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open("debrief-recordings");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains("recordings")) return resolve([]);
          const req = db.transaction("recordings").objectStore("recordings").getAll();
          req.onsuccess = () => {
            resolve(req.result);
            db.close();
          };
          req.onerror = () => reject(req.error);
        };
      }),
  );
}

function uniqueClient(tag) {
  const n = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const letters = n.replace(/\d/g, (d) => "abcdefghij"[Number(d)]);
  return {
    name: `Grace ${tag} ${letters[0].toUpperCase()}${letters.slice(1)}`,
    email: `grace.${n}@client.example`,
    phone: "+1 (555) 010-2030",
    company: `Hopper ${tag} Systems`,
    position: "Rear Admiral",
  };
}

describe("recorder and save", () => {
  test("record with a pause, save with a photo, download the WAV, play it, find it in History", (t) =>
    app.run(t, async (page) => {
      await newClientPage(page);
      await page.getByRole("navigation", { name: "Client views" }).getByRole("link", { name: "New Client" }).waitFor();
      await page.getByRole("link", { name: "Settings" }).waitFor();
      await checkA11y(page);

      // ~1.6 s, a pause of ~1.5 s that must not count, ~1.6 s more.
      const { started } = await recordFor(page, 1600);
      await page.getByRole("button", { name: "Pause", exact: true }).click();
      let activeMs = Date.now() - started;
      await recorder(page).getByText("Paused", { exact: true }).waitFor();
      const pausedAt = await timer(page).innerText();
      await checkA11y(page);
      await page.waitForTimeout(1500);
      assert.equal(await timer(page).innerText(), pausedAt, "the timer stands still while paused");
      await page.getByRole("button", { name: "Resume" }).click();
      const resumed = Date.now();
      await recorder(page).getByText("Recording", { exact: true }).waitFor();
      await page.waitForTimeout(1600);
      assert.ok(seconds(await timer(page).innerText()) >= 2, "the timer ticks");
      const shownSeconds = await stopRecording(page);
      activeMs += Date.now() - resumed;
      assert.ok(Math.abs(shownSeconds - activeMs / 1000) <= 1, `shows ${shownSeconds} s for ${activeMs} ms recorded`);
      await checkA11y(page);

      // The preview plays.
      await page.getByRole("button", { name: "Play recording" }).click();
      await page.getByRole("button", { name: "Pause recording" }).waitFor();
      await page.waitForFunction(() => (document.querySelector(".playback audio")?.currentTime ?? 0) > 0.3);
      await page.getByRole("button", { name: "Pause recording" }).click();

      // A photo, previewed, then the details.
      await page.getByLabel("Choose a photo of the client").setInputFiles({
        name: "client.png",
        mimeType: "image/png",
        buffer: makePng(1200, 900),
      });
      await page.getByRole("img", { name: "The client's photo" }).waitFor();
      const client = uniqueClient("Alpha");
      await fillClient(page, client);

      // Hold the upload a moment to see the overlay and its progress bar.
      const creates = [];
      page.on("request", (req) => {
        if (req.method() === "POST" && new URL(req.url()).pathname === "/api/clients") creates.push(req.headers());
      });
      let releaseUpload;
      const held = new Promise((resolve) => (releaseUpload = resolve));
      await page.route("**/api/clients/*/recording", async (route) => {
        await held;
        await route.continue();
      });
      await page.getByRole("button", { name: "Save Client" }).click();
      const overlay = page.getByRole("dialog", { name: "Processing Information" });
      await overlay.waitFor();
      await overlay.getByText("Your recording is being transcribed and summarised. This may take a minute or two.").waitFor();
      await overlay.getByRole("progressbar", { name: "Recording upload" }).waitFor();
      await checkA11y(page);
      releaseUpload();

      await onPath(page, CLIENT_PATH);
      await seeToast(page, "Client saved successfully");
      await heading(page, client.name).waitFor();
      assert.equal(creates.length, 1);
      assert.match(creates[0]["idempotency-key"] ?? "", /^[0-9a-f-]{36}$/, "an Idempotency-Key");
      const id = new URL(page.url()).pathname.split("/").pop();

      // The server's record and file: a real 16 kHz mono 16-bit WAV of the recorded length.
      const saved = (await apiFromPage(page, "GET", `/api/clients/${id}`)).body;
      assert.equal(saved.email, client.email);
      assert.match(saved.photoUrl ?? "", /^\/api\/clients\/\d+\/photo\?v=/);
      assert.ok(saved.recording, "the recording is attached");
      const { type, bytes } = await downloadRecording(page, saved.recordingUrl);
      assert.match(type, /^audio\/(wav|x-wav|wave)/);
      const wav = readWav(bytes);
      assert.ok(wav, "a RIFF/WAVE file");
      assert.deepEqual(
        { format: wav.format, channels: wav.channels, sampleRate: wav.sampleRate, bits: wav.bitsPerSample },
        { format: 1, channels: 1, sampleRate: 16_000, bits: 16 },
      );
      assert.equal(wav.riffSize, bytes.length - 8);
      assert.equal(wav.dataOffset + wav.dataBytes, bytes.length);
      assert.ok(Math.abs(wav.durationMs - activeMs) <= 1000, `${wav.durationMs} ms in the file, ${activeMs} ms recorded`);
      assert.equal(saved.recording.size, bytes.length);
      assert.equal(saved.recording.sha256, sha256(bytes));
      assert.ok(rms(bytes, wav.dataOffset + 16_000, bytes.length) > 0.02, "the file holds the microphone's sound");
      // Converted to 16 kHz, not just relabelled: the voice keeps its pitch.
      const pitch = medianPitch(bytes, wav.dataOffset, 16_000);
      assert.ok(pitch && Math.abs(pitch - SPEECH_PITCH_HZ) < 8, `pitch ${pitch} Hz, the microphone's is ${SPEECH_PITCH_HZ}`);
      assert.deepEqual(await storedRecordings(page), [], "the phone's copy is gone once the server confirmed it");

      // The page's player plays it and seeks (the server answers ranges).
      await page.getByRole("img", { name: `Photo of ${client.name}` }).waitFor();
      const audio = page.locator("audio[controls]");
      await audio.evaluate((a) => a.play());
      await page.waitForFunction(() => document.querySelector("audio[controls]").currentTime > 0.3);
      const seeked = await audio.evaluate(
        (a) =>
          new Promise((resolve) => {
            a.pause();
            a.addEventListener("seeked", () => resolve(a.currentTime), { once: true });
            a.currentTime = 2.5;
          }),
      );
      assert.ok(seeked >= 2.4, `seeked to ${seeked}`);
      await page.getByRole("button", { name: "Email Client" }).waitFor();
      assert.equal(await page.getByRole("button", { name: "Email Client" }).isDisabled(), true, "no summary yet");
      await page.getByText("Cannot send email: Client email or summary is missing").waitFor();
      await checkA11y(page);

      // History lists it, and the search finds it.
      await page.getByRole("link", { name: "Back to History" }).click();
      await onPath(page, "/history");
      await heading(page, "History").waitFor();
      const row = page.getByRole("link", { name: new RegExp(client.name) });
      await row.waitFor();
      // This server has no speech model: the recording's job waits for one.
      await row.getByText("Processing…").waitFor();
      await row.locator('img[loading="lazy"]').waitFor();
      await checkA11y(page);
      // A new account with one client: screen readers hear "1 client", in the singular.
      const count = page.locator(".history [role=status]");
      assert.equal(await count.textContent(), "1 client");
      await page.getByPlaceholder("Search clients...").fill(client.company.toUpperCase());
      assert.equal(await page.locator(".client-row").count(), 1);
      assert.equal(await count.textContent(), "1 of 1 client");
      await page.getByPlaceholder("Search clients...").fill("nobody-by-this-name");
      await page.getByText("No clients found").waitFor();
      await page.getByPlaceholder("Search clients...").fill(client.email.slice(0, 12));
      await row.click();
      await onPath(page, `/client/${id}`);
    }));

  test("a reload in the middle of a recording offers the recording back", (t) =>
    app.run(t, async (page) => {
      await newClientPage(page);
      await recordFor(page, 2800);
      await page.reload();
      await heading(page, "New Client").waitFor();
      const offer = page.getByRole("region", { name: "Unfinished recording found" });
      await offer.waitFor();
      await checkA11y(page);
      await offer.getByRole("button", { name: "Recover recording" }).click();
      const length = await stopRecordingShown(page);
      assert.ok(length >= 2 && length <= 3, `${length} s recovered of ~2.8 s`);

      // Record Again asks first; Cancel keeps the recording.
      await page.getByRole("button", { name: "Record Again" }).click();
      const ask = page.getByRole("dialog", { name: "Discard this recording?" });
      await ask.waitFor();
      await checkA11y(page);
      await ask.getByRole("button", { name: "Cancel" }).click();
      await recorder(page).getByText("Recording Complete").waitFor();

      // The recovered recording is saved with the client like a fresh one.
      const client = uniqueClient("Beta");
      await fillClient(page, client);
      await page.getByRole("button", { name: "Save Client" }).click();
      await onPath(page, CLIENT_PATH);
      const id = new URL(page.url()).pathname.split("/").pop();
      const saved = (await apiFromPage(page, "GET", `/api/clients/${id}`)).body;
      assert.ok(Math.abs(saved.recording.durationMs / 1000 - length) <= 1, `${saved.recording.durationMs} ms`);
      assert.deepEqual(await storedRecordings(page), []);
    }));

  test("Record Again discards only after asking; a discarded recording is not offered again", (t) =>
    app.run(t, async (page) => {
      await newClientPage(page);
      await recordFor(page, 1200);
      await stopRecording(page);
      await page.getByRole("button", { name: "Record Again" }).click();
      await page.getByRole("dialog", { name: "Discard this recording?" }).getByRole("button", { name: "Discard and Record Again" }).click();
      await page.getByRole("button", { name: "Start Recording" }).waitFor();
      assert.deepEqual(await storedRecordings(page), []);
      await page.reload();
      await page.getByRole("button", { name: "Start Recording" }).waitFor();
      assert.equal(await page.getByRole("region", { name: "Unfinished recording found" }).count(), 0);
    }));

  test("a connection lost during the upload: retried, and the server's SHA-256 is the phone's", (t) =>
    app.run(t, async (page) => {
      await newClientPage(page);
      await recordFor(page, 2200);
      await stopRecording(page);
      const client = uniqueClient("Gamma");
      await fillClient(page, client);

      const attempts = [];
      let sent = null;
      await page.route("**/api/clients/*/recording", async (route) => {
        attempts.push(Date.now());
        if (attempts.length === 1) {
          // The phone goes offline in the middle of the upload and comes back a little later.
          await page.context().setOffline(true);
          setTimeout(() => void page.context().setOffline(false), 1500);
          await route.abort("internetdisconnected");
        } else if (attempts.length === 2) {
          await route.abort("connectionreset");
        } else {
          sent = { body: route.request().postDataBuffer(), type: route.request().headers()["content-type"] };
          await route.continue();
        }
      });
      await page.getByRole("button", { name: "Save Client" }).click();
      await page.getByRole("dialog", { name: "Processing Information" }).getByText(/connection was lost/i).waitFor();
      await onPath(page, CLIENT_PATH);
      await seeToast(page, "Client saved successfully");
      assert.equal(attempts.length, 3);

      const parts = parseMultipart(sent.body, sent.type);
      const file = parts.find((p) => p.name === "recording");
      assert.equal(file.filename, "recording.wav");
      assert.ok(parts.some((p) => p.name === "userId" && p.data.length > 0), "userId sent along");
      const id = new URL(page.url()).pathname.split("/").pop();
      const saved = (await apiFromPage(page, "GET", `/api/clients/${id}`)).body;
      assert.equal(saved.recording.sha256, sha256(file.data), "the server has exactly the phone's file");
      assert.equal(saved.recording.size, file.data.length);
      assert.equal(readWav(file.data).sampleRate, 16_000);
      assert.deepEqual(await storedRecordings(page), []);
      assert.equal(await page.getByText("Recording not uploaded").count(), 0);
    }));

  test("an upload that keeps failing stays on the phone and is retried from the client page", (t) =>
    app.run(t, async (page) => {
      await newClientPage(page);
      await recordFor(page, 1500);
      await stopRecording(page);
      const client = uniqueClient("Delta");
      await fillClient(page, client);
      let failing = true;
      let tries = 0;
      await page.route("**/api/clients/*/recording", async (route) => {
        tries++;
        if (failing) await route.abort("connectionreset");
        else await route.continue();
      });
      await page.getByRole("button", { name: "Save Client" }).click();
      await onPath(page, CLIENT_PATH);
      assert.equal(tries, 5, "five tries before giving up");
      const notice = page.locator(".pending-upload");
      await notice.getByText("Recording not uploaded").waitFor();
      assert.match(await notice.innerText(), /Recording not uploaded\s*—\s*Retry/);
      await checkA11y(page);
      const kept = await storedRecordings(page);
      assert.equal(kept.length, 1, "the phone keeps its copy");
      const id = new URL(page.url()).pathname.split("/").pop();
      assert.equal(kept[0].clientId, id);

      // Still there after a reload; the retry uploads it. The app's background
      // sync tries a kept recording by itself after the reload: let it give up
      // (five more tries) first, or it may upload the file while the test
      // reaches for Retry and take the button away.
      await page.reload();
      await heading(page, client.name).waitFor();
      for (const start = Date.now(); tries < 10; await page.waitForTimeout(100)) {
        assert.ok(Date.now() - start < 90_000, `the background sync tried ${tries - 5} times and then stopped`);
      }
      await notice.getByText("Recording not uploaded").waitFor();
      assert.equal(tries, 10, "the background sync gives up after five tries too");
      failing = false;
      await notice.getByRole("button", { name: "Retry" }).click();
      await seeToast(page, "Recording uploaded");
      await page.locator("audio[controls]").waitFor();
      assert.equal(await notice.count(), 0);
      assert.deepEqual(await storedRecordings(page), []);
      const saved = (await apiFromPage(page, "GET", `/api/clients/${id}`)).body;
      const { bytes } = await downloadRecording(page, saved.recordingUrl);
      assert.equal(saved.recording.sha256, sha256(bytes));
    }));

  test("a lost answer to Save: saving again makes no second client (Idempotency-Key)", (t) =>
    app.run(t, async (page) => {
      await newClientPage(page);
      const client = uniqueClient("Epsilon");
      await fillClient(page, client);
      const keys = [];
      let first = true;
      await page.route("**/api/clients", async (route) => {
        if (route.request().method() !== "POST") return route.continue();
        keys.push(route.request().headers()["idempotency-key"]);
        if (first) {
          first = false;
          await route.fetch(); // the server makes the client, the phone never hears back
          await route.abort("connectionreset");
          return;
        }
        await route.continue();
      });
      await page.getByRole("button", { name: "Save Client" }).click();
      await seeToast(page, "Error", "Failed to save client information. Please try again.");
      assert.equal(new URL(page.url()).pathname, "/");
      // A correction before trying again still reaches the one client.
      await page.getByLabel("Phone Number", { exact: true }).fill("555-999-0000");
      await page.getByRole("button", { name: "Save Client" }).click();
      await onPath(page, CLIENT_PATH);
      assert.equal(keys.length, 2);
      assert.equal(keys[0], keys[1], "the same key on the retry");
      const list = (await apiFromPage(page, "GET", "/api/clients")).body;
      const mine = list.filter((c) => c.email === client.email);
      assert.equal(mine.length, 1, "one client");
      assert.equal((await apiFromPage(page, "GET", `/api/clients/${mine[0].id}`)).body.phone, "555-999-0000");
      await page.getByText("555-999-0000").waitFor();
    }));

  test("a refused microphone says so", (t) =>
    app.run(t, async (page) => {
      await page.addInitScript(() => {
        navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException("Permission denied", "NotAllowedError"));
      });
      await newClientPage(page);
      await page.getByRole("button", { name: "Start Recording" }).click();
      await recorder(page)
        .getByRole("alert")
        .getByText("Could not access microphone. Please check your permissions.")
        .waitFor();
      await page.getByRole("button", { name: "Start Recording" }).waitFor();
      await checkA11y(page);
    }));

  test("the microphone taken away pauses the recording and says why; Resume takes it back", (t) =>
    app.run(t, async (page) => {
      await page.addInitScript(() => {
        const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
        window.__micTracks = [];
        navigator.mediaDevices.getUserMedia = async (constraints) => {
          const stream = await original(constraints);
          window.__micTracks.push(...stream.getAudioTracks());
          return stream;
        };
      });
      await newClientPage(page);
      await recordFor(page, 1200);

      // A call: the system mutes the microphone.
      await page.evaluate(() => window.__micTracks.at(-1).dispatchEvent(new Event("mute")));
      await recorder(page).getByText("Paused", { exact: true }).waitFor();
      await recorder(page).getByText(/the microphone was interrupted/).waitFor();
      await checkA11y(page);
      await page.getByRole("button", { name: "Resume" }).click();
      await recorder(page).getByText("Recording", { exact: true }).waitFor();
      assert.equal(await recorder(page).getByText(/the microphone was interrupted/).count(), 0);

      // The microphone goes away for good: Resume asks for it again.
      await page.evaluate(() => {
        const track = window.__micTracks.at(-1);
        track.stop();
        track.dispatchEvent(new Event("ended"));
      });
      await recorder(page).getByText(/the microphone was disconnected/).waitFor();
      await page.getByRole("button", { name: "Resume" }).click();
      await recorder(page).getByText("Recording", { exact: true }).waitFor();
      assert.equal(await page.evaluate(() => window.__micTracks.length), 2, "a new microphone track");
      await page.waitForTimeout(1200);
      const length = await stopRecording(page);
      assert.ok(length >= 2, `${length} s recorded across the interruptions`);
    }));
});

async function stopRecordingShown(page) {
  await recorder(page).getByText("Recording Complete").waitFor();
  return seconds(await recorder(page).locator(".recorder__duration").innerText());
}

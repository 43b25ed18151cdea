// Recording where the server cannot be reached: with the phone's network cut, and
// with the phone online but the server out of reach (a client's lobby). The meeting
// is recorded from Chromium's fake microphone playing real speech, the client is
// saved on the phone with its recording, and once the server answers again both
// reach it by themselves; the recording is then transcribed with the test models.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { apiFromPage, checkA11y, heading, seeToast, signIn, startServer, useApp, withPage } from "./harness.mjs";

const run = promisify(execFile);
const MODELS = process.env.DEBRIEF_TEST_MODELS || "/var/cache/debrief/models";
const SAFE = "offline — your recording is safe on this phone";
const NO_RECORDING_YET = "offline — you can still record: the recording waits on this phone for the server";
const MEETING = "Sarah will send the revised proposal by Friday.";
const RESULTS_TIMEOUT = 120_000;
const RECORD_MS = 7000;

const work = mkdtempSync(join(tmpdir(), "debrief-offline-"));
const modelsDir = join(work, "models");
const micFile = join(work, "meeting-48k.wav");

// Registered before useApp's hooks, so that the models and the microphone's file exist
// when the server and the browser start.
before(async () => {
  const bin = process.env.DEBRIEF_BIN;
  if (!bin) throw new Error("DEBRIEF_BIN is not set: point it at the debrief binary to test");
  await mkdir(modelsDir);
  for (const model of ["whisper-tiny.en-ct2", "all-minilm-l6-v2"]) {
    await run(bin, ["models", "import", join(MODELS, model), "--models-dir", modelsDir]);
  }
  const raw = join(work, "raw.wav");
  await run("espeak-ng", ["-v", "en-us", "-s", "150", "-w", raw, MEETING]);
  // The fake microphone plays the file in a loop: a pause on each side keeps the words whole.
  await run("sox", [raw, "-r", "48000", "-c", "1", "-b", "16", micFile, "pad", "0.4", "0.4"]);
});
after(() => rm(work, { recursive: true, force: true }));

const app = useApp({
  args: ["--models-dir", modelsDir],
  browserArgs: [
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
    `--use-file-for-fake-audio-capture=${micFile}`,
  ],
});

const banner = (page, text) => page.locator("main > .status-bar").getByText(text, { exact: true });
const waiting = (page) => page.locator(".card").filter({ has: page.getByRole("heading", { name: "Waiting for the server" }) });

/** Every record of one object store of the phone's recordings database. */
function stored(page, store) {
  return page.evaluate(
    (name) =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open("debrief-recordings");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains(name)) return resolve([]);
          const req = db.transaction(name).objectStore(name).getAll();
          req.onsuccess = () => {
            resolve(req.result.map(({ pcm: _pcm, photo: _photo, ...rest }) => rest));
            db.close();
          };
          req.onerror = () => reject(req.error);
        };
      }),
    store,
  );
}

async function openNewClient(page) {
  const signedIn = await signIn(page);
  await page.goto("/");
  await heading(page, "New Client").waitFor();
  // The shell is kept once the service worker controls the page.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 });
  return signedIn;
}

async function recordMeeting(page) {
  await page.getByRole("button", { name: "Start Recording" }).click();
  await page.locator(".recorder").getByText("Recording", { exact: true }).waitFor();
  await page.waitForTimeout(RECORD_MS);
  await page.getByRole("button", { name: "STOP RECORDING" }).click();
  await page.locator(".recorder").getByText("Recording Complete").waitFor();
}

async function saveOnPhone(page, client) {
  await page.getByLabel("Full Name", { exact: true }).fill(client.name);
  await page.getByLabel("Email Address", { exact: true }).fill(client.email);
  await page.getByLabel("Phone Number", { exact: true }).fill(client.phone);
  await page.getByRole("button", { name: "Save Client" }).click();
  await seeToast(page, "Saved on this phone");
  const card = waiting(page);
  await card.getByText(client.name, { exact: true }).waitFor();
  // The form is free for the next client, the recorder for the next meeting.
  assert.equal(await page.getByLabel("Full Name", { exact: true }).inputValue(), "");
  await page.getByRole("button", { name: "Start Recording" }).waitFor();
  return card;
}

/** The saved client as the server has it, found by its email. */
async function onServer(page, email) {
  const list = (await apiFromPage(page, "GET", "/api/clients")).body;
  const row = list.find((c) => c.email === email);
  assert.ok(row, `${email} is on the server`);
  return (await apiFromPage(page, "GET", `/api/clients/${row.id}`)).body;
}

describe("recording without the server", () => {
  test("the network cut: recorded and kept on the phone, then uploaded and transcribed once it is back", (t) =>
    app.run(t, async (page) => {
      await openNewClient(page);
      await page.context().setOffline(true);
      await banner(page, NO_RECORDING_YET).waitFor();

      await recordMeeting(page);
      await banner(page, SAFE).waitFor();
      await checkA11y(page);
      const client = { name: "Morgan Offline", email: `morgan.${Date.now()}@client.example`, phone: "555-123-4567" };
      const card = await saveOnPhone(page, client);
      await card.getByText(SAFE, { exact: true }).waitFor();
      await banner(page, SAFE).waitFor();
      const [recording] = await stored(page, "recordings");
      const [save] = await stored(page, "saves");
      assert.equal(recording.saveId, save.id, "the recording waits with its client");
      assert.equal(save.values.name, client.name);
      assert.ok(recording.samples >= 16_000 * ((RECORD_MS - 1500) / 1000), `${recording.samples} samples kept`);
      await checkA11y(page);

      // Still there when the app is opened again without a network.
      await page.reload();
      await heading(page, "New Client").waitFor();
      await waiting(page).getByText(client.name, { exact: true }).waitFor();
      await banner(page, SAFE).waitFor();

      // The network comes back: the client and the recording go to the server by themselves.
      await page.context().setOffline(false);
      await seeToast(page, "Client saved successfully", `${client.name} is saved, with what was kept on this phone.`);
      await waiting(page).waitFor({ state: "detached" });
      assert.deepEqual(await stored(page, "recordings"), [], "the phone's copy is gone once the server has it");
      assert.deepEqual(await stored(page, "saves"), []);
      assert.equal(await page.locator("main > .status-bar:visible").count(), 0, "no offline message");

      // And the server makes a transcript and a summary of it.
      const saved = await onServer(page, client.email);
      assert.ok(Math.abs(saved.recording.durationMs - recording.samples / 16) <= 1, "the whole recording");
      await page.goto("/history");
      await page.getByRole("link", { name: new RegExp(client.name) }).click();
      await heading(page, client.name).waitFor();
      const transcript = page.locator(".card").filter({ has: page.getByRole("heading", { name: "Transcript", exact: true }) });
      await transcript.getByText(/^Read the transcript/).click({ timeout: RESULTS_TIMEOUT });
      assert.match(await transcript.locator(".transcript__text").innerText(), /proposal/i);
      const summary = await page.locator(".card").filter({ has: page.getByRole("heading", { name: "Summary", exact: true }) }).innerText();
      assert.match(summary, /proposal/i);
      await checkA11y(page);
    }));

  describe("the server out of reach while the phone is online", () => {
    let dataDir;
    let server;
    before(async () => {
      dataDir = join(work, "lobby-data");
      server = await startServer({ dataDir });
    });
    after(() => server?.stop());

    test("kept on the phone, and sent as soon as the server answers again", (t) =>
      withPage(
        app.browser,
        t.name,
        async (page) => {
          await openNewClient(page);
          const bind = new URL(server.url).host;
          await server.stop();
          // Opened in the lobby: the kept shell, and the app notices the server is not there.
          await page.reload();
          await heading(page, "New Client").waitFor();
          await banner(page, NO_RECORDING_YET).waitFor();
          assert.equal(await page.evaluate(() => navigator.onLine), true, "the phone itself is online");

          await recordMeeting(page);
          await banner(page, SAFE).waitFor();
          const client = { name: "Avery Lobby", email: `avery.${Date.now()}@client.example`, phone: "555-987-6543" };
          await saveOnPhone(page, client);

          // Back at the office: the server is up again at the same address.
          server = await startServer({ dataDir, bind });
          await seeToast(page, "Client saved successfully", `${client.name} is saved, with what was kept on this phone.`);
          await waiting(page).waitFor({ state: "detached" });
          const saved = await onServer(page, client.email);
          assert.ok(saved.recording, "with its recording");
          assert.deepEqual(await stored(page, "recordings"), []);
        },
        { baseURL: server.url, server },
      ));
  });
});

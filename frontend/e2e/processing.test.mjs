// The server's work on a recording, seen from the client page: real models imported
// with the binary, a spoken meeting made with espeak-ng, and the page following the
// job live (progress bar, then summary, next steps and transcript) without a reload;
// Regenerate summary; History; and a job that waits for a missing model.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { mkdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import {
  apiFromPage,
  checkA11y,
  heading,
  signIn,
  startServer,
  uploadFromPage,
  useApp,
  withPage,
} from "./harness.mjs";
import { readWav, sha256 } from "./media.mjs";

const run = promisify(execFile);
const MODELS = process.env.DEBRIEF_TEST_MODELS || "/var/cache/debrief/models";
const MEETING =
  "Thanks for meeting today. Sarah will send the revised proposal by Friday. " +
  "I will schedule a follow-up call with the finance team next week.";
const RESULTS_TIMEOUT = 120_000;
const DONE_ANNOUNCEMENT = "Processing complete. The summary and next steps are ready.";

const work = mkdtempSync(join(tmpdir(), "debrief-processing-"));
const modelsDir = join(work, "models");
const noModelsDir = join(work, "no-models");
let meetingWav;

// Registered before useApp's hooks, so the models are in place when the server starts.
before(async () => {
  const bin = process.env.DEBRIEF_BIN;
  if (!bin) throw new Error("DEBRIEF_BIN is not set: point it at the debrief binary to test");
  await mkdir(noModelsDir);
  for (const model of ["whisper-tiny.en-ct2", "all-minilm-l6-v2"]) {
    await run(bin, ["models", "import", join(MODELS, model), "--models-dir", modelsDir]);
  }
  const raw = join(work, "raw.wav");
  const wav = join(work, "meeting.wav");
  // A US voice at a moderate pace: espeak's default rate makes tiny.en mishear names.
  await run("espeak-ng", ["-v", "en-us", "-s", "150", "-w", raw, MEETING]);
  await run("sox", [raw, "-r", "16000", "-c", "1", "-b", "16", wav]);
  meetingWav = await readFile(wav);
});
after(() => rm(work, { recursive: true, force: true }));

const app = useApp({ args: ["--models-dir", modelsDir] });

const bar = (page) => page.getByRole("progressbar", { name: "Processing progress" });
const card = (page, title) =>
  page.locator(".card").filter({ has: page.getByRole("heading", { level: 2, name: title, exact: true }) });
const historyRow = (page, name) => page.getByRole("listitem").filter({ hasText: name });
const words = (text) => text.replace(/\s+/g, " ").trim();

/** A client made through the API, shown in History (no recording yet, so no job). */
async function clientInHistory(page, name) {
  const created = await apiFromPage(page, "POST", "/api/clients", {
    clientData: { name, email: "morgan@client.example", phone: "555-123-4567", company: "Northwind", position: "CFO" },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  await page.goto("/history");
  await historyRow(page, name).getByText("No summary available").waitFor();
  return created.body;
}

/** Sends the meeting as the client's recording, the way the app uploads it. */
async function uploadMeeting(page, client, userId) {
  const wav = readWav(meetingWav);
  assert.deepEqual([wav.sampleRate, wav.channels, wav.bitsPerSample], [16_000, 1, 16], "sox made a 16 kHz mono 16-bit WAV");
  const receipt = await uploadFromPage(page, `/api/clients/${client.id}/recording`, {
    recording: { bytes: meetingWav, filename: "recording.wav", type: "audio/wav" },
    userId: String(userId),
  });
  assert.ok(receipt.status < 300, `upload answered ${receipt.status}: ${JSON.stringify(receipt.body)}`);
  assert.equal(receipt.body.sha256, sha256(meetingWav));
}

/**
 * Notes every state the Processing bar shows, however briefly, from now on; the note
 * lives on `window`, so it is also gone if the page reloads.
 */
function watchProcessing(page) {
  return page.evaluate(() => {
    const seen = [];
    window.__processingSeen = seen;
    const look = () => {
      const now = document.querySelector('[role="progressbar"][aria-label="Processing progress"]');
      const text = now ? now.getAttribute("aria-valuetext") : null;
      if (seen.length ? seen.at(-1) !== text : text !== null) seen.push(text);
    };
    new MutationObserver(look).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ["aria-valuetext"],
    });
  });
}

async function processingSeen(page) {
  const seen = await page.evaluate(() => window.__processingSeen);
  assert.ok(Array.isArray(seen), "the page was not reloaded");
  return seen;
}

const STAGES = [/^Waiting to start…$/, /^Transcribing… (\d+)%$/, /^Summarising… (\d+)%$/];

/** The bar's states in order: stages never go back, and within one the percentage never drops. */
function assertHonestProgress(states) {
  let last = { stage: -1, percent: -1 };
  for (const text of states.filter((s) => s !== null)) {
    const stage = STAGES.findIndex((re) => re.test(text));
    assert.notEqual(stage, -1, `an expected stage: ${JSON.stringify(text)} (in ${JSON.stringify(states)})`);
    const percent = Number(STAGES[stage].exec(text)[1] ?? -1);
    assert.ok(
      stage > last.stage || (stage === last.stage && percent >= last.percent),
      `progress went back: ${JSON.stringify(states)}`,
    );
    last = { stage, percent };
  }
}

async function assertResults(page) {
  const steps = card(page, "Next Steps").getByRole("listitem");
  await steps.filter({ hasText: /proposal/i }).waitFor({ timeout: RESULTS_TIMEOUT });
  await steps.filter({ hasText: /finance/i }).waitFor();
  const summary = words(await card(page, "Summary").locator(".client-detail__text").innerText());
  assert.ok(summary.length > 20, `a summary: ${JSON.stringify(summary)}`);
  await bar(page).waitFor({ state: "detached" });
  return summary;
}

describe("processing a recording", () => {
  test("a spoken meeting is transcribed and summarised while the client page watches", (t) =>
    app.run(t, async (page) => {
      const { user } = await signIn(page);
      const name = "Morgan Whitfield";
      const client = await clientInHistory(page, name);
      await watchProcessing(page);

      // Uploaded, then opened at once, as the app does after Save Client.
      await uploadMeeting(page, client, user.id);
      await historyRow(page, name).getByRole("link").click();
      await heading(page, name).waitFor();

      // Live: the bar (with its stages) and then the results, in this same document.
      const summary = await assertResults(page);
      const seen = await processingSeen(page);
      assert.ok(seen.some((s) => s !== null), `the Processing bar was shown: ${JSON.stringify(seen)}`);
      assertHonestProgress(seen);
      assert.equal(seen.at(-1), null, "the bar is gone once the work is done");
      assert.equal(await page.getByRole("status").filter({ hasText: DONE_ANNOUNCEMENT }).count(), 1, "announced");

      // The transcript, folded away until asked for.
      const transcript = card(page, "Transcript");
      const text = transcript.locator(".transcript__text");
      assert.equal(await text.isVisible(), false);
      await transcript.getByText(/^Read the transcript \(\d+ words\)$/).click();
      await text.waitFor();
      assert.match(await text.innerText(), /proposal/i);
      assert.match(await text.innerText(), /finance/i);
      await checkA11y(page);

      // What the page shows is what the server has.
      const saved = (await apiFromPage(page, "GET", `/api/clients/${client.id}`)).body;
      assert.equal(saved.job.status, "done");
      assert.equal(words(saved.summary), summary);

      // Regenerate: asks, shows the work again, and the results come back without a reload.
      await page.getByRole("button", { name: "Regenerate summary" }).click();
      const ask = page.getByRole("dialog", { name: "Regenerate summary?" });
      await ask.waitFor();
      await checkA11y(page);
      const before = seen.length;
      await ask.getByRole("button", { name: "Regenerate" }).click();
      // The dialog closes once the server took the job; the button is back once it is done.
      await ask.waitFor({ state: "hidden" });
      await page.getByRole("button", { name: "Regenerate summary" }).waitFor({ timeout: RESULTS_TIMEOUT });
      await assertResults(page);
      const again = (await processingSeen(page)).slice(before);
      assert.ok(again.some((s) => s !== null), `the Processing bar came back: ${JSON.stringify(again)}`);
      assertHonestProgress(again);

      // History, from the page's own cache and then from the server: the summary, no status.
      await page.getByRole("link", { name: "Back to History" }).click();
      await historyRow(page, name).waitFor();
      const cached = words(await historyRow(page, name).locator(".client-row__summary").innerText());
      assert.ok(summary.startsWith(cached.slice(0, 40)), `History shows the new summary: ${JSON.stringify(cached)}`);
      await page.reload();
      const fresh = words(await historyRow(page, name).locator(".client-row__summary").innerText());
      assert.ok(summary.startsWith(fresh.slice(0, 40)), `the server's list has the summary: ${JSON.stringify(fresh)}`);
      await checkA11y(page);
    }));
});

describe("processing without a speech model", () => {
  let server;
  before(async () => {
    // An empty models folder: the job has to wait for a speech model.
    server = await startServer({ args: ["--models-dir", noModelsDir] });
  });
  after(() => server?.stop());

  test("the job waits, the card says why, and History says it is processing", (t) =>
    withPage(
      app.browser,
      t.name,
      async (page) => {
        const { user } = await signIn(page);
        const name = "Avery Lindqvist";
        const client = await clientInHistory(page, name);
        await uploadMeeting(page, client, user.id);

        await page.goto(`/client/${client.id}`);
        await heading(page, name).waitFor();
        const processing = card(page, "Processing");
        await processing.getByText("Waiting for a model…").waitFor({ timeout: 30_000 });
        assert.equal(await bar(page).getAttribute("aria-valuenow"), null, "nothing to measure yet");
        const { job } = (await apiFromPage(page, "GET", `/api/clients/${client.id}`)).body;
        assert.equal(job.status, "waiting_for_model");
        assert.ok(job.error, "the server says what is missing");
        await processing.getByText(job.error, { exact: true }).waitFor();
        assert.equal(await page.getByRole("button", { name: "Regenerate summary" }).count(), 0);
        await checkA11y(page);

        await page.getByRole("link", { name: "Back to History" }).click();
        await historyRow(page, name).getByText("Processing…", { exact: true }).waitFor();
        await page.reload();
        await historyRow(page, name).getByText("Processing…", { exact: true }).waitFor();
        await checkA11y(page);
      },
      { baseURL: server.url, server },
    ));
});

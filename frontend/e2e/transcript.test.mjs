// The transcript on the client page, against the real server and real models: a
// meeting spoken by espeak-ng, transcribed into timed segments; its paragraphs play the
// recording from where they start, it is searched, a misheard name is corrected and
// the summary made again from the correction, the correction undone, and downloaded.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { mkdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { apiFromPage, checkA11y, createClient, heading, signIn, uploadFromPage, useApp } from "./harness.mjs";

const run = promisify(execFile);
const MODELS = process.env.DEBRIEF_TEST_MODELS || "/var/cache/debrief/models";
// Two stretches of speech with a long silence between them, the second past the first 30 s
// window the recogniser hears at once: two segments, and two paragraphs, at least.
const FIRST =
  "Thanks for meeting today. We talked about the new warehouse and the delivery schedule. " +
  "The budget looks fine for this quarter.";
const SECOND = "I will send the proposal to Contoso by Friday. Sarah will call the finance team next week.";
const PAUSE_S = 22;
const RESULTS_TIMEOUT = 180_000;
const NEW_NAME = "Fabrikam";

const work = mkdtempSync(join(tmpdir(), "debrief-transcript-"));
const modelsDir = join(work, "models");
let meetingWav;

// Registered before useApp's hooks, so the models are in place when the server starts.
before(async () => {
  const bin = process.env.DEBRIEF_BIN;
  if (!bin) throw new Error("DEBRIEF_BIN is not set: point it at the debrief binary to test");
  await mkdir(modelsDir, { recursive: true });
  for (const model of ["whisper-tiny.en-ct2", "all-minilm-l6-v2"]) {
    await run(bin, ["models", "import", join(MODELS, model), "--models-dir", modelsDir]);
  }
  const parts = [];
  for (const [i, text] of [FIRST, SECOND].entries()) {
    const raw = join(work, `raw-${i}.wav`);
    const part = join(work, `part-${i}.wav`);
    // A US voice at a moderate pace: espeak's default rate makes tiny.en mishear names.
    await run("espeak-ng", ["-v", "en-us", "-s", "150", "-w", raw, text]);
    await run("sox", [raw, "-r", "16000", "-c", "1", "-b", "16", part, ...(i === 0 ? ["pad", "0", String(PAUSE_S)] : [])]);
    parts.push(part);
  }
  const wav = join(work, "meeting.wav");
  await run("sox", [...parts, wav]);
  meetingWav = await readFile(wav);
});
after(() => rm(work, { recursive: true, force: true }));

const app = useApp({ args: ["--models-dir", modelsDir] });

const card = (page, title) =>
  page.locator(".card").filter({ has: page.getByRole("heading", { level: 2, name: title, exact: true }) });
const seconds = (time) => time.split(":").reduce((total, part) => total * 60 + Number(part), 0);

/** A client whose recording is the meeting, its page open once the job is done. */
async function processedClient(page) {
  const { user } = await signIn(page);
  const client = await createClient(page, { summary: "", name: "Jordan Okafor" });
  const receipt = await uploadFromPage(page, `/api/clients/${client.id}/recording`, {
    recording: { bytes: meetingWav, filename: "recording.wav", type: "audio/wav" },
    userId: String(user.id),
  });
  assert.ok(receipt.status < 300, `upload answered ${receipt.status}: ${JSON.stringify(receipt.body)}`);
  await page.goto(`/client/${client.id}`);
  await heading(page, client.name).waitFor();
  await card(page, "Summary").getByRole("button", { name: "Regenerate summary" }).waitFor({ timeout: RESULTS_TIMEOUT });
  await page.getByRole("progressbar", { name: "Processing progress" }).waitFor({ state: "detached" });
  return client;
}

describe("the transcript on the client page", () => {
  test("a tapped paragraph plays the recording from its start, and searching marks and counts the matches", (t) =>
    app.run(t, async (page) => {
      const client = await processedClient(page);
      const transcript = card(page, "Transcript");
      const paragraphs = transcript.locator(".transcript__para");

      // Folded at first; a search opens it, marks the words and counts them.
      assert.equal(await transcript.locator(".transcript__text").isVisible(), false);
      const search = transcript.getByRole("searchbox", { name: "Search the transcript" });
      await search.fill("PROPOSAL");
      await transcript.locator(".transcript__text").waitFor();
      const marks = transcript.locator(".transcript__text mark");
      await marks.first().waitFor();
      const count = await marks.count();
      assert.match(await marks.first().innerText(), /^proposal$/i);
      const counted = transcript.locator(".transcript__count");
      assert.equal(await counted.innerText(), count === 1 ? "1 match" : `${count} matches`);
      assert.equal(await counted.getAttribute("aria-live"), "polite");
      await checkA11y(page);
      await search.fill("zebra crossing");
      await transcript.getByText("No matches", { exact: true }).waitFor();
      assert.equal(await marks.count(), 0);
      await search.fill("");
      assert.equal(await counted.isVisible(), false);

      // Paragraphs with times; a tap on the second plays the recording from its start.
      const times = await paragraphs.locator(".transcript__time").allInnerTexts();
      assert.ok(times.length >= 2, `two paragraphs at least: ${JSON.stringify(times)}`);
      assert.equal(times[0].replace("Play from", "").trim(), "0:00");
      const start = seconds(times[1].replace("Play from", "").trim());
      assert.ok(start >= PAUSE_S, `the second paragraph starts after the pause: ${times[1]}`);
      await paragraphs.nth(1).click();
      const audio = page.locator("audio.client-detail__audio");
      const at = await audio.evaluate((el) => el.currentTime);
      assert.ok(at >= start && at < start + 1.5, `the recording moved to ${at} s, the paragraph starts at ${start} s`);
      await transcript.locator('.transcript__para[aria-current="true"]').waitFor();
      assert.equal(await paragraphs.nth(1).getAttribute("aria-current"), "true");
      assert.equal(await paragraphs.nth(0).getAttribute("aria-current"), null);
      // Back to the first: the highlight follows the recording.
      await paragraphs.nth(0).getByRole("button", { name: `Play from ${times[0].replace("Play from", "").trim()}` }).focus();
      await page.keyboard.press("Enter");
      await paragraphs.nth(0).and(page.locator('[aria-current="true"]')).waitFor();
      assert.ok((await audio.evaluate((el) => el.currentTime)) < start);
      await audio.evaluate((el) => el.pause());
      await checkA11y(page);

      // Downloads, as attachments named after the client.
      const vtt = await page.request.get(await transcript.getByRole("link", { name: /\.vtt$/ }).getAttribute("href"));
      assert.equal(vtt.status(), 200);
      assert.match(vtt.headers()["content-disposition"], new RegExp(`attachment; filename="transcript-${client.id}\\.vtt"`));
      assert.match(await vtt.text(), /^WEBVTT/);
      for (const format of ["txt", "srt"]) {
        const href = await transcript.getByRole("link", { name: `Download the transcript as .${format}` }).getAttribute("href");
        assert.equal(href, `/api/clients/${client.id}/transcript/export?format=${format}`);
      }
    }));

  test("a corrected name reaches the summary once it is made again, and the correction can be undone", (t) =>
    app.run(t, async (page) => {
      const client = await processedClient(page);
      const transcript = card(page, "Transcript");
      await transcript.getByText(/^Read the transcript \(\d+ words\)$/).click();
      await transcript.getByRole("button", { name: "Edit", exact: true }).click();

      // The segment saying the commitment gets the right company, the rest of it kept.
      const fields = transcript.getByRole("textbox");
      const texts = await fields.evaluateAll((els) => els.map((el) => el.value));
      const which = texts.findIndex((text) => /proposal/i.test(text));
      assert.notEqual(which, -1, `a segment with the proposal: ${JSON.stringify(texts)}`);
      const corrected = texts[which]
        .split(/(?<=[.!?])\s+/)
        .map((sentence) => (/proposal/i.test(sentence) ? `I will send the proposal to ${NEW_NAME} by Friday.` : sentence))
        .join(" ");
      assert.match(await transcript.getByLabel(/^\d+:\d\d – \d+:\d\d$/).nth(which).inputValue(), /proposal/i);
      await fields.nth(which).fill(corrected);
      await checkA11y(page);
      const puts = [];
      page.on("request", (req) => {
        if (req.method() === "PUT") puts.push(JSON.parse(req.postData()));
      });
      await transcript.getByRole("button", { name: "Save" }).click();
      await transcript.getByText("Corrections saved.", { exact: false }).waitFor();
      assert.equal(puts.length, 1);
      assert.equal(puts[0].segments.length, texts.length, "one text for each segment");
      assert.equal(puts[0].segments[which].text, corrected);
      assert.match(await transcript.locator(".transcript__text").innerText(), new RegExp(NEW_NAME));
      const saved = (await apiFromPage(page, "GET", `/api/clients/${client.id}/transcript`)).body;
      assert.equal(saved.corrected, true);
      assert.match((await apiFromPage(page, "GET", `/api/clients/${client.id}`)).body.transcription, new RegExp(NEW_NAME));

      // The summary made again from the corrected words.
      await transcript.getByRole("button", { name: "Regenerate summary" }).click();
      const ask = page.getByRole("dialog", { name: "Regenerate summary?" });
      await ask.getByRole("button", { name: "Regenerate" }).click();
      await ask.waitFor({ state: "hidden" });
      await page
        .locator(".card")
        .filter({ hasText: NEW_NAME })
        .filter({ has: page.getByRole("heading", { level: 2, name: /^(Summary|Next Steps)$/ }) })
        .first()
        .waitFor({ timeout: RESULTS_TIMEOUT });

      // Undone: the recogniser's words again, on the page and on the server.
      await page.getByRole("progressbar", { name: "Processing progress" }).waitFor({ state: "detached", timeout: RESULTS_TIMEOUT });
      const paragraphs = transcript.locator(".transcript__text");
      await paragraphs.waitFor();
      await transcript.getByRole("button", { name: "Undo corrections" }).click();
      const undo = page.getByRole("dialog", { name: "Undo corrections?" });
      await checkA11y(page);
      await undo.getByRole("button", { name: "Undo corrections" }).click();
      await transcript.getByText("Corrections undone.", { exact: false }).waitFor();
      assert.doesNotMatch(await paragraphs.innerText(), new RegExp(`to ${NEW_NAME} by`));
      assert.equal(await transcript.getByRole("button", { name: "Undo corrections" }).count(), 0);
      const undone = (await apiFromPage(page, "GET", `/api/clients/${client.id}/transcript`)).body;
      assert.equal(undone.corrected, false);
      await checkA11y(page);
    }));
});

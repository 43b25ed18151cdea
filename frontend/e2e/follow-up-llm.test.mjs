// The follow-up a consultant sends, from a spoken meeting through the running server
// with the instruct LLM installed (auto runs it where memory allows): two voices made
// with espeak-ng, Whisper tiny.en, the embedding path's steps checked by the LLM, and
// the email preview listing the steps by owner, each with its date. A step the owner
// ticked off stays ticked through Regenerate.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { apiFromPage, framed, openEmailPreview, signIn, uploadFromPage, useApp } from "./harness.mjs";
import { importModels, TEST_MODELS } from "./speech.mjs";

const run = promisify(execFile);
// The consultant (a US voice) and the client (a British one), turn by turn.
const TURNS = [
  ["en-us", "Thanks for coming in today, Morgan. Let me go through what happens next."],
  ["en-us", "I will send you the revised proposal by Friday."],
  ["en-gb", "Good. I will send you the signed contract by Tuesday."],
  ["en-us", "Our engineer, Priya, will visit the site on the fifteenth."],
  ["en-us", "I will also book the training session for next week."],
  ["en-gb", "And I will confirm the final headcount by Thursday."],
];
// Each step by what it must name, and whether the meeting gave it a day.
const STEPS = [
  { words: /proposal/i, dated: true },
  { words: /contract/i, dated: true },
  { words: /site|priya/i, dated: true },
  { words: /training/i, dated: false },
  { words: /headcount/i, dated: true },
];
const RESULTS_TIMEOUT = 8 * 60_000;

const work = mkdtempSync(join(tmpdir(), "debrief-follow-up-llm-"));
const modelsDir = join(work, "models");
let meetingWav;

before(async () => {
  await importModels(modelsDir, TEST_MODELS, ["whisper-tiny.en-ct2", "all-minilm-l6-v2", "qwen-coder-1.5b"]);
  const parts = [];
  for (const [n, [voice, text]] of TURNS.entries()) {
    const part = join(work, `turn-${n}.wav`);
    await run("espeak-ng", ["-v", voice, "-s", "150", "-w", part, text]);
    parts.push(part);
  }
  const wav = join(work, "meeting.wav");
  await run("sox", [...parts, "-r", "16000", "-c", "1", "-b", "16", wav]);
  meetingWav = await readFile(wav);
});
after(() => rm(work, { recursive: true, force: true }));

const app = useApp({ args: ["--models-dir", modelsDir] });

/** The client, once its job is done (and, with `since`, done again after that time). */
async function processed(page, id, since) {
  const deadline = Date.now() + RESULTS_TIMEOUT;
  for (;;) {
    const client = (await apiFromPage(page, "GET", `/api/clients/${id}`)).body;
    if (client.job?.status === "done" && client.job.updatedAt !== since) return client;
    assert.notEqual(client.job?.status, "failed", JSON.stringify(client.job));
    assert.ok(Date.now() < deadline, `the job did not finish: ${JSON.stringify(client.job)}`);
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

describe("the follow-up of a spoken meeting, with the LLM", () => {
  test("the preview lists the steps by owner with their dates, and Regenerate keeps a ticked step", (t) =>
    app.run(t, async (page) => {
      const { user } = await signIn(page);
      const created = await apiFromPage(page, "POST", "/api/clients", {
        clientData: { name: "Morgan Reyes", email: "morgan@client.example", phone: "555-123-4567", company: "Northwind" },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id = created.body.id;
      const upload = await uploadFromPage(page, `/api/clients/${id}/recording`, {
        recording: { bytes: meetingWav, filename: "recording.wav", type: "audio/wav" },
        userId: String(user.id),
      });
      assert.ok(upload.status < 300, JSON.stringify(upload.body));
      const client = await processed(page, id);
      assert.ok(["llm", "extractive"].includes(client.summarySource), JSON.stringify(client.summarySource));

      await openEmailPreview(page, client);
      await framed(page).getByRole("heading", { name: "Next Steps" }).waitFor();
      const text = (await apiFromPage(page, "GET", `/api/clients/${id}/email`)).body.text;
      const lines = text.split("\n").filter((l) => l.startsWith("- "));
      const found = STEPS.map((step) => lines.find((l) => step.words.test(l)));
      assert.ok(found.filter(Boolean).length >= 4, `at least 4 of the 5 steps: ${JSON.stringify(lines)}`);
      for (const [n, line] of found.entries()) {
        if (line && STEPS[n].dated) assert.match(line, / — by \w+day \d{1,2} \w+/, `its date spelled out: ${line}`);
      }
      const owners = ["From us", "From you", "Others"].filter((h) => text.includes(`\n${h}\n`));
      assert.ok(owners.length >= 1, `grouped by owner where known: ${text}`);

      // The owner ticks a step off; Regenerate rewrites only what nobody touched.
      const ticked = client.actionItems[0];
      const done = await apiFromPage(page, "PATCH", `/api/next-steps/${ticked.id}`, { done: true });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      const again = await apiFromPage(page, "POST", `/api/clients/${id}/summary/regenerate`);
      assert.ok(again.status < 300, JSON.stringify(again.body));
      const regenerated = await processed(page, id, client.job.updatedAt);
      const kept = regenerated.actionItems.find((item) => item.id === ticked.id);
      assert.ok(kept?.done, `the ticked step stays ticked: ${JSON.stringify(regenerated.actionItems)}`);
    }));
});

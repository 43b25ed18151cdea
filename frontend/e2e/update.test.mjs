// A new version reaching a phone that has the app open. The app is served from a
// folder built here, so that a new version can be put in place mid-test: its
// service worker takes over at once, the page offers "A new version is ready —
// Reload" but never while a recording is under way, and leaving the screen loads it.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { checkA11y, heading, signIn, useApp } from "./harness.mjs";
import { makeSpeechLikeWav } from "./media.mjs";

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), "debrief-update-"));
const dist = join(work, "dist");
const micFile = join(work, "speech-48k.wav");
writeFileSync(micFile, makeSpeechLikeWav(48_000, 4));

// Registered before useApp's hooks: the server starts on the folder built here.
before(async () => {
  const frontend = dirname(dirname(fileURLToPath(import.meta.url)));
  await run(process.execPath, [join(frontend, "build.mjs"), "--outdir", dist, "--release"]);
});
after(() => rm(work, { recursive: true, force: true }));

const app = useApp({
  env: { DEBRIEF_DEV_ASSETS: dist },
  browserArgs: [
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
    `--use-file-for-fake-audio-capture=${micFile}`,
  ],
});

let deployed = 0;
let live; // the version sw.js names now

/** Puts a new version of the app in place: the service worker changes, as with every release. */
async function deploy() {
  live ??= JSON.parse(await readFile(join(dist, "build-report.json"), "utf8")).serviceWorker.version;
  const next = `${live.slice(0, 10)}${String(++deployed).padStart(2, "0")}`;
  const sw = join(dist, "sw.js");
  const script = await readFile(sw, "utf8");
  assert.ok(script.includes(live), "the worker names its version");
  await writeFile(sw, script.replaceAll(live, next));
  // The server prefers the compressed copies: they must not hold the old worker.
  await Promise.all([rm(`${sw}.gz`, { force: true }), rm(`${sw}.br`, { force: true })]);
  live = next;
  return next;
}

/** Asks the browser to look for a new worker and waits until one controls the page. */
async function takeOver(page) {
  await page.evaluate(async () => {
    const changed = new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
    await (await navigator.serviceWorker.getRegistration()).update();
    await changed;
  });
}

const kept = (page) => page.evaluate(() => caches.keys());

/** Waits until the kept versions are these (the worker tidies up as it activates, after taking over). */
const keeps = (page, names) =>
  page.waitForFunction(async (expected) => JSON.stringify(await caches.keys()) === JSON.stringify(expected), names);
const updateBar = (page) => page.getByRole("status").filter({ hasText: "A new version is ready" });

describe("a new version", () => {
  test("is offered once it takes over, never during a recording, and leaving the screen loads it", (t) =>
    app.run(t, async (page) => {
      await signIn(page);
      await page.goto("/");
      await heading(page, "New Client").waitFor();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 });
      const [first] = await kept(page);

      await page.getByRole("button", { name: "Start Recording" }).click();
      await page.locator(".recorder").getByText("Recording", { exact: true }).waitFor();
      const second = await deploy();
      await takeOver(page);
      // The old files stay, for pages still running the old code.
      await keeps(page, [first, `debrief-shell-${second}`]);
      await page.waitForTimeout(1000);
      assert.equal(await updateBar(page).count(), 0, "nothing offered mid-recording");
      await page.getByRole("button", { name: "STOP RECORDING" }).click();
      await page.locator(".recorder").getByText("Recording Complete").waitFor();
      assert.equal(await updateBar(page).count(), 0, "nor while the recording waits to be saved");

      await page.getByRole("button", { name: "Record Again" }).click();
      await page.getByRole("button", { name: "Discard and Record Again" }).click();
      await updateBar(page).waitFor();
      await updateBar(page).getByRole("button", { name: "Reload" }).waitFor();
      await checkA11y(page);

      // Leaving the screen loads the new version instead.
      await page.evaluate(() => (window.__oldPage = true));
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "History" }).click();
      await heading(page, "History").waitFor();
      await page.waitForFunction(() => window.__oldPage === undefined);
      assert.equal(new URL(page.url()).pathname, "/history");
      assert.equal(await updateBar(page).count(), 0);

      // The next one: the oldest files go, and Reload loads it.
      const third = await deploy();
      await takeOver(page);
      await keeps(page, [`debrief-shell-${second}`, `debrief-shell-${third}`]);
      await page.evaluate(() => (window.__oldPage = true));
      await updateBar(page).getByRole("button", { name: "Reload" }).click();
      await heading(page, "History").waitFor();
      await page.waitForFunction(() => window.__oldPage === undefined);
    }));
});

// The review of every screen: each screen of the product and each state that matters,
// rendered at 360×740, 390×844 and 1280×800 in the light and the dark scheme, saved to
// $DEBRIEF_E2E_ARTIFACTS/screens/ with a contact sheet of the 390×844 ones, and checked
// for overflow, overlaps, small touch targets and serious axe-core violations. Then the
// keyboard: every control reached with a visible focus, a focused field never hidden
// by the on-screen keyboard, and no motion when the system asks for less.
//
// DEBRIEF_SCREENS=REGEXP reviews only the states whose name matches (the seeding is
// the same), for work on one screen.

import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ARTIFACTS_DIR, openBrowser } from "./harness.mjs";
import { axeProblems, contactSheet, focusProblems, layoutProblems, motionProblems, settle } from "./screens-checks.mjs";
import { heldRoute, signInAs, toastShown } from "./screens-moves.mjs";
import { seedWorld } from "./screens-seed.mjs";
import { reviewStates } from "./screens-states.mjs";

const MODELS = process.env.DEBRIEF_TEST_MODELS || "/var/cache/debrief/models";
const SHOTS = join(ARTIFACTS_DIR, "screens");
const SIZES = [
  { name: "360x740", context: { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } },
  { name: "390x844", context: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } },
  { name: "1280x800", context: { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, isMobile: false, hasTouch: false } },
];
const SCHEMES = ["light", "dark"];
const SHEET_SIZE = "390x844";
// Past this many screens of height a picture of the whole page says nothing more (a
// thousand rows): only the first screen is shot.
const FULL_PAGE_SCREENS = 6;
// A phone's on-screen keyboard takes about this much of a 740 px high screen.
const KEYBOARD_HEIGHT = 300;

const work = mkdtempSync(join(tmpdir(), "debrief-screens-"));
const world = {};
const pages = new Map(); // size name → its page
let browser;

const at = (page, path) => page.goto(`${world.main.url}${path}`);

/**
 * One state at one size in both schemes: `{ failures, sheetFile }`. A state that could
 * not be brought about is tried once more from a blank page, and the log says so with
 * where the page was: the review is of layouts, and one lost moment on a loaded machine
 * (a held request's spinner not seen in 30 s) is not a layout problem; twice is a failure.
 */
async function showState(state, size) {
  const page = pages.get(size.name);
  const where = `${state.name} at ${size.name}`;
  let missed = null;
  for (let attempt = 1; ; attempt++) {
    try {
      return await showStateOnce(page, state, size, where);
    } catch (err) {
      page.who = undefined;
      const why = `${err.message.split("\n")[0]} (page at ${page.url()})`;
      if (attempt === 2) return { failures: [`${where}: could not be shown: ${missed}; again: ${why}`], sheetFile: null };
      missed = why;
      console.log(`# ${where}: could not be shown, trying once more: ${why}`);
    }
  }
}

async function showStateOnce(page, state, size, where) {
  const failures = [];
  let sheetFile = null;
  // Leaving the page first drops the requests the last state held, unanswered.
  await page.goto("about:blank");
  await page.unrouteAll({ behavior: "ignoreErrors" });
  await signInAs(page, state.as, world);
  for (const [i, scheme] of SCHEMES.entries()) {
    if (i === 0 || state.reopen) {
      await page.emulateMedia({ colorScheme: scheme });
      await state.open(page);
    }
    const forSheet = size.name === SHEET_SIZE && scheme === "light";
    const { first, problems } = await review(page, state, size, scheme, { firstScreen: forSheet, recheck: i > 0 && !state.reopen });
    for (const problem of problems) failures.push(`${where}, ${scheme}: ${problem}`);
    if (forSheet) sheetFile = first;
  }
  return { failures, sheetFile };
}

/**
 * Screenshot and checks of the page as it is now; returns the picture and the problems
 * found. With `firstScreen`, also a picture of the first screen alone, for the sheet;
 * `recheck` says the same page was checked in the other scheme a moment ago.
 */
async function review(page, state, size, scheme, { firstScreen, recheck }) {
  await page.emulateMedia({ colorScheme: scheme });
  await settle(page);
  const name = `${state.name}--${size.name}--${scheme}.png`;
  const shots = { file: join(SHOTS, name), first: firstScreen ? join(SHOTS, "first-screen", name) : null };
  if (shots.first) await page.screenshot({ path: shots.first });
  // A page longer than the screen is shot in a window as tall as the page, so the
  // bottom bar sits at its end as when scrolled there (a full-page capture paints the
  // fixed bar half-way down). Not with a modal dialog open: the dialog is the screen.
  const viewport = page.viewportSize();
  const height = await page.evaluate(() => (document.querySelector("dialog:modal") ? 0 : document.documentElement.scrollHeight));
  const grow = height > viewport.height && height <= FULL_PAGE_SCREENS * viewport.height;
  if (grow) await page.setViewportSize({ width: viewport.width, height });
  await page.screenshot({ path: shots.file });
  if (grow) await page.setViewportSize(viewport);
  const problems = [...(await layoutProblems(page)), ...(await axeProblems(page, { coloursOnly: recheck }))];
  return { ...shots, problems };
}

/** A page of its own (a fresh context) at `size`, for the keyboard and motion tests. */
async function freshPage(size, options = {}) {
  const context = await browser.newContext({ locale: "en-US", ...size.context, ...options });
  return context.newPage();
}

describe("screen review", () => {
  before(async () => {
    await rm(SHOTS, { recursive: true, force: true });
    await mkdir(join(SHOTS, "first-screen"), { recursive: true });
    // A fake microphone (a beep) for the recorder's states, allowed without asking.
    browser = await openBrowser({ args: ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"] });
    const seeding = Date.now();
    await seedWorld(world, work, MODELS);
    console.log(`# seeded in ${Math.round((Date.now() - seeding) / 1000)} s`);
    for (const size of SIZES) {
      const context = await browser.newContext({ locale: "en-US", ...size.context });
      await context.grantPermissions(["microphone"]);
      pages.set(size.name, await context.newPage());
    }
  });
  after(async () => {
    await browser?.close();
    await Promise.all([world.main?.stop(), world.second?.stop()]);
    await rm(work, { recursive: true, force: true });
  });

  test("every screen and state at 360×740, 390×844 and 1280×800, light and dark: no overflow, overlap, small target or serious axe violation", async () => {
    const failures = [];
    const sheet = [];
    const started = Date.now();
    const spent = new Map();
    const only = new RegExp(process.env.DEBRIEF_SCREENS ?? "");
    const states = reviewStates(world).filter((s) => only.test(s.name));
    for (const state of states) {
      const stateStarted = Date.now();
      // The three sizes at once: each has its own page, and the machine's two cores
      // are better used by three renderers than by one.
      const results = await Promise.all(SIZES.map((size) => showState(state, size)));
      for (const result of results) {
        failures.push(...result.failures);
        if (result.sheetFile) sheet.push({ label: state.title, file: result.sheetFile });
      }
      spent.set(state.name, Date.now() - stateStarted);
    }
    const seconds = Math.round((Date.now() - started) / 1000);
    const slowest = [...spent].sort((a, b) => b[1] - a[1]).slice(0, 5);
    console.log(`# ${states.length} states × ${SIZES.length} sizes × ${SCHEMES.length} schemes in ${seconds} s, pictures in ${SHOTS}`);
    console.log(`# slowest: ${slowest.map(([name, ms]) => `${name} ${(ms / 1000).toFixed(1)} s`).join(", ")}`);
    await contactSheet(browser, sheet, { path: join(SHOTS, `contact-sheet-${SHEET_SIZE}.jpg`), width: 195, height: 422, columns: 8 });
    assert.deepEqual(failures, [], `${failures.length} problem(s):\n${failures.join("\n")}`);
  });

  test("keyboard: Tab reaches every control of Login and New Client in order, each with a visible focus, none under the bottom bar", async () => {
    const page = await freshPage(SIZES[1]);
    try {
      const problems = [];
      for (const [who, path, ready] of [
        [null, "/login", "Sign In"],
        ["main", "/", "Save Client"],
      ]) {
        await signInAs(page, who, world);
        await at(page, path);
        await page.getByRole("button", { name: ready }).waitFor();
        for (const problem of await focusProblems(page)) problems.push(`${path}: ${problem}`);
      }
      assert.deepEqual(problems, []);

      // Operable too: Enter opens the card dialog, Escape closes it and gives the focus back.
      const scan = page.getByRole("button", { name: "Scan Business Card" });
      await scan.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "Scan Business Card" });
      await dialog.waitFor();
      assert.ok(await dialog.evaluate((d) => d.contains(document.activeElement)), "the focus moved into the dialog");
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      assert.ok(await scan.evaluate((b) => b === document.activeElement), "the focus is back on Scan Business Card");
    } finally {
      await page.context().close();
    }
  });

  test("at 360×740 the last field of Signup and of New Client stays in view with the on-screen keyboard up", async () => {
    // The keyboard is approximated by a viewport shorter by its height, as when it
    // resizes the page; then, as a phone does once the keyboard is up, the focused
    // field is scrolled into view the nearest way.
    const page = await freshPage(SIZES[0]);
    const { width, height } = SIZES[0].context.viewport;
    try {
      const problems = [];
      for (const [who, path, label] of [
        [null, "/signup", "LinkedIn URL (optional)"],
        ["main", "/", "Position"],
      ]) {
        await page.setViewportSize({ width, height });
        await signInAs(page, who, world);
        await at(page, path);
        const field = page.getByLabel(label, { exact: true });
        await field.focus();
        await page.setViewportSize({ width, height: height - KEYBOARD_HEIGHT });
        const place = await field.evaluate((el) => {
          el.scrollIntoView({ block: "nearest" });
          const r = el.getBoundingClientRect();
          const nav = [...document.querySelectorAll("nav")].find((n) => getComputedStyle(n).position === "fixed");
          return { top: r.top, bottom: r.bottom, visibleBottom: nav ? nav.getBoundingClientRect().top : innerHeight };
        });
        if (place.top < 0 || place.bottom > place.visibleBottom) {
          problems.push(`${path}: "${label}" spans ${Math.round(place.top)}…${Math.round(place.bottom)} px; the visible part ends at ${Math.round(place.visibleBottom)} px`);
        }
      }
      assert.deepEqual(problems, []);
    } finally {
      await page.context().close();
    }
  });

  test("with reduced motion nothing moves: no transition, and animations only fade", async () => {
    const page = await freshPage(SIZES[1], { reducedMotion: "reduce" });
    try {
      const problems = [];
      const look = async (what) => {
        for (const problem of await motionProblems(page)) problems.push(`${what}: ${problem}`);
      };
      await signInAs(page, null, world);
      await at(page, "/login");
      await page.getByLabel("Email", { exact: true }).fill(world.accounts.empty.fields.email);
      await page.getByLabel("Password", { exact: true }).fill("not the password");
      await page.getByRole("button", { name: "Sign In" }).click();
      await toastShown(page, "Login failed");
      await look("a toast");
      await signInAs(page, "main", world);
      await heldRoute(page, "**/api/clients");
      await at(page, "/history");
      await page.getByRole("status", { name: "Loading clients" }).waitFor();
      await look("a spinner");
      await page.unrouteAll({ behavior: "ignoreErrors" });
      await at(page, "/");
      await page.getByRole("button", { name: "Scan Business Card" }).click();
      await page.getByRole("dialog", { name: "Scan Business Card" }).waitFor();
      await look("a dialog");
      assert.deepEqual(problems, []);
    } finally {
      await page.context().close();
    }
  });
});

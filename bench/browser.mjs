#!/usr/bin/env node
// A signed-out visitor's first visit to /login in Chromium, timed the way a slow phone
// would see it. Prints JSON: the first-contentful-paint of every run (CPU slowed by
// --throttle, and at full speed, interleaved so a busy moment of the machine hurts
// both alike), the largest-contentful-paint of the slowed runs (the form itself) and every script URL the page loaded, for the caller to weigh on the wire.
//
//   node bench/browser.mjs --url URL --runs N --throttle RATE

import { parseArgs } from "node:util";
import { heading, newPhonePage, openBrowser, pageProblems } from "../frontend/e2e/harness.mjs";

const PATH = "/login";

// Chunks a screen imports once it shows arrive late; this long without a new script
// request means the first page has everything it will ask for.
const SCRIPTS_QUIET_MS = 1000;

const isScript = (response) =>
  response.request().resourceType() === "script" ||
  /javascript/.test(response.headers()["content-type"] ?? "");

/** Resolves once no script has been requested or been in flight for SCRIPTS_QUIET_MS. */
function scriptsSettled(page) {
  let inFlight = 0;
  let last = Date.now();
  const isScriptRequest = (request) => request.resourceType() === "script";
  page.on("request", (request) => {
    if (isScriptRequest(request)) {
      inFlight += 1;
      last = Date.now();
    }
  });
  const done = (request) => {
    if (isScriptRequest(request)) {
      inFlight -= 1;
      last = Date.now();
    }
  };
  page.on("requestfinished", done);
  page.on("requestfailed", done);
  return async () => {
    while (inFlight > 0 || Date.now() - last < SCRIPTS_QUIET_MS) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
}

/**
 * The page's own first-contentful-paint entry, read through a bare DevTools evaluation:
 * Playwright's waitForFunction would first inject its helper script, which on a 4×
 * slowed CPU costs the page over 100 ms of main thread while it is still painting.
 */
async function firstContentfulPaint(cdp) {
  const { result, exceptionDetails } = await cdp.send("Runtime.evaluate", {
    expression: `new Promise((resolve) => {
      const read = () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime;
      if (read() !== undefined) return resolve(read());
      new PerformanceObserver((_, observer) => {
        if (read() === undefined) return;
        observer.disconnect();
        resolve(read());
      }).observe({ type: "paint" });
    })`,
    awaitPromise: true,
    returnByValue: true,
  });
  if (exceptionDetails) throw new Error(`reading first-contentful-paint: ${exceptionDetails.text}`);
  return result.value;
}

/**
 * When the largest content (the sign-in form, not the launch screen) was painted: the
 * last largest-contentful-paint candidate, read once the form is up.
 */
async function largestContentfulPaint(cdp) {
  const { result, exceptionDetails } = await cdp.send("Runtime.evaluate", {
    expression: `new Promise((resolve) => {
      new PerformanceObserver((list, observer) => {
        observer.disconnect();
        resolve(list.getEntries().at(-1).startTime);
      }).observe({ type: "largest-contentful-paint", buffered: true });
    })`,
    awaitPromise: true,
    returnByValue: true,
  });
  if (exceptionDetails) throw new Error(`reading largest-contentful-paint: ${exceptionDetails.text}`);
  return result.value;
}

/** One cold visit: a fresh context has an empty cache, so every file comes over the network. */
async function visit(browser, url, rate) {
  const page = await newPhonePage(browser, { baseURL: url });
  try {
    const scripts = new Set();
    const settled = scriptsSettled(page);
    page.on("response", (response) => {
      if (isScript(response)) scripts.add(response.url());
    });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate });
    await page.goto(PATH);
    const fcpMs = await firstContentfulPaint(cdp);
    // The sign-in form itself, and the chunks it pulls in after it shows, belong to the first page.
    await heading(page, "Welcome back").waitFor();
    await settled();
    const lcpMs = await largestContentfulPaint(cdp);
    const problems = pageProblems(page);
    if (problems.length > 0) throw new Error(`${PATH} reported errors:\n${problems.join("\n")}`);
    return { fcpMs, lcpMs, scripts: [...scripts] };
  } finally {
    await page.context().close();
  }
}

async function main() {
  const { url, runs, throttle } = parseArgs({
    options: { url: { type: "string" }, runs: { type: "string" }, throttle: { type: "string" } },
  }).values;
  const count = Number(runs);
  const rate = Number(throttle);
  if (!url || !(count >= 1) || !(rate >= 1)) {
    throw new Error("usage: node bench/browser.mjs --url URL --runs N --throttle RATE");
  }

  const browser = await openBrowser();
  try {
    // A browser just started is still busy with its own pages for a few seconds; one
    // visit nobody counts lets that settle, as on a phone whose browser is already open.
    await visit(browser, url, 1);
    const result = { path: PATH, throttle: rate, throttledFcpMs: [], throttledLcpMs: [], fcpMs: [], scripts: new Set() };
    for (let i = 0; i < count; i += 1) {
      const throttled = await visit(browser, url, rate);
      result.throttledFcpMs.push(throttled.fcpMs);
      result.throttledLcpMs.push(throttled.lcpMs);
      const full = await visit(browser, url, 1);
      result.fcpMs.push(full.fcpMs);
      for (const s of [...throttled.scripts, ...full.scripts]) result.scripts.add(s);
    }
    console.log(JSON.stringify({ ...result, scripts: [...result.scripts].sort() }));
  } finally {
    await browser.close();
  }
}

main().catch((err) => {
  console.error(err?.stack ?? String(err));
  process.exit(1);
});

// Browser-test harness: the real `debrief` binary on a random port with a fresh data
// directory, Debian's Chromium through playwright-core at phone size, axe-core checks,
// and a screenshot of the page whenever a test fails.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before } from "node:test";
import { chromium } from "playwright-core";

const require = createRequire(import.meta.url);

export const CHROMIUM_PATH = "/usr/bin/chromium";
export const PHONE = { width: 390, height: 844 };
export const ARTIFACTS_DIR =
  process.env.DEBRIEF_E2E_ARTIFACTS || join(tmpdir(), "debrief-e2e-artifacts");
const READY_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 10_000;
const OUTPUT_LIMIT = 256 * 1024;

const running = new Set();
process.on("exit", () => {
  for (const proc of running) proc.kill("SIGKILL");
});

/**
 * Start `$DEBRIEF_BIN serve --http --bind 127.0.0.1:0 --data-dir <fresh dir> ...args`.
 * DEBRIEF_DEV_ASSETS (and the rest of this process's environment) passes through;
 * `env` adds to it. Resolves once the server prints `ready: URL`. `bind` names the
 * port (to start a server again where it was); `http: false` serves HTTPS with the
 * local certificate authority.
 *
 * @param {{ env?: Record<string, string>, args?: string[], dataDir?: string, bind?: string, http?: boolean }} [options]
 * @returns {Promise<{ url: string, dataDir: string, proc: import("node:child_process").ChildProcess,
 *   output: () => string, stop: () => Promise<void> }>}
 */
export async function startServer({ env = {}, args = [], dataDir, bind = "127.0.0.1:0", http = true } = {}) {
  const bin = process.env.DEBRIEF_BIN;
  if (!bin) throw new Error("DEBRIEF_BIN is not set: point it at the debrief binary to test");
  const ownDir = !dataDir;
  dataDir ??= await mkdtemp(join(tmpdir(), "debrief-e2e-data-"));

  const proc = spawn(
    bin,
    ["serve", ...(http ? ["--http"] : []), "--bind", bind, "--data-dir", dataDir, ...args],
    // Browser tests sign many accounts up from one address.
    { env: { ...process.env, DEBRIEF_SIGNUPS_PER_HOUR: "100000", ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  running.add(proc);

  let log = "";
  const append = (stream, line) => {
    log += `[${stream}] ${line}\n`;
    if (log.length > OUTPUT_LIMIT) log = log.slice(-OUTPUT_LIMIT);
  };
  const exited = new Promise((resolve) => {
    proc.once("exit", (code, signal) => {
      running.delete(proc);
      resolve({ code, signal });
    });
  });
  createInterface({ input: proc.stderr }).on("line", (line) => append("stderr", line));

  const url = await new Promise((resolve, reject) => {
    let settled = false;
    const fail = (why) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      proc.kill("SIGKILL");
      reject(new Error(`${why}\n--- server output ---\n${log}`));
    };
    const timer = setTimeout(() => fail(`no "ready:" line within ${READY_TIMEOUT_MS} ms`), READY_TIMEOUT_MS);
    proc.once("error", (err) => fail(`could not start ${bin}: ${err.message}`));
    exited.then(({ code, signal }) => fail(`server exited before it was ready (code ${code}, signal ${signal})`));
    createInterface({ input: proc.stdout }).on("line", (line) => {
      append("stdout", line);
      const match = /^ready: (\S+)$/.exec(line);
      if (match && !settled) {
        settled = true;
        clearTimeout(timer);
        resolve(match[1].replace(/\/$/, ""));
      }
    });
  });

  return {
    url,
    dataDir,
    proc,
    output: () => log,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill("SIGTERM");
        const timer = setTimeout(() => proc.kill("SIGKILL"), STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(timer);
      }
      if (ownDir && !process.env.DEBRIEF_E2E_KEEP_DATA) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The flags every Chromium of the tests runs with. */
/** `debrief admin create` on the data dir of a running server, the password on stdin. */
export async function createAdmin(dataDir, username, password) {
  const proc = spawn(
    process.env.DEBRIEF_BIN,
    ["admin", "create", "--username", username, "--password-stdin", "--data-dir", dataDir],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  let output = "";
  proc.stdout.on("data", (d) => (output += d));
  proc.stderr.on("data", (d) => (output += d));
  proc.stdin.end(`${password}\n`);
  const code = await new Promise((resolve, reject) => {
    proc.once("error", reject);
    proc.once("exit", resolve);
  });
  assert.equal(code, 0, `admin create exited with ${code}: ${output}`);
  return { username, password };
}

export const BROWSER_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Launch Debian's Chromium headless; never downloads a browser. */
export async function openBrowser({ args = [] } = {}) {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...BROWSER_ARGS, ...args] });
}

const problemsOf = new WeakMap();

/**
 * A new page in its own context at 390×844, 2× pixels, mobile with touch.
 * `options` are Playwright context options (colorScheme, baseURL, viewport...).
 * The page records uncaught errors and Content-Security-Policy violations;
 * withPage() fails the test on any.
 */
export async function newPhonePage(browser, options = {}) {
  const context = await browser.newContext({
    viewport: PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: "en-US",
    ...options,
  });
  const page = await context.newPage();
  const problems = [];
  problemsOf.set(page, problems);
  page.on("pageerror", (err) => problems.push(`uncaught error: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error" && /Content Security Policy/i.test(msg.text())) {
      problems.push(`CSP violation: ${msg.text()}`);
    }
  });
  return page;
}

/** Uncaught errors and CSP violations seen on the page so far. */
export function pageProblems(page) {
  return [...(problemsOf.get(page) ?? [])];
}

/** Save a full-page screenshot under ARTIFACTS_DIR and return its path. */
export async function saveScreenshot(page, name) {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const safe = name.replace(/[^a-z0-9._-]+/gi, "-").replace(/^-|-$/g, "").slice(0, 100) || "page";
  const path = join(ARTIFACTS_DIR, `${safe}-${Date.now()}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Run `fn(page)` on a fresh phone page; on failure print the screenshot's path (and
 * the server's output when given), then rethrow. Always closes the page's context.
 *
 * @param {import("playwright-core").Browser} browser
 * @param {string} name used for the screenshot file
 * @param {(page: import("playwright-core").Page) => Promise<void>} fn
 * @param {{ server?: { output: () => string }, allowProblems?: boolean } & Record<string, unknown>} [options]
 *   the rest are context options for newPhonePage
 */
export async function withPage(browser, name, fn, options = {}) {
  const { server, allowProblems = false, ...contextOptions } = options;
  const page = await newPhonePage(browser, contextOptions);
  try {
    await fn(page);
    if (!allowProblems) assert.deepEqual(pageProblems(page), [], "the page reported errors");
  } catch (err) {
    try {
      const path = await saveScreenshot(page, name);
      console.error(`# screenshot of the failed page "${name}" (${page.url()}): ${path}`);
    } catch (shotErr) {
      console.error(`# no screenshot for "${name}": ${shotErr.message}`);
    }
    // CI keeps the log, not the screenshot: what the page was saying goes in the log too.
    const said = await page
      .locator('[role=alert], [role=status], [aria-invalid="true"]')
      .evaluateAll((els) =>
        els.map((el) =>
          el.getAttribute("aria-invalid") === "true"
            ? `invalid ${el.labels?.[0]?.textContent?.trim()}: ${JSON.stringify(el.value)}`
            : `${el.getAttribute("role")}: ${el.textContent?.trim()}`,
        ),
      )
      .catch((sayErr) => [`(unreadable: ${sayErr.message})`]);
    console.error(`# what the page showed:\n${said.filter((line) => !line.endsWith(": ")).map((line) => `#   ${line}`).join("\n")}`);
    if (server) console.error(`# server output:\n${server.output().replace(/^/gm, "#   ")}`);
    throw err;
  } finally {
    await page.context().close();
  }
}

let axeSource;

/**
 * Run axe-core on the page as it is now and fail on any violation, listing the rule,
 * its impact and the elements. Call it on every page a test visits.
 *
 * @param {import("playwright-core").Page} page
 * @param {{ exclude?: string[], disableRules?: string[] }} [options]
 */
export async function checkA11y(page, { exclude = [], disableRules = [] } = {}) {
  axeSource ??= await readFile(require.resolve("axe-core/axe.min.js"), "utf8");
  const hasAxe = await page.evaluate(() => typeof window.axe !== "undefined");
  // Not page.addScriptTag({ content }): the server's CSP (script-src 'self') blocks
  // inline scripts, and rightly so. Evaluating through the DevTools protocol is not
  // subject to the page's CSP, and leaves no violation behind.
  if (!hasAxe) await page.evaluate(axeSource);
  // Let entry animations finish so colours are measured at rest.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => {})),
    ),
  );
  const violations = await page.evaluate(
    async ({ exclude, disableRules }) => {
      const context = exclude.length ? { exclude: exclude.map((s) => [s]) } : document;
      const rules = Object.fromEntries(disableRules.map((id) => [id, { enabled: false }]));
      const result = await window.axe.run(context, { resultTypes: ["violations"], rules });
      return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n) => `${n.target.join(" ")}${n.failureSummary ? ` — ${n.failureSummary.replace(/\s+/g, " ")}` : ""}`),
      }));
    },
    { exclude, disableRules },
  );
  if (violations.length > 0) {
    const lines = violations.map(
      (v) => `- ${v.id} (${v.impact}): ${v.help}\n${v.targets.map((t) => `    ${t}`).join("\n")}`,
    );
    assert.fail(`axe found ${violations.length} accessibility violation(s) on ${page.url()}:\n${lines.join("\n")}`);
  }
}

/**
 * Register before/after hooks that start one server and one browser for the file.
 * `app.run(t, fn, options)` runs a test body on a fresh phone page whose baseURL is
 * the server, so `page.goto("/login")` works.
 *
 * @param {{ env?: Record<string, string>, args?: string[], browserArgs?: string[] }} [options]
 *   browserArgs are extra Chromium flags (a fake microphone, say)
 */
export function useApp({ browserArgs = [], ...serverOptions } = {}) {
  const app = {
    /** @type {Awaited<ReturnType<typeof startServer>> | null} */
    server: null,
    /** @type {import("playwright-core").Browser | null} */
    browser: null,
    get url() {
      return app.server.url;
    },
    /**
     * @param {{ name: string }} t the node:test context
     * @param {(page: import("playwright-core").Page) => Promise<void>} fn
     * @param {Record<string, unknown>} [options] context options and withPage options
     */
    run(t, fn, options = {}) {
      return withPage(app.browser, t.name, fn, { baseURL: app.server.url, server: app.server, ...options });
    },
  };
  before(async () => {
    const [server, browser] = await Promise.allSettled([startServer(serverOptions), openBrowser({ args: browserArgs })]);
    if (server.status === "fulfilled") app.server = server.value;
    if (browser.status === "fulfilled") app.browser = browser.value;
    if (server.status === "rejected") throw server.reason;
    if (browser.status === "rejected") throw browser.reason;
  });
  after(async () => {
    await Promise.all([app.browser?.close(), app.server?.stop()]);
  });
  return app;
}

let userCounter = 0;

/** A valid signup payload with a unique email; `overrides` replace fields. */
export function newUserFields(overrides = {}) {
  userCounter += 1;
  const tag = `${process.pid}-${Date.now().toString(36)}-${userCounter}`;
  return {
    firstName: "Ada",
    lastName: "Lovelace",
    email: `ada-${tag}@example.com`,
    password: "correct horse battery",
    confirmPassword: "correct horse battery",
    company: "Analytical Engines",
    position: "Analyst",
    linkedinUrl: "",
    ...overrides,
  };
}

/**
 * Call the API from inside the page (same origin, the page's cookies), the way the
 * app does. Resolves with `{ status, body }`, body parsed as JSON when it is JSON.
 * The page must already show one of the app's pages.
 */
export function apiFromPage(page, method, path, body) {
  return sendFromPage(page, { method, path, json: body });
}

/**
 * POST a multipart form from inside the page, the way the app uploads files. `fields`
 * maps each name to a string or to `{ bytes, filename, type }`. Resolves like apiFromPage.
 */
export function uploadFromPage(page, path, fields) {
  const form = Object.entries(fields).map(([name, value]) =>
    typeof value === "string"
      ? [name, value]
      : [name, { base64: Buffer.from(value.bytes).toString("base64"), filename: value.filename, type: value.type }],
  );
  return sendFromPage(page, { method: "POST", path, form });
}

function sendFromPage(page, request) {
  return page.evaluate(async ({ method, path, json, form }) => {
    const headers = {};
    let body;
    if (form) {
      body = new FormData();
      for (const [name, value] of form) {
        if (typeof value === "string") body.append(name, value);
        else {
          const bytes = Uint8Array.from(atob(value.base64), (c) => c.charCodeAt(0));
          body.append(name, new Blob([bytes], { type: value.type }), value.filename);
        }
      }
    } else if (json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(json);
    }
    const res = await fetch(path, { method, credentials: "same-origin", headers, body });
    const text = await res.text();
    let parsed = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed };
  }, request);
}

/**
 * Create an account and sign in through the API; the page's context then holds the
 * session cookie. Returns `{ fields, signup, login }` (each a `{ status, body }`).
 */
export async function signUpAndLogIn(page, overrides = {}) {
  const fields = newUserFields(overrides);
  const signup = await apiFromPage(page, "POST", "/api/auth/signup", fields);
  const login =
    signup.status < 300
      ? await apiFromPage(page, "POST", "/api/auth/login", { email: fields.email, password: fields.password })
      : null;
  return { fields, signup, login };
}

// --- small helpers the screen tests share ---------------------------------------------

/** The page's h1 with this accessible name. */
export const heading = (page, name) => page.getByRole("heading", { level: 1, name });

/** The toast region. */
export const notification = (page) => page.getByRole("region", { name: "Notification" });

/** Waits for a toast with this title (and description, when given), word for word. */
export async function seeToast(page, title, description) {
  const region = notification(page);
  await region.getByText(title, { exact: true }).waitFor();
  if (description) await region.getByText(description, { exact: true }).waitFor();
}

/** The client's page, then its e-mail dialog, open once the preview's details show. */
export async function openEmailPreview(page, client) {
  await page.goto(`/client/${client.id}`);
  await heading(page, client.name).waitFor();
  await page.getByRole("button", { name: "Email Client" }).click();
  const dialog = page.getByRole("dialog", { name: "Email Preview" });
  await dialog.waitFor();
  await dialog.locator(".email-meta").waitFor();
  return dialog;
}

/** Waits until the address is `path` (a string, or a RegExp for the pathname). */
export async function onPath(page, path) {
  await page.waitForURL((url) => (typeof path === "string" ? url.pathname === path : path.test(url.pathname)));
}

/** The message shown under a field, read through the field's accessible description. */
export async function fieldError(page, label, root = page) {
  const input = root.getByLabel(label, { exact: true });
  await input.waitFor();
  return input.evaluate((el) => {
    const ids = (el.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
    const error = ids.map((id) => document.getElementById(id)).find((n) => n?.classList.contains("field__error"));
    return { invalid: el.getAttribute("aria-invalid") === "true", message: error?.textContent ?? null };
  });
}

/** Fills the sign-up form with `fields` (as {@link newUserFields} makes them); empty where one is missing. */
export async function fillSignup(page, fields) {
  const labels = {
    firstName: "First Name",
    lastName: "Last Name",
    email: "Email",
    password: "Password",
    confirmPassword: "Confirm Password",
    company: "Company",
    position: "Position",
    linkedinUrl: "LinkedIn URL (optional)",
  };
  for (const [field, label] of Object.entries(labels)) {
    await page.getByLabel(label, { exact: true }).fill(fields[field] ?? "");
  }
}

/** A new account, signed in; the page is left on /login. Returns the user record. */
export async function signIn(page) {
  await page.goto("/login");
  await heading(page, "Welcome back").waitFor();
  const { fields, signup, login } = await signUpAndLogIn(page);
  assert.ok(signup.status < 300, `signup answered ${signup.status}: ${JSON.stringify(signup.body)}`);
  assert.equal(login.status, 200, `login answered ${login.status}: ${JSON.stringify(login.body)}`);
  return { fields, user: login.body };
}

// --- clients with a summary, and the email preview ----------------------------------

/** The summary a client made by createClient has unless told otherwise. */
export const SUMMARY = "We went through the quarterly numbers and agreed on a pilot in two offices.";

let counter = 0;
/** A client's contact details, unique per call, for forms and the API. */
export function clientData(overrides = {}) {
  counter++;
  const tag = "abcdefghij"[counter % 10] + Date.now().toString(36).replace(/\d/g, "");
  return {
    name: `Grace ${tag.charAt(0).toUpperCase()}${tag.slice(1)}`,
    email: `grace.${Date.now()}.${counter}@client.example`,
    phone: "555-123-4567",
    company: "Compilers Inc",
    position: "Rear Admiral",
    ...overrides,
  };
}

/** A client made through the API, then given a summary and next steps with a PATCH. */
export async function createClient(page, { summary = SUMMARY, nextSteps = "", ...overrides } = {}) {
  const data = clientData(overrides);
  const created = await apiFromPage(page, "POST", "/api/clients", { clientData: data });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  if (!summary && !nextSteps) return created.body;
  const patched = await apiFromPage(page, "PATCH", `/api/clients/${created.body.id}`, { ...data, summary, nextSteps });
  assert.equal(patched.status, 200, JSON.stringify(patched.body));
  return patched.body;
}

/** The text of the email's HTML part as the frame shows it. */
export const framed = (page) => page.frameLocator(".email-dialog iframe");

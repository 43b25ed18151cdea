// A real SMTP server on loopback for the browser tests that send email: python's
// aiosmtpd (from $DEBRIEF_TEST_PYTHON) writing every message into a Maildir, a debrief
// server sending through it, and enough MIME to read a message back.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before } from "node:test";
import { startServer, withPage } from "./harness.mjs";

const PYTHON = process.env.DEBRIEF_TEST_PYTHON || "/var/cache/debrief/test-tools/venv/bin/python";

// --- a real SMTP server on loopback -------------------------------------------------

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForPort(port, ms) {
  const deadline = Date.now() + ms;
  for (;;) {
    const ok = await new Promise((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** aiosmtpd writing every message it receives into a Maildir. */
async function startSmtp() {
  const root = await mkdtemp(join(tmpdir(), "debrief-e2e-smtp-"));
  // A path that does not exist yet: the Maildir (with tmp/, new/, cur/) is made there.
  const maildir = join(root, "Maildir");
  const port = await freePort();
  const proc = spawn(
    PYTHON,
    ["-m", "aiosmtpd", "-n", "-l", `127.0.0.1:${port}`, "-c", "aiosmtpd.handlers.Mailbox", maildir],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let log = "";
  proc.stderr.on("data", (chunk) => (log += chunk));
  const exited = new Promise((resolve) => proc.once("exit", resolve));
  try {
    await Promise.race([
      waitForPort(port, 15_000),
      exited.then((code) => Promise.reject(new Error(`aiosmtpd exited (${code}): ${log}`))),
    ]);
  } catch (err) {
    proc.kill("SIGKILL");
    throw err;
  }
  return {
    port,
    maildir,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill("SIGTERM");
        await exited;
      }
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Waits for `count` messages in the Maildir and returns them, oldest first. */
async function receivedMessages(maildir, count, ms = 10_000) {
  const dir = join(maildir, "new");
  const deadline = Date.now() + ms;
  for (;;) {
    const names = await readdir(dir).catch(() => []);
    if (names.length >= count) {
      const raw = await Promise.all(names.sort().map((n) => readFile(join(dir, n), "latin1")));
      return raw.map(parseMessage);
    }
    if (Date.now() > deadline) throw new Error(`${names.length} of ${count} messages arrived in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Register before/after hooks (in the calling describe block) that start aiosmtpd and a
 * server sending through it. The pages open in `app`'s browser, from useApp(), so a file
 * still starts one Chromium. Returns `{ run, received }`: `run(t, fn)` is app.run()
 * against this server, `received(count)` waits for what the SMTP server got.
 *
 * @param {{ browser: import("playwright-core").Browser | null }} app
 */
export function useSmtpApp(app) {
  let smtp;
  let server;
  before(async () => {
    smtp = await startSmtp();
    server = await startServer({
      args: ["--smtp-url", `smtp://127.0.0.1:${smtp.port}`, "--mail-from", "debrief@example.com"],
    });
  });
  after(async () => {
    await server?.stop();
    await smtp?.stop();
  });
  return {
    /**
     * @param {{ name: string }} t the node:test context
     * @param {(page: import("playwright-core").Page) => Promise<void>} fn
     */
    run: (t, fn) => withPage(app.browser, t.name, fn, { baseURL: server.url, server }),
    /** Every message so far, oldest first, once at least `count` arrived. */
    received: (count) => receivedMessages(smtp.maildir, count),
  };
}

// --- enough MIME to read the message ---------------------------------------------------

/** `raw` is the message's bytes as latin1. Headers by lower-case name; leaf parts decoded. */
function parseMessage(raw) {
  const split = /\r?\n\r?\n/.exec(raw);
  const head = split ? raw.slice(0, split.index) : raw;
  const body = split ? raw.slice(split.index + split[0].length) : "";
  const headers = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    (headers[name] ??= []).push(line.slice(colon + 1).trim());
  }
  const header = (name) => headers[name]?.[0] ?? "";
  const type = header("content-type") || "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    const sections = body.split(new RegExp(`(?:^|\\r?\\n)--${boundary.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    const parts = sections
      .slice(1)
      .filter((s) => !s.startsWith("--"))
      .map((s) => parseMessage(s.replace(/^[ \t]*\r?\n/, "")));
    return { headers, header, type, parts: parts.flatMap((p) => (p.parts.length ? p.parts : [p])), text: "" };
  }
  const encoding = header("content-transfer-encoding").toLowerCase();
  let bytes;
  if (encoding === "base64") bytes = Buffer.from(body.replace(/\s+/g, ""), "base64");
  else if (encoding === "quoted-printable") {
    const unfolded = body.replace(/=\r?\n/g, "");
    bytes = Buffer.from(unfolded.replace(/=([0-9A-Fa-f]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16))), "latin1");
  } else bytes = Buffer.from(body, "latin1");
  return { headers, header, type, parts: [], text: new TextDecoder("utf-8").decode(bytes) };
}

export const partOf = (message, mime) => {
  const leaves = message.parts.length ? message.parts : [message];
  const part = leaves.find((p) => p.type.toLowerCase().startsWith(mime));
  assert.ok(part, `the message has a ${mime} part (it has ${leaves.map((p) => p.type).join(", ")})`);
  return part.text;
};

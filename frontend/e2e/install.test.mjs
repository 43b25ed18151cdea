// Installing the app: Chromium's own installability check on the manifest and the
// service worker, the shell opening with the server stopped, and the "Install on
// this phone" page with its QR code (read back by zbarimg) and, with the local
// certificate authority, the iOS profile and the Android certificate.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { chromium } from "playwright-core";
import {
  BROWSER_ARGS,
  CHROMIUM_PATH,
  checkA11y,
  heading,
  openBrowser,
  PHONE,
  signIn,
  startServer,
  withPage,
} from "./harness.mjs";

const run = promisify(execFile);
const PHONE_URL = "http://192.0.2.7:8080";

let work;
let browser;
before(async () => {
  work = await mkdtemp(join(tmpdir(), "debrief-install-"));
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
  await rm(work, { recursive: true, force: true });
});

/** Waits until a service worker controls the page, then returns its cache's contents. */
async function controlledBy(page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 });
  return page.evaluate(async () => {
    const kept = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) kept.push(new URL(request.url).pathname);
    }
    return kept;
  });
}

describe("the installable app", () => {
  test("passes Chromium's installability check, keeps only the shell, and opens with the server stopped", async (t) => {
    const server = await startServer({ dataDir: join(work, "data-offline") });
    // An ordinary profile: Chromium installs nothing from an incognito one, and says so.
    const context = await chromium.launchPersistentContext(join(work, "profile"), {
      executablePath: CHROMIUM_PATH,
      args: BROWSER_ARGS,
      baseURL: server.url,
      viewport: PHONE,
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    try {
      await page.goto("/login");
      await heading(page, "Welcome back").waitFor();
      await controlledBy(page);
      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
      assert.deepEqual(installabilityErrors, [], "installable");
      const manifest = await cdp.send("Page.getAppManifest");
      assert.deepEqual(manifest.errors, [], "the manifest parses without complaint");
      assert.match(manifest.url, /\/manifest\.webmanifest$/);

      // Signed in and using the app: the API is asked, and none of it is kept.
      const { user } = await signIn(page);
      await page.goto("/");
      await heading(page, "New Client").waitFor();
      await page.goto("/history");
      await heading(page, "History").waitFor();
      const report = await (await page.request.get("/build-report.json")).json();
      const kept = await controlledBy(page);
      assert.deepEqual([...new Set(kept)].sort(), [...report.serviceWorker.precache].sort(), "the shell, exactly");

      // The server goes away; the app still opens, signed in, and can record.
      await server.stop();
      await page.goto("/");
      await heading(page, "New Client").waitFor();
      await page.getByRole("status").getByText("offline — you can still record: the recording waits on this phone for the server").waitFor();
      await page.getByRole("button", { name: "Start Recording" }).waitFor();
      assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem("debrief.user")).id), user.id);
      await checkA11y(page);
      await page.reload();
      await heading(page, "New Client").waitFor();
    } catch (err) {
      console.error(`# server output:\n${server.output().replace(/^/gm, "#   ")}`);
      throw err;
    } finally {
      await context.close();
      await server.stop();
    }
  });
});

describe("Install on this phone", () => {
  test("reached from the sign-in screen: the phone address as text and as a QR code, no certificate", async (t) => {
    const server = await startServer({ args: ["--public-url", PHONE_URL] });
    try {
      await withPage(
        browser,
        t.name,
        async (page) => {
          await page.goto("/login");
          await page.getByRole("link", { name: "Install on this phone" }).click();
          await page.waitForURL((url) => url.pathname === "/install");
          await heading(page, "Install on this phone").waitFor();
          await page.getByText(PHONE_URL, { exact: true }).waitFor();
          const qr = page.getByRole("img", { name: `QR code of ${PHONE_URL}` });
          await qr.waitFor();
          await page.waitForFunction(() => document.querySelector(".install__qr")?.complete);
          const shot = join(work, "qr.png");
          await writeFile(shot, await qr.screenshot());
          const { stdout } = await run("zbarimg", ["--quiet", "--raw", shot]);
          assert.equal(stdout.trim(), PHONE_URL, "the code reads as the phone address");

          await page.getByText("There is no certificate to install").waitFor();
          assert.equal(await page.getByRole("link", { name: "download the profile" }).count(), 0);
          await page.getByRole("heading", { name: "Add it to the home screen" }).waitFor();
          await checkA11y(page);
          await page.emulateMedia({ colorScheme: "dark" });
          await checkA11y(page);
          await page.getByRole("link", { name: "Back to sign in" }).click();
          await heading(page, "Welcome back").waitFor();
        },
        { baseURL: server.url, server },
      );
    } finally {
      await server.stop();
    }
  });

  test("with the local certificate authority: the iPhone profile and the Android certificate", async (t) => {
    const server = await startServer({ http: false });
    try {
      await withPage(
        browser,
        t.name,
        async (page) => {
          await page.goto("/install");
          await heading(page, "Install on this phone").waitFor();
          await page.getByRole("heading", { name: "iPhone and iPad" }).first().waitFor();
          const authority = (await (await page.request.get("/api/install")).json()).localCa;
          await page.getByText(`turn on full trust for “${authority}”`, { exact: false }).waitFor();
          await page.getByText("This server listens on its own machine only", { exact: false }).waitFor();
          await checkA11y(page);

          const [profile] = await Promise.all([
            page.waitForEvent("download"),
            page.getByRole("link", { name: "download the profile" }).click(),
          ]);
          assert.equal(profile.suggestedFilename(), "debrief-ca.mobileconfig");
          const text = await readDownload(profile);
          assert.match(text, /<string>com\.apple\.security\.root<\/string>/);
          assert.doesNotMatch(text, /PRIVATE KEY/);

          const [certificate] = await Promise.all([
            page.waitForEvent("download"),
            page.getByRole("link", { name: "Download the certificate" }).click(),
          ]);
          assert.equal(certificate.suggestedFilename(), "debrief-ca.crt");
          const der = Buffer.from(await readDownload(certificate, null));
          assert.equal(der[0], 0x30, "a DER certificate");
        },
        { baseURL: server.url, server, ignoreHTTPSErrors: true },
      );
    } finally {
      await server.stop();
    }
  });
});

async function readDownload(download, encoding = "utf8") {
  const chunks = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk);
  const bytes = Buffer.concat(chunks);
  return encoding ? bytes.toString(encoding) : bytes;
}

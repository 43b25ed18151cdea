import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { decodePng } from "../build/png.mjs";

const run = promisify(execFile);
const frontend = process.env.DEBRIEF_FRONTEND_DIR;
let out;
let stdout;

describe("build.mjs --release", () => {
  before(async () => {
    out = await mkdtemp(join(tmpdir(), "debrief-build-"));
    // Run from elsewhere: the script must find its sources by itself.
    ({ stdout } = await run(process.execPath, [join(frontend, "build.mjs"), "--outdir", out, "--release"], { cwd: tmpdir() }));
  });
  after(() => rm(out, { recursive: true, force: true }));

  test("prints one summary line", () => {
    assert.equal(stdout.trim().split("\n").length, 1);
    assert.match(stdout, /first page JS [\d.]+ KB gzip/);
  });

  test("index.html references hashed assets by absolute path, with nothing inline", async () => {
    const html = await readFile(join(out, "index.html"), "utf8");
    assert.match(html, /<script type="module" src="\/assets\/main-[A-Z0-9]+\.js"><\/script>/);
    assert.match(html, /<link rel="stylesheet" href="\/assets\/main-[A-Z0-9]+\.css">/);
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/i);
    assert.doesNotMatch(html, /<style|\sstyle=/i);
    for (const [, url] of html.matchAll(/(?:src|href)="([^"]+)"/g)) {
      assert.match(url, /^\/(assets\/[\w.-]+|manifest\.webmanifest)$/);
      await readFile(join(out, url));
    }
  });

  test("index.html shows the app's icon and name before any script runs, named for screen readers", async () => {
    const html = await readFile(join(out, "index.html"), "utf8");
    const launch = /<div id="app"><div class="launch" role="status" aria-label="Loading Debrief">(.*?)<\/div><\/div>/.exec(html);
    assert.ok(launch, "the launch screen sits inside the app's root");
    assert.match(launch[1], /^<svg aria-hidden="true"[^>]*>.*<\/svg>/);
    assert.match(launch[1], />Debrief<\/span>$/);
  });

  test("every file has gzip and brotli siblings with the same content", async () => {
    const files = [
      "index.html",
      "build-report.json",
      "manifest.webmanifest",
      "sw.js",
      ...(await readdir(join(out, "assets"))).map((f) => `assets/${f}`),
    ];
    const originals = files.filter((f) => !/\.(gz|br)$/.test(f));
    assert.ok(originals.length >= 4);
    for (const f of originals) {
      const raw = await readFile(join(out, f));
      assert.deepEqual(zlib.gunzipSync(await readFile(join(out, `${f}.gz`))), raw, `${f}.gz`);
      assert.deepEqual(zlib.brotliDecompressSync(await readFile(join(out, `${f}.br`))), raw, `${f}.br`);
    }
  });

  test("index.html hints every file of the sign-in screen, so none waits for another to arrive", async () => {
    const report = JSON.parse(await readFile(join(out, "build-report.json"), "utf8"));
    const html = await readFile(join(out, "index.html"), "utf8");
    const hinted = [...html.matchAll(/<link rel="modulepreload" href="\/([^"]+)">/g)].map(([, file]) => file);
    const needed = report.routes.Login.files.filter((file) => file !== report.entry);
    assert.deepEqual(hinted.sort(), needed.sort());
  });

  test("release output is minified, without source maps", async () => {
    const assets = await readdir(join(out, "assets"));
    assert.equal(assets.filter((f) => f.endsWith(".map")).length, 0);
    const main = assets.find((f) => /^main-.*\.js$/.test(f));
    const js = await readFile(join(out, "assets", main), "utf8");
    assert.doesNotMatch(js, /sourceMappingURL/);
    assert.ok(js.split("\n").length < 10, "minified");
  });

  test("the report keeps the first page within budget and React out", async () => {
    const report = JSON.parse(await readFile(join(out, "build-report.json"), "utf8"));
    assert.ok(report.firstPageJs.gzip > 0);
    assert.ok(report.firstPageJs.gzip <= 60 * 1024, `${report.firstPageJs.gzip} bytes`);
    const inputs = Object.keys(report.inputs);
    assert.ok(inputs.some((p) => p.includes("node_modules/preact/")));
    assert.ok(!inputs.some((p) => /node_modules\/(react|react-dom)\//.test(p)));
  });

  test("the recorder's worklet is its own file, and the recorder loads only with New Client", async () => {
    const report = JSON.parse(await readFile(join(out, "build-report.json"), "utf8"));
    assert.match(report.worklet.file, /^assets\/recorder-worklet-[A-Z0-9]+\.js$/);
    const worklet = await readFile(join(out, report.worklet.file), "utf8");
    assert.match(worklet, /registerProcessor/);
    assert.doesNotMatch(worklet, /^import /m, "a worklet is one file");
    const text = async (files) => (await Promise.all(files.map((f) => readFile(join(out, f), "utf8")))).join("\n");
    const login = await text(report.routes.Login.files);
    const newClient = await text(report.routes.NewClient.files);
    assert.ok(newClient.includes(`/${report.worklet.file}`), "New Client knows the worklet's address");
    assert.doesNotMatch(login, /audioWorklet|debrief-recorder|getUserMedia/, "no recorder code on the first page");
  });

  test("the follow-up tracker is a chunk of its own, loaded by no other screen's first files", async () => {
    const report = JSON.parse(await readFile(join(out, "build-report.json"), "utf8"));
    const assets = (await readdir(join(out, "assets"))).filter((f) => f.endsWith(".js"));
    const texts = Object.fromEntries(
      await Promise.all(assets.map(async (f) => [`assets/${f}`, await readFile(join(out, "assets", f), "utf8")])),
    );
    const holding = (words) => Object.keys(texts).filter((f) => texts[f].includes(words));
    const tracker = holding("Waiting for a follow-up");
    assert.equal(tracker.length, 1, "one file holds the tracker's screen");
    assert.ok(report.inputs["src/pages/Insights.tsx"] > 0);
    for (const [route, { files }] of Object.entries(report.routes)) {
      assert.ok(!files.includes(tracker[0]), `not among ${route}'s files`);
      assert.ok(!files.some((f) => texts[f].includes("Meetings per week")), `no chart on ${route}`);
    }
  });

  test("the manifest makes the app installable, with icons drawn at the sizes it names", async () => {
    const html = await readFile(join(out, "index.html"), "utf8");
    assert.match(html, /<link rel="manifest" href="\/manifest\.webmanifest">/);
    const manifest = JSON.parse(await readFile(join(out, "manifest.webmanifest"), "utf8"));
    assert.equal(manifest.name, "Debrief");
    assert.equal(manifest.short_name, "Debrief");
    assert.equal(manifest.start_url, "/");
    assert.equal(manifest.display, "standalone");
    assert.match(manifest.theme_color, /^#[0-9a-f]{6}$/);
    const purposes = manifest.icons.map((i) => `${i.sizes} ${i.purpose}`).sort();
    assert.deepEqual(purposes, ["192x192 any", "512x512 any", "512x512 maskable"]);
    for (const icon of manifest.icons) {
      const png = decodePng(await readFile(join(out, icon.src)));
      assert.equal(`${png.width}x${png.height}`, icon.sizes, icon.src);
      const corner = png.rgba[3];
      // A maskable icon is cut by the platform: opaque to its edges. The others keep their rounded corners.
      assert.equal(corner, icon.purpose === "maskable" ? 255 : 0, `${icon.src} corner alpha`);
    }
    const apple = /<link rel="apple-touch-icon" href="([^"]+)">/.exec(html);
    assert.ok(apple, "an apple-touch-icon");
    const touch = decodePng(await readFile(join(out, apple[1])));
    assert.deepEqual([touch.width, touch.height], [180, 180]);
    assert.ok(touch.rgba.every((v, i) => i % 4 !== 3 || v === 255), "iOS icons are opaque");
  });

  test("the service worker keeps the shell and every asset, and nothing else", async () => {
    const report = JSON.parse(await readFile(join(out, "build-report.json"), "utf8"));
    const assets = (await readdir(join(out, "assets"))).filter((f) => !/\.(gz|br|map)$/.test(f)).map((f) => `/assets/${f}`);
    assert.deepEqual([...report.serviceWorker.precache].sort(), ["/index.html", "/manifest.webmanifest", ...assets].sort());
    assert.match(report.serviceWorker.version, /^[0-9a-f]{12}$/);
    const sw = await readFile(join(out, "sw.js"), "utf8");
    for (const url of report.serviceWorker.precache) assert.ok(sw.includes(JSON.stringify(url)), `${url} in sw.js`);
    assert.ok(sw.includes(report.serviceWorker.version));
    assert.doesNotMatch(sw, /^import /m, "a classic script");
  });

  test("a bad argument fails with a message", async () => {
    await assert.rejects(run(process.execPath, [join(frontend, "build.mjs")]), (err) => {
      assert.notEqual(err.code, 0);
      assert.match(err.stderr, /--outdir/);
      return true;
    });
  });
});

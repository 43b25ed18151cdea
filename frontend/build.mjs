#!/usr/bin/env node
// Bundles the web app into DIR: DIR/index.html, the web app manifest and the service
// worker, plus content-hashed files under DIR/assets/ (the icons drawn here from
// src/icon.svg among them), each with .gz and .br siblings that the server can send
// as they are.
//
//   node build.mjs --outdir DIR [--release]
//
// Prints one summary line on success; on failure prints the error and exits non-zero.

import { createHash } from "node:crypto";
import { mkdir, readFile, rm, writeFile, readdir } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { promisify } from "node:util";
import zlib from "node:zlib";
import * as esbuild from "esbuild";
import { buildServiceWorker, MANIFEST_FILE, manifest, SERVICE_WORKER_FILE, writeIcons } from "./build/pwa.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

// Browsers of phones from the last few years: iOS 15.4 brought <dialog>.
const TARGET = ["es2021", "chrome100", "safari15.4", "firefox100", "edge100"];
const FIRST_PAGE_BUDGET = 60 * 1024;
const WORKLET_ENTRY = "src/recorder/worklet.ts";
const FIRST_PAGE = "Login";

function usage(message) {
  console.error(`${message}\nusage: node build.mjs --outdir DIR [--release]`);
  process.exit(2);
}

/** wouter imports the React 17 shim for useSyncExternalStore; preact/compat has the hook. */
const syncExternalStoreShim = {
  name: "use-sync-external-store-shim",
  setup(build) {
    build.onResolve({ filter: /^use-sync-external-store\/shim(\/index\.js)?$/ }, () => ({
      path: "use-sync-external-store-shim",
      namespace: "shim",
    }));
    build.onLoad({ filter: /.*/, namespace: "shim" }, () => ({
      contents: 'export { useSyncExternalStore } from "preact/compat";',
      resolveDir: here,
      loader: "js",
    }));
  },
};

async function compressSiblings(file) {
  const data = await readFile(file);
  const [gz, br] = await Promise.all([
    gzip(data, { level: 9 }),
    brotli(data, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  ]);
  await Promise.all([writeFile(`${file}.gz`, gz), writeFile(`${file}.br`, br)]);
  return { raw: data.length, gzip: gz.length, brotli: br.length };
}

function htmlEscape(s) {
  return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

/** Static imports of an output chunk, transitively: what the browser loads before it runs. */
function staticClosure(outputs, start) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imp of outputs[file]?.imports ?? []) {
      if (imp.kind === "import-statement") visit(imp.path);
    }
  };
  visit(start);
  return [...seen];
}

async function main() {
  let args;
  try {
    args = parseArgs({
      options: { outdir: { type: "string" }, release: { type: "boolean", default: false } },
      allowPositionals: false,
    }).values;
  } catch (err) {
    usage(err.message);
  }
  if (!args.outdir) usage("missing --outdir");
  const outdir = resolve(process.cwd(), args.outdir);
  const assetsDir = join(outdir, "assets");
  const release = args.release;

  // Only what this script writes is removed, so a stale hashed file is never embedded.
  await rm(assetsDir, { recursive: true, force: true });
  for (const name of ["index.html", "build-report.json", MANIFEST_FILE, SERVICE_WORKER_FILE]) {
    for (const suffix of ["", ".gz", ".br"]) await rm(join(outdir, name + suffix), { force: true });
  }
  await mkdir(assetsDir, { recursive: true });

  // The recorder's audio worklet is a file of its own: a worklet loads by URL, and the
  // CSP lets it come only from our origin. Built first, so the app knows its name.
  const worklet = await esbuild.build({
    absWorkingDir: here,
    entryPoints: { "recorder-worklet": join(here, WORKLET_ENTRY) },
    outdir: assetsDir,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: TARGET,
    entryNames: "[name]-[hash]",
    minify: release,
    sourcemap: false,
    legalComments: release ? "none" : "inline",
    metafile: true,
    logLevel: "silent",
  });
  const workletKey = Object.keys(worklet.metafile.outputs).find((k) => k.endsWith(".js"));
  if (!workletKey) throw new Error(`esbuild produced no file for ${WORKLET_ENTRY}`);

  const result = await esbuild.build({
    absWorkingDir: here,
    entryPoints: [join(here, "src/main.tsx")],
    outdir: assetsDir,
    bundle: true,
    format: "esm",
    splitting: true,
    platform: "browser",
    target: TARGET,
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
    assetNames: "[name]-[hash]",
    publicPath: "/assets",
    minify: release,
    sourcemap: release ? false : "linked",
    legalComments: release ? "none" : "inline",
    jsx: "automatic",
    jsxImportSource: "preact",
    alias: { react: "preact/compat", "react-dom": "preact/compat" },
    define: {
      "process.env.NODE_ENV": release ? '"production"' : '"development"',
      RECORDER_WORKLET_URL: JSON.stringify(`/assets/${basename(workletKey)}`),
    },
    plugins: [syncExternalStoreShim],
    metafile: true,
    logLevel: "silent",
  });

  const bundledReact = Object.keys(result.metafile.inputs).filter((p) =>
    /node_modules\/(react|react-dom)\//.test(p),
  );
  if (bundledReact.length > 0) {
    throw new Error(`React itself was bundled (the preact/compat alias is not applied):\n  ${bundledReact.join("\n  ")}`);
  }

  const outputs = result.metafile.outputs;
  const rel = (p) => relative(here, p).split("\\").join("/");
  const entryKey = Object.keys(outputs).find(
    (k) => outputs[k].entryPoint === "src/main.tsx" && k.endsWith(".js"),
  );
  if (!entryKey) throw new Error("esbuild produced no entry chunk for src/main.tsx");
  const cssKey = outputs[entryKey].cssBundle;
  const toUrl = (key) => `/assets/${basename(key)}`;
  const absOut = (key) => resolve(here, key);

  const iconSource = await readFile(join(here, "src/icon.svg"));
  const iconName = `icon-${createHash("sha256").update(iconSource).digest("hex").slice(0, 8)}.svg`;
  await writeFile(join(assetsDir, iconName), iconSource);
  const icons = await writeIcons(iconSource.toString("utf8"), assetsDir);
  const launchIcon = iconSource.toString("utf8").trim().replace("<svg ", '<svg aria-hidden="true" focusable="false" ');
  const appleIcon = icons.find((icon) => icon.name === "apple-touch-icon");
  await writeFile(join(outdir, MANIFEST_FILE), manifest(icons));

  const pageChunk = (page) =>
    Object.keys(outputs).find((k) => outputs[k].entryPoint === `src/pages/${page}.tsx`);
  // The sign-in screen is every signed-out visitor's first page. Without hints its chunk
  // is found only once main.js runs, and that chunk's imports only once it arrives: two
  // more round trips before the first paint. Signed-in visitors fetch ~4 KB they may not
  // run, once: the files are immutable.
  const firstPageChunk = pageChunk(FIRST_PAGE);
  const preloads = [
    ...new Set([...staticClosure(outputs, entryKey), ...(firstPageChunk ? staticClosure(outputs, firstPageChunk) : [])]),
  ].filter((k) => k !== entryKey);
  const html = [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">',
    '<meta name="color-scheme" content="light dark">',
    '<meta name="theme-color" content="#f5f6f8" media="(prefers-color-scheme: light)">',
    '<meta name="theme-color" content="#0f1217" media="(prefers-color-scheme: dark)">',
    '<meta name="referrer" content="same-origin">',
    "<title>Debrief</title>",
    `<link rel="icon" href="/assets/${iconName}" type="image/svg+xml">`,
    `<link rel="apple-touch-icon" href="${htmlEscape(appleIcon.url)}">`,
    `<link rel="manifest" href="/${MANIFEST_FILE}">`,
    '<meta name="apple-mobile-web-app-title" content="Debrief">',
    cssKey ? `<link rel="stylesheet" href="${htmlEscape(toUrl(cssKey))}">` : "",
    ...preloads.map((k) => `<link rel="modulepreload" href="${htmlEscape(toUrl(k))}">`),
    `<script type="module" src="${htmlEscape(toUrl(entryKey))}"></script>`,
    "</head>",
    "<body>",
    // Painted before any script runs: the app's icon and name, as an installed app's
    // launch screen shows them. A slow phone needs about a second to start the scripts;
    // this makes that second show the app instead of a blank page. main.tsx replaces it.
    `<div id="app"><div class="launch" role="status" aria-label="Loading Debrief">${launchIcon}<span aria-hidden="true">Debrief</span></div></div>`,
    "<noscript>Debrief needs JavaScript to run.</noscript>",
    "</body>",
    "</html>",
    "",
  ]
    .filter(Boolean)
    .join("\n");
  await writeFile(join(outdir, "index.html"), html);

  // The service worker keeps the page, the manifest and every asset for offline use
  // (not source maps: only developer tools ask for them).
  const assetNames = (await readdir(assetsDir)).filter((name) => !name.endsWith(".map"));
  const serviceWorker = await buildServiceWorker({
    esbuild,
    here,
    outdir,
    precache: ["/index.html", `/${MANIFEST_FILE}`, ...assetNames.map((name) => `/assets/${name}`)],
    target: TARGET,
    release,
  });

  // Compress everything written so far; the report is written (and compressed) last.
  const files = ["index.html", MANIFEST_FILE, SERVICE_WORKER_FILE].map((name) => join(outdir, name));
  for (const name of await readdir(assetsDir)) files.push(join(assetsDir, name));
  const sizes = {};
  await Promise.all(
    files.map(async (file) => {
      sizes[relative(outdir, file).split("\\").join("/")] = await compressSiblings(file);
    }),
  );

  // First page: the entry with its static imports, plus the chunk of the screen shown
  // (with its static imports). /login is what a signed-out visitor sees first.
  const sizeOf = (key) => sizes[`assets/${basename(key)}`];
  const entryClosure = staticClosure(outputs, entryKey);
  const routeReport = {};
  for (const page of [FIRST_PAGE, "NewClient", "AdminLogin"]) {
    const chunk = pageChunk(page);
    const closure = new Set(entryClosure);
    if (chunk) for (const k of staticClosure(outputs, chunk)) closure.add(k);
    const js = [...closure].filter((k) => k.endsWith(".js"));
    routeReport[page] = {
      files: js.map((k) => `assets/${basename(k)}`),
      raw: js.reduce((n, k) => n + sizeOf(k).raw, 0),
      gzip: js.reduce((n, k) => n + sizeOf(k).gzip, 0),
    };
  }
  const firstPage = routeReport[FIRST_PAGE];
  const report = {
    release,
    entry: `assets/${basename(entryKey)}`,
    css: cssKey ? `assets/${basename(cssKey)}` : null,
    firstPageJs: { route: "/login", budgetGzip: FIRST_PAGE_BUDGET, ...firstPage },
    routes: routeReport,
    files: Object.fromEntries(Object.entries(sizes).sort(([a], [b]) => a.localeCompare(b))),
    worklet: { file: `assets/${basename(workletKey)}`, ...sizes[`assets/${basename(workletKey)}`] },
    serviceWorker,
    manifest: MANIFEST_FILE,
    icons: icons.map(({ name, size, purpose, url }) => ({ name, size, purpose, file: url.slice(1) })),
    inputs: Object.fromEntries(
      Object.entries({ ...worklet.metafile.inputs, ...result.metafile.inputs })
        .map(([p, v]) => [rel(resolve(here, p)), v.bytes])
        .sort(([a], [b]) => a.localeCompare(b)),
    ),
  };
  const reportPath = join(outdir, "build-report.json");
  await writeFile(reportPath, `${JSON.stringify(report, null, 2)}\n`);
  await compressSiblings(reportPath);

  if (firstPage.gzip > FIRST_PAGE_BUDGET) {
    throw new Error(`first-page JS is ${firstPage.gzip} bytes gzip, over the ${FIRST_PAGE_BUDGET}-byte budget`);
  }
  const kb = (n) => (n / 1024).toFixed(1);
  console.log(
    `built ${outdir} (${release ? "release" : "dev"}): first page JS ${kb(firstPage.gzip)} KB gzip, CSS ${
      cssKey ? kb(sizeOf(cssKey).gzip) : 0
    } KB gzip`,
  );
}

main().catch((err) => {
  if (err && Array.isArray(err.errors) && err.errors.length > 0) {
    for (const e of err.errors) {
      const where = e.location ? `${e.location.file}:${e.location.line}:${e.location.column}: ` : "";
      console.error(`${where}${e.text}`);
    }
  } else {
    console.error(err && err.stack ? err.stack : String(err));
  }
  process.exit(1);
});

// Unit tests are plain node:test files (test/*.test.mjs) that import TypeScript
// sources. esbuild bundles each file for node, then node's test runner runs them.

import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);
const only = process.argv.slice(2);

const files = (await readdir(here)).filter(
  (f) => f.endsWith(".test.mjs") && (only.length === 0 || only.some((o) => f.includes(o))),
);
const outdir = await mkdtemp(join(tmpdir(), "debrief-unit-"));

let code = 1;
try {
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: files.map((f) => join(here, f)),
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "bundle",
    jsx: "automatic",
    jsxImportSource: "preact",
    alias: { react: "preact/compat", "react-dom": "preact/compat" },
    define: { RECORDER_WORKLET_URL: '"/assets/recorder-worklet.js"' },
    sourcemap: "inline",
    logLevel: "error",
  });
  const child = spawn(
    process.execPath,
    ["--enable-source-maps", "--test", ...files.map((f) => join(outdir, f))],
    // Bundled tests run from a temporary folder; this tells them where the sources are.
    { stdio: "inherit", env: { ...process.env, DEBRIEF_FRONTEND_DIR: root } },
  );
  code = await new Promise((resolve) => child.on("close", (c) => resolve(c ?? 1)));
} finally {
  await rm(outdir, { recursive: true, force: true });
}
process.exit(code);

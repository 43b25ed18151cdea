// What makes the app installable and usable without the server: its icons,
// drawn from src/icon.svg; the web app manifest; and the service worker,
// built with the list of files it keeps for offline use.

import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { encodePng } from "./png.mjs";
import { parseSvg, rasterise } from "./svg-raster.mjs";

export const MANIFEST_FILE = "manifest.webmanifest";
export const SERVICE_WORKER_FILE = "sw.js";
const SERVICE_WORKER_ENTRY = "src/service-worker/sw.ts";

// The app's light background (src/styles/tokens.css --bg): the splash screen
// and the bar above the installed app match the page under them.
const BACKGROUND = "#f5f6f8";

// Android wants 192 and 512 px, plus a maskable one it may cut to a circle:
// its safe zone is the middle 80 %. iOS takes a 180 px square and rounds it itself.
const ICONS = [
  { name: "icon-192", size: 192, purpose: "any" },
  { name: "icon-512", size: 512, purpose: "any" },
  { name: "icon-maskable-512", size: 512, purpose: "maskable", fullBleed: true, inset: 0.8 },
  { name: "apple-touch-icon", size: 180, purpose: null, fullBleed: true },
];

const hash8 = (data) => createHash("sha256").update(data).digest("hex").slice(0, 8);

/** Draws every icon into `assetsDir` under a content-hashed name; returns them with their URLs. */
export async function writeIcons(svgText, assetsDir) {
  const logo = parseSvg(svgText);
  return Promise.all(
    ICONS.map(async ({ name, size, purpose, fullBleed = false, inset = 1 }) => {
      const png = encodePng(size, size, rasterise(logo, size, { fullBleed, inset }));
      const file = `${name}-${hash8(png)}.png`;
      await writeFile(join(assetsDir, file), png);
      return { name, size, purpose, url: `/assets/${file}` };
    }),
  );
}

/** The web app manifest: installed, the app opens at / in a window of its own. */
export function manifest(icons) {
  return `${JSON.stringify(
    {
      id: "/",
      name: "Debrief",
      short_name: "Debrief",
      description: "Record client meetings, then send the summary and next steps.",
      start_url: "/",
      scope: "/",
      display: "standalone",
      background_color: BACKGROUND,
      theme_color: BACKGROUND,
      icons: icons
        .filter((icon) => icon.purpose)
        .map((icon) => ({ src: icon.url, sizes: `${icon.size}x${icon.size}`, type: "image/png", purpose: icon.purpose })),
    },
    null,
    2,
  )}\n`;
}

/**
 * Builds DIR/sw.js. `precache` are the URLs it keeps (the page shell, the manifest
 * and every asset); its version is a hash of their contents, so any change to the
 * app changes the worker and phones pick the new version up.
 */
export async function buildServiceWorker({ esbuild, here, outdir, precache, target, release }) {
  const version = createHash("sha256");
  for (const url of precache) {
    version.update(url).update("\0").update(await readFile(join(outdir, url.slice(1)))).update("\0");
  }
  const shellVersion = version.digest("hex").slice(0, 12);
  await esbuild.build({
    absWorkingDir: here,
    entryPoints: [join(here, SERVICE_WORKER_ENTRY)],
    outfile: join(outdir, SERVICE_WORKER_FILE),
    bundle: true,
    // A classic script: module service workers are not everywhere yet.
    format: "iife",
    platform: "browser",
    target,
    minify: release,
    sourcemap: false,
    legalComments: release ? "none" : "inline",
    define: { SHELL_VERSION: JSON.stringify(shellVersion), PRECACHE_URLS: JSON.stringify(precache) },
    logLevel: "silent",
  });
  return { file: SERVICE_WORKER_FILE, version: shellVersion, precache };
}

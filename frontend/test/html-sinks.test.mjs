// Preact renders every string as text, so markup a user typed (a client's
// company, a summary) stays inert unless code hands it to one of these APIs.
// No screen needs them; this keeps it that way.

import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, test } from "node:test";

const src = join(process.env.DEBRIEF_FRONTEND_DIR, "src");
const SINKS = /\b(dangerouslySetInnerHTML|innerHTML|outerHTML|insertAdjacentHTML|document\.write(?:ln)?)\b/g;

const sinksIn = (text) => [...text.matchAll(SINKS)].map((m) => m[1]);

async function sources(dir) {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await sources(path)));
    else if (/\.tsx?$/.test(entry.name)) found.push(path);
  }
  return found;
}

describe("raw HTML sinks", () => {
  test("the scan spots each way of writing raw HTML", () => {
    const sample = [
      "<div dangerouslySetInnerHTML={{ __html: x }} />",
      "el.innerHTML = x;",
      "el.outerHTML = x;",
      'el.insertAdjacentHTML("beforeend", x);',
      "document.write(x);",
    ].join("\n");
    assert.deepEqual(sinksIn(sample), ["dangerouslySetInnerHTML", "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write"]);
  });

  test("the scan reaches components in nested folders", async () => {
    const files = (await sources(src)).map((f) => relative(src, f));
    assert.ok(files.includes("main.tsx") && files.some((f) => f.split("/").length > 2), files.join(", "));
  });

  test("no frontend source writes raw HTML", async () => {
    const hits = [];
    for (const file of await sources(src)) {
      for (const sink of sinksIn(await readFile(file, "utf8"))) hits.push(`${relative(src, file)}: ${sink}`);
    }
    assert.deepEqual(hits, []);
  });
});

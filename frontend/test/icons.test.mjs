import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { decodePng, encodePng } from "../build/png.mjs";
import { flattenPath, parseSvg, rasterise } from "../build/svg-raster.mjs";

const pixel = ({ rgba }, size, x, y) => [...rgba.subarray((y * size + x) * 4, (y * size + x) * 4 + 4)];

describe("icons drawn at build time", () => {
  test("a PNG holds exactly the pixels it was given", () => {
    const rgba = Uint8Array.from({ length: 3 * 2 * 4 }, (_, i) => (i * 37) % 256);
    const png = encodePng(3, 2, rgba);
    assert.deepEqual([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join(""), "PNG");
    const back = decodePng(png);
    assert.deepEqual([back.width, back.height], [3, 2]);
    assert.deepEqual([...back.rgba], [...rgba]);
  });

  test("path data: relative commands, implicit linetos, compact arc flags", () => {
    const [square] = flattenPath("m1 1 2 0v2h-2z");
    assert.deepEqual(square.points, [[1, 1], [3, 1], [3, 3], [1, 3]]);
    assert.equal(square.closed, true);
    const [arc] = flattenPath("M0 0a5 5 0 015 5");
    for (const [x, y] of arc.points) assert.ok(Math.abs(Math.hypot(x - 0, y - 5) - 5) < 1e-9, "on the circle about (0, 5)");
    assert.deepEqual(arc.points.at(-1), [5, 5]);
  });

  test("fills, strokes and edges: covered, empty, and partly covered at the border", () => {
    const svg = parseSvg('<svg viewBox="0 0 4 4"><rect x="0" y="0" width="2" height="4" fill="#ff0000"/></svg>');
    const image = { rgba: rasterise(svg, 8) };
    assert.deepEqual(pixel(image, 8, 1, 4), [255, 0, 0, 255]);
    assert.deepEqual(pixel(image, 8, 6, 4), [0, 0, 0, 0]);
    const half = parseSvg('<svg viewBox="0 0 4 4"><rect x="0" y="0" width="2.25" height="4" fill="#ff0000"/></svg>');
    assert.equal(pixel({ rgba: rasterise(half, 8) }, 8, 4, 4)[3], 128, "a pixel half inside is half covered");
    const stroke = parseSvg('<svg viewBox="0 0 8 8"><path d="M0 4H8" fill="none" stroke="#fff" stroke-width="2"/></svg>');
    const line = { rgba: rasterise(stroke, 8) };
    assert.equal(pixel(line, 8, 4, 4)[3], 255);
    assert.equal(pixel(line, 8, 4, 1)[3], 0);
  });

  test("a full-bleed icon is opaque to its corners and keeps its artwork in the safe zone", () => {
    const svg = parseSvg(
      '<svg viewBox="0 0 10 10"><rect width="10" height="10" rx="3" fill="#1f4fd1"/><rect x="0" y="0" width="10" height="1" fill="#fff"/></svg>',
    );
    const rounded = { rgba: rasterise(svg, 20) };
    assert.equal(pixel(rounded, 20, 0, 19)[3], 0, "rounded corner");
    const bleed = { rgba: rasterise(svg, 20, { fullBleed: true, inset: 0.8 }) };
    assert.deepEqual(pixel(bleed, 20, 0, 19), [0x1f, 0x4f, 0xd1, 255]);
    assert.deepEqual(pixel(bleed, 20, 10, 0), [0x1f, 0x4f, 0xd1, 255], "the top band moved inwards");
    assert.deepEqual(pixel(bleed, 20, 10, 2), [255, 255, 255, 255]);
  });

  test("anything the drawing does not know fails the build", () => {
    assert.throws(() => parseSvg('<svg viewBox="0 0 1 1"><circle r="1"/></svg>'), /element <circle>/);
    assert.throws(() => parseSvg('<svg viewBox="0 0 1 1"><path d="M0 0L1 1" transform="scale(2)"/></svg>'), /transform/);
    assert.throws(() => parseSvg('<svg viewBox="0 0 1 1"><path d="M0 0L1 1" fill="red"/></svg>'), /colour "red"/);
    assert.throws(() => parseSvg('<svg><path d="M0 0"/></svg>'), /viewBox/);
  });
});

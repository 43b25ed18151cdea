// The photo pipeline's decisions, with the browser's decoding and encoding replaced.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  DATA_URL_MAX_CHARS,
  DecodeFailure,
  fitWidth,
  IPHONE_HINT,
  PHOTO_ALERTS,
  PhotoError,
  photoErrorText,
  processPhoto,
  sniffImage,
} from "../src/lib/image.ts";

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1, 1, 0, 0, 1]);
const WEBP = new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 ");
const HEIC = new TextEncoder().encode("\0\0\0\x18ftypheic\0\0\0\0");
const GIF = new TextEncoder().encode("GIF89a\x01\0\x01\0\0\0\0\0\0\0");

function file(bytes, type = "", name = "photo") {
  const blob = new Blob([bytes], { type });
  return Object.assign(blob, { name });
}

/** Tools whose steps answer from a script; records what was asked. */
function tools({ primary, fallback, base64 } = {}) {
  const calls = [];
  const step = (name, answer) => async (f, maxWidth, quality) => {
    calls.push({ name, maxWidth, quality });
    if (answer instanceof Error) throw answer;
    if (answer === undefined) throw new DecodeFailure();
    return answer;
  };
  return {
    calls,
    primary: step("primary", primary),
    fallback: step("fallback", fallback),
    head: async (f, n) => new Uint8Array(await f.slice(0, n).arrayBuffer()),
    base64: async (f) => {
      calls.push({ name: "base64" });
      if (base64 instanceof Error) throw base64;
      return Buffer.from(await f.arrayBuffer()).toString("base64");
    },
  };
}

async function rejectsWith(promise, message) {
  await assert.rejects(promise, (err) => {
    assert.ok(err instanceof PhotoError, `a PhotoError, not ${err}`);
    assert.equal(photoErrorText(err), message);
    return true;
  });
}

describe("photo pipeline", () => {
  test("sniffs JPEG, PNG, WebP and HEIC by their first bytes", () => {
    assert.equal(sniffImage(JPEG), "image/jpeg");
    assert.equal(sniffImage(PNG), "image/png");
    assert.equal(sniffImage(WEBP), "image/webp");
    assert.equal(sniffImage(HEIC), "image/heic");
    assert.equal(sniffImage(GIF), null);
    assert.equal(sniffImage(new Uint8Array()), null);
  });

  test("scales down to 800 px wide, never up", () => {
    assert.deepEqual(fitWidth(4032, 3024), { width: 800, height: 600 });
    assert.deepEqual(fitWidth(640, 480), { width: 640, height: 480 });
    assert.deepEqual(fitWidth(8000, 1), { width: 800, height: 1 });
  });

  test("re-encodes as JPEG at quality 0.6, 800 px wide", async () => {
    const t = tools({ primary: "data:image/jpeg;base64,AAAA" });
    assert.equal(await processPhoto(file(PNG, "image/png"), t), "data:image/jpeg;base64,AAAA");
    assert.deepEqual(t.calls, [{ name: "primary", maxWidth: 800, quality: 0.6 }]);
  });

  test("falls back to an <img> decode at quality 0.4", async () => {
    const t = tools({ fallback: "data:image/jpeg;base64,BBBB" });
    assert.equal(await processPhoto(file(JPEG, "image/jpeg"), t), "data:image/jpeg;base64,BBBB");
    assert.deepEqual(
      t.calls.map((c) => [c.name, c.maxWidth, c.quality]),
      [
        ["primary", 800, 0.6],
        ["fallback", 800, 0.4],
      ],
    );
  });

  test("a result of a million characters or more tries the fallback, then is too large", async () => {
    const huge = `data:image/jpeg;base64,${"A".repeat(DATA_URL_MAX_CHARS)}`;
    const t = tools({ primary: huge, fallback: "data:image/jpeg;base64,CCCC" });
    assert.equal(await processPhoto(file(GIF, "image/gif"), t), "data:image/jpeg;base64,CCCC");
    await rejectsWith(processPhoto(file(GIF, "image/gif"), tools({ primary: huge, fallback: huge })), PHOTO_ALERTS.tooLarge);
  });

  test("when both fail, a small JPEG, PNG or WebP original is sent as it is, typed by its content", async () => {
    for (const [bytes, mime] of [
      [JPEG, "image/jpeg"],
      [PNG, "image/png"],
      [WEBP, "image/webp"],
    ]) {
      const url = await processPhoto(file(bytes, "application/octet-stream"), tools());
      assert.equal(url, `data:${mime};base64,${Buffer.from(bytes).toString("base64")}`);
    }
  });

  test("an original of 500,000 characters or more is too large", async () => {
    const big = new Uint8Array(380_000);
    big.set(JPEG);
    await rejectsWith(processPhoto(file(big, "image/jpeg"), tools()), PHOTO_ALERTS.tooLarge);
    const justUnder = new Uint8Array(374_970); // 499,960 base64 characters + the 23-char prefix
    justUnder.set(JPEG);
    const url = await processPhoto(file(justUnder, "image/jpeg"), tools());
    assert.ok(url.length < 500_000, `${url.length}`);
  });

  test("a HEIC photo the browser cannot decode asks iPhone users for Most Compatible", async () => {
    const expected = `${PHOTO_ALERTS.unsupportedFormat} ${IPHONE_HINT}`;
    assert.match(IPHONE_HINT, /Most Compatible/);
    await rejectsWith(processPhoto(file(HEIC, "image/heic", "IMG_0001.HEIC"), tools()), expected);
    // Named or typed HEIC, whatever its bytes.
    await rejectsWith(processPhoto(file(GIF, "", "IMG_0002.heif"), tools()), expected);
    await rejectsWith(processPhoto(file(GIF, "image/heif"), tools()), expected);
  });

  test("something that is not a picture is an unsupported format", async () => {
    await rejectsWith(processPhoto(file(new TextEncoder().encode("%PDF-1.7 ....."), "application/pdf"), tools()), PHOTO_ALERTS.unsupportedFormat);
  });

  test("a picture that decodes but cannot be re-encoded could not be processed", async () => {
    const t = tools({ primary: new Error("canvas too large"), fallback: new Error("canvas too large") });
    await rejectsWith(processPhoto(file(GIF, "image/gif"), t), PHOTO_ALERTS.processFailed);
  });

  test("an unreadable or empty file could not be read", async () => {
    const t = tools();
    t.head = async () => {
      throw new Error("NotReadableError");
    };
    await rejectsWith(processPhoto(file(JPEG), t), PHOTO_ALERTS.readFailed);
    await rejectsWith(processPhoto(file(new Uint8Array()), tools()), PHOTO_ALERTS.readFailed);
    await rejectsWith(processPhoto(file(JPEG), tools({ base64: new Error("gone") })), PHOTO_ALERTS.readFailed);
  });

  test("anything unexpected reads as the generic alert", () => {
    assert.equal(photoErrorText(new TypeError("x")), PHOTO_ALERTS.generic);
    assert.equal(PHOTO_ALERTS.generic, "Error processing photo. Please try again.");
  });
});

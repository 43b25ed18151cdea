// Retried uploads: what is retried, how long the pauses are, and that a recording is
// accepted only when the server's size and SHA-256 are the phone's.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, test } from "node:test";
import { ApiError } from "../src/lib/api.ts";
import {
  backoffMs,
  isRetryable,
  postWithRetry,
  receiptProblem,
  sha256Hex,
  UploadError,
  uploadPhoto,
  uploadRecording,
} from "../src/lib/upload.ts";
import { wavBlob } from "../src/lib/wav.ts";

/** A transport that answers from a script; records the requests. */
function scripted(...answers) {
  const requests = [];
  const transport = async (request) => {
    requests.push(request);
    const next = answers.shift();
    if (!next) throw new Error("no more answers");
    const answer = typeof next === "function" ? await next(request) : next;
    return { statusText: "", contentType: "application/json", text: "", ...answer };
  };
  transport.requests = requests;
  return transport;
}

const json = (status, body) => ({ status, text: JSON.stringify(body) });
const dropped = { status: 0, text: "", contentType: null };

function quick(extra = {}) {
  const pauses = [];
  return {
    pauses,
    options: {
      sleep: async (ms) => void pauses.push(ms),
      isOnline: () => true,
      waitOnline: async () => {},
      ...extra,
    },
  };
}

describe("retry rules", () => {
  test("no answer, timeouts, throttling and server failures are retried; refusals are not", () => {
    for (const s of [0, 408, 429, 500, 502, 503, 504]) assert.equal(isRetryable(s), true, String(s));
    for (const s of [400, 401, 403, 404, 413, 415, 501]) assert.equal(isRetryable(s), false, String(s));
  });

  test("pauses double from a second up to fifteen, with a little jitter", () => {
    const mid = () => 0.5;
    assert.deepEqual([2, 3, 4, 5, 6, 7].map((n) => backoffMs(n, mid)), [1000, 2000, 4000, 8000, 15000, 15000]);
    assert.equal(backoffMs(2, () => 0), 800);
    assert.equal(backoffMs(2, () => 1), 1200);
  });
});

describe("postWithRetry", () => {
  test("a dropped connection is tried again after a pause, and the progress says so", async () => {
    const transport = scripted(dropped, dropped, json(200, { ok: 1 }));
    const { pauses, options } = quick();
    const seen = [];
    const body = await postWithRetry("/x", () => ({ body: "b" }), { ...options, transport, onProgress: (p) => seen.push(p.phase) });
    assert.deepEqual(body, { ok: 1 });
    assert.equal(transport.requests.length, 3);
    assert.equal(pauses.length, 2);
    assert.ok(pauses[1] > pauses[0]);
    assert.deepEqual(seen, ["sending", "waiting", "sending", "waiting", "sending", "verifying"]);
  });

  test("gives up after five tries with an UploadError", async () => {
    const transport = scripted(dropped, dropped, json(503, { message: "busy" }), dropped, dropped, dropped);
    await assert.rejects(postWithRetry("/x", () => ({ body: "b" }), { ...quick().options, transport }), (err) => {
      assert.ok(err instanceof UploadError);
      return true;
    });
    assert.equal(transport.requests.length, 5);
  });

  test("a refusal ends at once with the server's message", async () => {
    const transport = scripted(json(415, { message: "The recording must be a WAV file" }));
    await assert.rejects(postWithRetry("/x", () => ({ body: "b" }), { ...quick().options, transport }), (err) => {
      assert.ok(err instanceof ApiError);
      assert.equal(err.status, 415);
      assert.equal(err.serverMessage, "The recording must be a WAV file");
      return true;
    });
    assert.equal(transport.requests.length, 1);
  });

  test("offline, it waits for the network before the next try", async () => {
    let online = false;
    const waits = [];
    const transport = scripted(dropped, json(200, {}));
    const options = {
      sleep: async () => {},
      isOnline: () => online,
      waitOnline: async (max) => {
        waits.push(max);
        online = true;
      },
    };
    const phases = [];
    await postWithRetry("/x", () => ({ body: "b" }), { ...options, transport, onProgress: (p) => phases.push(p) });
    assert.equal(waits.length, 1);
    assert.equal(phases.find((p) => p.phase === "waiting").offline, true);
  });

  test("each try gets a fresh body", async () => {
    let built = 0;
    const transport = scripted(dropped, json(200, {}));
    await postWithRetry("/x", () => ({ body: String(++built) }), { ...quick().options, transport });
    assert.deepEqual(transport.requests.map((r) => r.body), ["1", "2"]);
  });

  test("a cancelled upload stops", async () => {
    const controller = new AbortController();
    const transport = scripted(dropped);
    const options = {
      ...quick().options,
      sleep: async () => {
        controller.abort();
        throw new DOMException("cancelled", "AbortError");
      },
    };
    await assert.rejects(postWithRetry("/x", () => ({ body: "b" }), { ...options, transport, signal: controller.signal }), {
      name: "AbortError",
    });
  });
});

describe("recording upload", () => {
  const wav = wavBlob([Int16Array.from({ length: 16_000 }, (_, i) => (i % 200) - 100)]);

  async function expected() {
    const bytes = Buffer.from(await wav.arrayBuffer());
    return { size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex"), durationMs: 1000 };
  }

  const RECORDED_AT = Date.UTC(2026, 2, 6, 23, 30);

  test("SHA-256 as lower-case hex", async () => {
    assert.equal(await sha256Hex(new Blob(["abc"])), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  test("sends multipart 'recording' as recording.wav with userId and when it was recorded, and checks the receipt", async () => {
    const receipt = await expected();
    const transport = scripted(json(200, receipt));
    const got = await uploadRecording(7, wav, 42, RECORDED_AT, { ...quick().options, transport });
    assert.deepEqual(got, receipt);
    const { url, body } = transport.requests[0];
    assert.equal(url, "/api/clients/7/recording");
    assert.ok(body instanceof FormData);
    const file = body.get("recording");
    assert.equal(file.name, "recording.wav");
    assert.equal(file.size, wav.size);
    assert.equal(body.get("userId"), "42");
    const { headers } = transport.requests[0];
    assert.equal(headers["X-Recorded-At"], String(RECORDED_AT));
    assert.equal(headers["X-Time-Zone-Offset"], String(-new Date(RECORDED_AT).getTimezoneOffset()));
  });

  test("a receipt that does not match the phone's file is tried again, then refused", async () => {
    const receipt = await expected();
    const wrong = { ...receipt, sha256: "0".repeat(64) };
    const transport = scripted(json(200, wrong), json(200, receipt));
    assert.deepEqual(await uploadRecording(7, wav, 42, RECORDED_AT, { ...quick().options, transport }), receipt);

    const always = scripted(...Array.from({ length: 5 }, () => json(200, { ...receipt, size: 1 })));
    await assert.rejects(uploadRecording(7, wav, 42, RECORDED_AT, { ...quick().options, transport: always }), UploadError);
  });

  test("receiptProblem names what differs", () => {
    const local = { size: 10, sha256: "ab", durationMs: 5 };
    assert.equal(receiptProblem({ size: 10, sha256: "AB", durationMs: 5 }, local), null);
    assert.match(receiptProblem({ size: 9, sha256: "ab", durationMs: 5 }, local), /9 bytes/);
    assert.match(receiptProblem({ size: 10, sha256: "cd", durationMs: 5 }, local), /differs/);
    assert.match(receiptProblem({ size: 10, sha256: "ab", durationMs: 900 }, local), /length/);
    assert.match(receiptProblem(null, local), /did not confirm/);
  });

  test("the photo goes as JSON {photo, userId}", async () => {
    const transport = scripted(dropped, json(200, { photoUrl: "/api/clients/3/photo?v=9" }));
    const got = await uploadPhoto(3, "data:image/jpeg;base64,AAAA", 42, { ...quick().options, transport });
    assert.deepEqual(got, { photoUrl: "/api/clients/3/photo?v=9" });
    const { url, body, headers } = transport.requests[1];
    assert.equal(url, "/api/clients/3/photo");
    assert.equal(headers["Content-Type"], "application/json");
    assert.deepEqual(JSON.parse(body), { photo: "data:image/jpeg;base64,AAAA", userId: 42 });
  });
});

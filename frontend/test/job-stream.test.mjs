// Following a job over server-sent events with a scripted EventSource: what reaches
// the page, when the stream is closed, and how a failed stream is tried again.

import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, mock, test } from "node:test";
import { openJobStream } from "../src/lib/job-stream.ts";

const CONNECTING = 0;
const CLOSED = 2;

class FakeSource {
  constructor(url) {
    this.url = url;
    this.readyState = CONNECTING;
    this.closed = false;
    this.listeners = new Map();
  }
  addEventListener(type, listener) {
    if (!this.listeners.has(type)) this.listeners.set(type, []);
    this.listeners.get(type).push(listener);
  }
  close() {
    this.closed = true;
    this.readyState = CLOSED;
  }
  emit(type, data) {
    for (const listener of this.listeners.get(type) ?? []) {
      listener({ data: typeof data === "string" ? data : JSON.stringify(data) });
    }
  }
  /** The connection failed; `readyState` says whether the browser tries again itself. */
  fail(readyState) {
    this.readyState = readyState;
    for (const listener of this.listeners.get("error") ?? []) listener({});
  }
}

const job = (status, progress = 0, error = null) => ({ status, progress, error, updatedAt: "2026-03-01T10:00:00Z" });
const client = (status) => ({ id: 7, name: "Grace Hopper", summary: "Pilot agreed.", nextSteps: "Send the proposal", job: job(status, 100) });

let sources;
let seen;
let stop;

function start(options = {}) {
  stop = openJobStream(
    7,
    {
      job: (j) => seen.push(["job", j.status, j.progress]),
      client: (c) => seen.push(["client", c.job?.status]),
      refresh: () => seen.push(["refresh"]),
    },
    {
      open: (url) => {
        const source = new FakeSource(url);
        sources.push(source);
        return source;
      },
      resultsGraceMs: 3_000,
      retryMs: 5_000,
      maxRetryMs: 20_000,
      ...options,
    },
  );
  return sources[0];
}

beforeEach(() => {
  mock.timers.enable({ apis: ["setTimeout"] });
  sources = [];
  seen = [];
});
afterEach(() => {
  stop?.();
  mock.timers.reset();
});

describe("the job's event stream", () => {
  test("opens the client's stream and passes each step of the work on", () => {
    const source = start();
    assert.equal(source.url, "/api/clients/7/events");
    source.emit("job", job("queued"));
    source.emit("job", job("transcribing", 42));
    source.emit("job", job("summarising", 80));
    assert.deepEqual(seen, [
      ["job", "queued", 0],
      ["job", "transcribing", 42],
      ["job", "summarising", 80],
    ]);
    assert.equal(source.closed, false);
  });

  test("results: the client goes on screen and the stream is closed", () => {
    const source = start();
    source.emit("job", job("summarising", 90));
    source.emit("client", client("done"));
    assert.deepEqual(seen.at(-1), ["client", "done"]);
    assert.equal(source.closed, true);
    source.emit("job", job("queued"));
    assert.equal(seen.length, 2, "nothing after the end");
  });

  test("`done` before its results: the status waits for them, then both go on screen", () => {
    const source = start();
    source.emit("job", job("summarising", 99));
    source.emit("job", job("done", 100));
    assert.deepEqual(seen, [["job", "summarising", 99]], "no empty summary flashes up");
    source.emit("client", client("done"));
    assert.deepEqual(seen.at(-1), ["client", "done"]);
    assert.equal(source.closed, true);
    mock.timers.tick(10_000);
    assert.equal(seen.filter(([kind]) => kind === "refresh").length, 0, "the results came: nothing to read again");
  });

  test("results written before `done`: the status follows them and the stream closes", () => {
    const source = start();
    source.emit("job", job("summarising", 100));
    source.emit("client", client("summarising"));
    assert.equal(source.closed, false);
    source.emit("job", job("done", 100));
    assert.deepEqual(seen.slice(-2), [["client", "summarising"], ["job", "done", 100]]);
    assert.equal(source.closed, true);
  });

  test("`done` whose results never come: the client is read after a short wait", () => {
    const source = start();
    source.emit("job", job("transcribing", 100));
    source.emit("job", job("done", 100));
    mock.timers.tick(2_999);
    assert.equal(seen.at(-1)[0], "job");
    mock.timers.tick(1);
    assert.deepEqual(seen.at(-1), ["refresh"]);
    assert.equal(source.closed, true);
  });

  test("`done` and then the server ends the stream: the client is read at once", () => {
    const source = start();
    source.emit("job", job("summarising", 100));
    source.emit("job", job("done", 100));
    source.fail(CONNECTING);
    assert.deepEqual(seen.at(-1), ["refresh"]);
    assert.equal(source.closed, true);
    assert.equal(sources.length, 1);
  });

  test("a job that finished before the stream opened: the client is read at once", () => {
    const source = start();
    source.emit("job", job("done", 100));
    assert.deepEqual(seen, [["refresh"]]);
    assert.equal(source.closed, true);
  });

  test("a failure goes on screen and ends the stream", () => {
    const source = start();
    source.emit("job", job("transcribing", 10));
    source.emit("job", job("failed", 10, "No speech found."));
    assert.deepEqual(seen.at(-1), ["job", "failed", 10]);
    assert.equal(source.closed, true);
  });

  test("a dropped connection is left to the browser's own reconnection", () => {
    const source = start();
    source.emit("job", job("transcribing", 10));
    source.fail(CONNECTING);
    mock.timers.tick(120_000);
    assert.equal(sources.length, 1, "no second EventSource");
    assert.equal(source.closed, false);
    assert.deepEqual(seen, [["job", "transcribing", 10]]);
  });

  test("a stream the browser gave up on: the client is read, then the stream tried again, ever more slowly", () => {
    const first = start();
    first.fail(CLOSED);
    assert.deepEqual(seen, [["refresh"]]);
    mock.timers.tick(4_999);
    assert.equal(sources.length, 1, "no retry in a loop");
    mock.timers.tick(1);
    assert.equal(sources.length, 2);
    sources[1].fail(CLOSED);
    mock.timers.tick(9_999);
    assert.equal(sources.length, 2, "the pause doubles");
    mock.timers.tick(1);
    assert.equal(sources.length, 3);
    sources[2].fail(CLOSED);
    mock.timers.tick(20_000);
    assert.equal(sources.length, 4);
    sources[3].fail(CLOSED);
    mock.timers.tick(20_000);
    assert.equal(sources.length, 5, "capped at maxRetryMs");
    // An event resets the pause.
    sources[4].emit("job", job("transcribing", 50));
    sources[4].fail(CLOSED);
    mock.timers.tick(5_000);
    assert.equal(sources.length, 6);
    assert.equal(seen.filter(([kind]) => kind === "refresh").length, 5);
  });

  test("stopping closes the stream and cancels a pending retry", () => {
    const source = start();
    source.fail(CLOSED);
    stop();
    mock.timers.tick(60_000);
    assert.equal(sources.length, 1);
    assert.equal(source.closed, true);

    const again = start();
    stop();
    assert.equal(again.closed, true);
    again.emit("job", job("transcribing", 5));
    assert.deepEqual(seen, [["refresh"]], "nothing reaches the page after stop");
  });

  test("malformed events and another client's data are ignored", () => {
    const source = start();
    source.emit("job", "not json");
    source.emit("job", { status: "unknown" });
    source.emit("client", { ...client("done"), id: 8 });
    source.emit("client", "{");
    assert.deepEqual(seen, []);
    assert.equal(source.closed, false);
  });
});

// The cached client and its History row kept in step: a changed client, a job's progress.

import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, test } from "node:test";
import { setFetch } from "../src/lib/api.ts";
import { clientPath, LIST_PATH, rememberClient, rememberJob, updatedRow } from "../src/pages/client/client-cache.ts";
import { clearQueries, query, setQueryData } from "../src/stores/query.ts";
import { fakeFetch } from "./fake-fetch.mjs";

const job = (status, progress = 0) => ({ status, progress, error: null, updatedAt: "2026-03-01T10:00:00Z" });
const row = (id, overrides = {}) => ({
  id,
  name: `Client ${id}`,
  email: `c${id}@x.io`,
  company: null,
  photoUrl: null,
  summary: null,
  jobStatus: null,
  createdAt: "2026-03-01T09:00:00Z",
  ...overrides,
});
const client = (overrides = {}) => ({
  ...row(7),
  userId: 1,
  phone: "555-123-4567",
  position: null,
  recordingUrl: "/api/clients/7/recording",
  recording: { size: 10, sha256: "ab", durationMs: 1000 },
  transcription: null,
  nextSteps: null,
  job: job("transcribing", 10),
  ...overrides,
});

let f;
beforeEach(() => {
  clearQueries();
  // Any request would fail the test: these are writes to the cache only.
  f = fakeFetch();
  setFetch(f);
});
afterEach(() => setFetch(null));

/** The cached data of a path, read while watched (without a request: it is already there). */
function cached(path) {
  const store = query(path);
  const stop = store.listen(() => {});
  const { data } = store.get();
  stop();
  return data;
}

describe("the cached client and its History row", () => {
  test("a job's progress reaches the client page and the row's status", () => {
    setQueryData(clientPath(7), () => client());
    setQueryData(LIST_PATH, () => [row(6), row(7, { jobStatus: "transcribing" })]);
    rememberJob(7, job("summarising", 40));
    assert.deepEqual(cached(clientPath(7)).job, job("summarising", 40));
    assert.deepEqual(
      cached(LIST_PATH).map((r) => r.jobStatus),
      [null, "summarising"],
    );
    assert.equal(f.calls.length, 0);
  });

  test("a job for a client not in the cache leaves nothing half-made", () => {
    rememberJob(9, job("queued"));
    assert.equal(query(clientPath(9)).value.data, undefined);
    assert.equal(query(LIST_PATH).value.data, undefined);
    assert.equal(f.calls.length, 0);
  });

  test("the client with its results replaces the old one, and History shows no stale summary", () => {
    setQueryData(clientPath(7), () => client());
    setQueryData(LIST_PATH, () => [row(7, { summary: "Old", jobStatus: "summarising" }), row(8)]);
    const done = client({ summary: "We agreed a pilot.", nextSteps: "Send the proposal", transcription: "Hello.", job: job("done", 100) });
    rememberClient(done);
    assert.deepEqual(cached(clientPath(7)), done);
    const [seven, eight] = cached(LIST_PATH);
    assert.equal(seven.summary, "We agreed a pilot.");
    assert.equal(seven.jobStatus, "done");
    assert.deepEqual(eight, row(8));
  });

  test("a History row follows the saved client", () => {
    const before = row(7);
    const saved = { ...client({ name: "B", email: "b@x.io", company: "C", summary: "S", job: null }), emailedAt: "2026-01-01T00:00:00.000Z" };
    assert.deepEqual(updatedRow(before, saved), {
      ...before,
      name: "B",
      email: "b@x.io",
      company: "C",
      summary: "S",
      jobStatus: null,
      emailedAt: saved.emailedAt,
    });
    assert.equal(updatedRow(before, client({ job: job("failed") })).jobStatus, "failed");
  });
});

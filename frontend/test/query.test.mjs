import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, test } from "node:test";
import { setFetch } from "../src/lib/api.ts";
import { clearQueries, invalidate, query, setQueryData } from "../src/stores/query.ts";
import { fakeFetch } from "./fake-fetch.mjs";

const tick = () => new Promise((r) => setTimeout(r, 0));
let f;

beforeEach(() => {
  clearQueries();
  f = fakeFetch();
  setFetch(f);
});
afterEach(() => setFetch(null));

describe("cached reads", () => {
  test("nothing is fetched until a screen subscribes", async () => {
    query("/api/clients");
    await tick();
    assert.equal(f.calls.length, 0);
  });

  test("fetched once, shared, and kept after the last subscriber leaves", async () => {
    f.reply(200, [{ id: 1 }]);
    const a = query("/api/clients");
    assert.equal(query("/api/clients"), a);
    const seen = [];
    const stop = a.subscribe((s) => seen.push(s));
    assert.equal(a.get().loading, true);
    await tick();
    assert.deepEqual(a.get(), { loading: false, data: [{ id: 1 }], error: undefined });
    stop();
    const again = a.listen(() => {});
    await tick();
    again();
    assert.equal(f.calls.length, 1, "never refetched");
    assert.equal(seen.at(-1).data[0].id, 1);
  });

  test("a failure is kept as an error and not retried", async () => {
    f.reply(500, { message: "boom" });
    const s = query("/api/clients/3");
    const stop = s.listen(() => {});
    await tick();
    assert.equal(s.get().error.message, '500: {"message":"boom"}');
    stop();
    s.listen(() => {})();
    await tick();
    assert.equal(f.calls.length, 1);
  });

  test("allow401 reads resolve to null", async () => {
    f.reply(401, {});
    const s = query("/api/admin/users", { allow401: true });
    const stop = s.listen(() => {});
    await tick();
    assert.deepEqual(s.get(), { loading: false, data: null, error: undefined });
    stop();
  });

  test("invalidate reloads watched reads and resets the others", async () => {
    f.reply(200, [1]).reply(200, [1, 2]);
    const watched = query("/api/clients");
    const stop = watched.listen(() => {});
    await tick();
    const other = query("/api/clients/5");
    invalidate("/api/clients");
    await tick();
    assert.deepEqual(watched.get().data, [1, 2]);
    assert.equal(f.calls.length, 2, "the unwatched read waits for its next subscriber");
    assert.equal(other.get().data, undefined);
    stop();
  });

  test("a read dropped just after its screen left loads when the screen comes straight back", async () => {
    f.reply(200, [1]).reply(200, [1, 2]);
    const s = query("/api/next-steps?status=open");
    let stop = s.listen(() => {});
    await tick();
    stop(); // the screen left; the store stays mounted for a moment
    invalidate("/api/next-steps?status=open");
    stop = query("/api/next-steps?status=open").listen(() => {});
    await tick();
    assert.equal(f.calls.length, 2);
    assert.deepEqual(query("/api/next-steps?status=open").get().data, [1, 2]);
    stop();
  });

  test("setQueryData replaces cached data without a request", async () => {
    setQueryData("/api/clients", () => [{ id: 9 }]);
    setQueryData("/api/clients", (old) => [...old, { id: 10 }]);
    const s = query("/api/clients");
    const stop = s.listen(() => {});
    await tick();
    assert.deepEqual(s.get().data, [{ id: 9 }, { id: 10 }]);
    assert.equal(f.calls.length, 0);
    stop();
  });

  test("an answer that arrives after clearQueries is dropped", async () => {
    const answer = f.defer();
    const s = query("/api/clients");
    const stop = s.listen(() => {});
    clearQueries();
    answer(200, [{ id: 1 }]);
    await tick();
    assert.equal(s.get().data, undefined);
    stop();
  });
});

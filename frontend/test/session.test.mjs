import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, test } from "node:test";
import { setFetch } from "../src/lib/api.ts";
import { query } from "../src/stores/query.ts";
import {
  $session,
  checkSession,
  clearSession,
  resetSessionForTests,
  SESSION_FRESH_MS,
  setUser,
  watchSession,
} from "../src/stores/session.ts";
import { fakeFetch } from "./fake-fetch.mjs";

const user = {
  id: 7,
  email: "ada@example.com",
  firstName: "Ada",
  lastName: "Lovelace",
  company: "Engines Ltd",
  position: "Analyst",
  linkedinUrl: null,
  profileImageUrl: null,
  createdAt: "2026-01-01T00:00:00Z",
};

let clock;
const realNow = Date.now;
let f;

beforeEach(() => {
  clock = 1_000_000;
  Date.now = () => clock;
  resetSessionForTests();
  f = fakeFetch();
  setFetch(f);
});
afterEach(() => {
  Date.now = realNow;
  setFetch(null);
});

/** A window stand-in: enough for focus and visibility events. */
function fakeWindow() {
  const win = new EventTarget();
  win.document = new EventTarget();
  win.document.visibilityState = "visible";
  return win;
}

describe("session check", () => {
  test("asks /api/auth/session past the HTTP cache, with credentials", async () => {
    f.reply(200, { user });
    await checkSession();
    const { url, init } = f.calls[0];
    assert.equal(url, "/api/auth/session");
    assert.equal(init.method, "GET");
    assert.equal(init.cache, "no-store");
    assert.equal(init.credentials, "same-origin");
    assert.deepEqual($session.get(), { status: "authenticated", user });
  });

  test("a user of null means signed out", async () => {
    f.reply(200, { user: null });
    assert.equal($session.get().status, "loading");
    await checkSession();
    assert.deepEqual($session.get(), { status: "anonymous", user: null });
  });

  test("an answer stays fresh for 30 s", async () => {
    f.reply(200, { user });
    await checkSession();
    clock += SESSION_FRESH_MS - 1;
    await checkSession();
    assert.equal(f.calls.length, 1);
    f.reply(200, { user: null });
    clock += 1;
    await checkSession();
    assert.equal(f.calls.length, 2);
    assert.equal($session.get().status, "anonymous");
  });

  test("concurrent checks share one request", async () => {
    const answer = f.defer();
    const a = checkSession();
    const b = checkSession(true);
    answer(200, { user });
    await Promise.all([a, b]);
    assert.equal(f.calls.length, 1);
  });

  test("a failed check is not retried; with nothing known it counts as signed out", async () => {
    f.reply(500, "boom");
    await checkSession();
    assert.equal(f.calls.length, 1);
    assert.equal($session.get().status, "anonymous");
    await checkSession();
    assert.equal(f.calls.length, 1, "still fresh: no retry");
  });

  test("a failed re-check keeps the signed-in user", async () => {
    f.reply(200, { user }).fail(new TypeError("Failed to fetch"));
    await checkSession();
    clock += SESSION_FRESH_MS;
    await checkSession();
    assert.deepEqual($session.get(), { status: "authenticated", user });
  });

  test("focus re-checks only when the answer is stale", async () => {
    const win = fakeWindow();
    f.reply(200, { user });
    const stop = watchSession(win);
    await new Promise((r) => setTimeout(r, 0));
    assert.equal(f.calls.length, 1);

    win.dispatchEvent(new Event("focus"));
    await new Promise((r) => setTimeout(r, 0));
    assert.equal(f.calls.length, 1, "fresh: no request on focus");

    clock += SESSION_FRESH_MS;
    f.reply(200, { user: null });
    win.dispatchEvent(new Event("focus"));
    await new Promise((r) => setTimeout(r, 0));
    assert.equal(f.calls.length, 2);
    assert.equal($session.get().status, "anonymous");

    clock += SESSION_FRESH_MS;
    f.reply(200, { user });
    win.document.dispatchEvent(new Event("visibilitychange"));
    await new Promise((r) => setTimeout(r, 0));
    assert.equal(f.calls.length, 3);
    assert.equal($session.get().status, "authenticated");

    stop();
    clock += SESSION_FRESH_MS;
    win.dispatchEvent(new Event("focus"));
    assert.equal(f.calls.length, 3, "no listener after stop");
  });

  test("setUser signs in without asking and counts as fresh", async () => {
    setUser(user);
    assert.deepEqual($session.get(), { status: "authenticated", user });
    await checkSession();
    assert.equal(f.calls.length, 0);
  });

  test("setUser wins over a check still under way", async () => {
    const answer = f.defer();
    const pending = checkSession();
    setUser(user);
    answer(200, { user: null });
    await pending;
    assert.equal($session.get().status, "authenticated");
  });

  test("the signed-in user is remembered for a check that gets no answer", async () => {
    const stored = new Map();
    globalThis.localStorage = {
      getItem: (k) => stored.get(k) ?? null,
      setItem: (k, v) => stored.set(k, String(v)),
      removeItem: (k) => stored.delete(k),
    };
    try {
      setUser(user);
      resetSessionForTests();
      f.fail(new TypeError("Failed to fetch"));
      await checkSession();
      assert.deepEqual($session.get(), { status: "authenticated", user }, "offline, still signed in");

      f.reply(200, { user: null });
      await checkSession(true);
      assert.equal($session.get().status, "anonymous");
      resetSessionForTests();
      f.fail(new TypeError("Failed to fetch"));
      await checkSession();
      assert.equal($session.get().status, "anonymous", "an answer of nobody forgets the user");

      setUser(user);
      clearSession();
      assert.equal(stored.size, 0, "signing out forgets the user");
    } finally {
      delete globalThis.localStorage;
    }
  });

  test("clearSession signs out and forgets cached reads", async () => {
    setUser(user);
    f.reply(200, [{ id: 1 }]);
    const clients = query("/api/clients");
    const stop = clients.listen(() => {});
    await new Promise((r) => setTimeout(r, 0));
    assert.deepEqual(clients.get().data, [{ id: 1 }]);

    clearSession();
    stop();
    assert.deepEqual($session.get(), { status: "anonymous", user: null });
    assert.equal(clients.get().data, undefined);
    assert.notEqual(query("/api/clients"), clients, "a fresh store after logout");
  });
});

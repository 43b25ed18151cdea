import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, test } from "node:test";
import { setFetch, api } from "../src/lib/api.ts";
import { $reachable, noteAnswer, noteNoAnswer, probe, watchConnection } from "../src/stores/connection.ts";
import { fakeFetch } from "./fake-fetch.mjs";

/** A window stand-in: network and visibility events, and navigator.onLine. */
function fakeWindow(onLine = true) {
  const win = new EventTarget();
  win.document = new EventTarget();
  win.document.visibilityState = "visible";
  win.navigator = { onLine };
  return win;
}

const tick = () => new Promise((r) => setTimeout(r, 0));

beforeEach(() => $reachable.set(true));
afterEach(() => setFetch(null));

describe("reaching the server", () => {
  test("a request with no answer marks the server unreachable; any answer marks it back", async () => {
    const f = fakeFetch().fail(new TypeError("Failed to fetch")).reply(404, { message: "nope" });
    setFetch(f);
    await assert.rejects(api.get("/api/clients"));
    assert.equal($reachable.get(), false);
    await assert.rejects(api.get("/api/clients/9"));
    assert.equal($reachable.get(), true, "a 404 is an answer");
  });

  test("a cancelled request says nothing about the server", async () => {
    const controller = new AbortController();
    controller.abort();
    setFetch(fakeFetch().fail(new DOMException("aborted", "AbortError")));
    await assert.rejects(api.get("/api/clients", { signal: controller.signal }));
    assert.equal($reachable.get(), true);
  });

  test("a gateway's 502 or 504 is no sign either way", () => {
    noteNoAnswer();
    noteAnswer(502);
    noteAnswer(504);
    assert.equal($reachable.get(), false);
    noteAnswer(503);
    assert.equal($reachable.get(), true, "503 comes from the server itself (a missing model)");
  });

  test("the health check decides: 200 reachable, anything else or nothing not", async () => {
    const f = fakeFetch().reply(200, { status: "ok" }).reply(502, "Bad Gateway").fail(new TypeError("Failed to fetch"));
    assert.equal(await probe(f), true);
    assert.equal(f.calls[0].url, "/api/health");
    assert.equal(f.calls[0].init.cache, "no-store");
    assert.equal(await probe(f), false);
    assert.equal($reachable.get(), false);
    $reachable.set(true);
    assert.equal(await probe(f), false);
    assert.equal($reachable.get(), false);
  });

  test("the phone's own offline and online events are followed", async () => {
    const win = fakeWindow(false);
    const f = fakeFetch().reply(200, { status: "ok" });
    const stop = watchConnection(win, f);
    assert.equal($reachable.get(), false, "offline from the start");
    win.dispatchEvent(new Event("online"));
    await tick();
    assert.equal(f.calls.length, 1, "asked the server at once");
    assert.equal($reachable.get(), true);
    win.dispatchEvent(new Event("offline"));
    assert.equal($reachable.get(), false);
    stop();
  });

  test("while unreachable, looking at the app again asks the server", async () => {
    const win = fakeWindow();
    const f = fakeFetch().reply(200, { status: "ok" });
    const stop = watchConnection(win, f);
    $reachable.set(false);
    win.document.dispatchEvent(new Event("visibilitychange"));
    await tick();
    assert.equal($reachable.get(), true);
    win.dispatchEvent(new Event("focus"));
    await tick();
    assert.equal(f.calls.length, 1, "not asked again once reachable");
    stop();
  });
});

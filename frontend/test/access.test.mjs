import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { decideAccess, matchPath } from "../src/lib/access.ts";

const show = { kind: "show" };
const wait = { kind: "wait" };
const to = (path) => ({ kind: "redirect", to: path });

describe("route access", () => {
  const cases = [
    // access, session, admin flag, decision
    ["public", "loading", false, show],
    ["public", "anonymous", false, show],
    ["public", "authenticated", true, show],
    ["signed-out", "loading", false, wait],
    ["signed-out", "anonymous", false, show],
    ["signed-out", "authenticated", false, to("/")],
    ["signed-in", "loading", false, wait],
    ["signed-in", "anonymous", false, to("/login")],
    ["signed-in", "authenticated", false, show],
    ["admin", "loading", false, to("/admin/login")],
    ["admin", "authenticated", false, to("/admin/login")],
    ["admin", "anonymous", true, show],
    ["admin", "loading", true, show],
  ];
  for (const [access, session, admin, expected] of cases) {
    test(`${access} / ${session} / admin=${admin}`, () => {
      assert.deepEqual(decideAccess(access, session, admin), expected);
    });
  }
});

describe("route access before the session check answers", () => {
  test("a signed-out screen shows at once in a browser where nobody has signed in", () => {
    assert.deepEqual(decideAccess("signed-out", "loading", false, false), show);
  });
  test("a signed-out screen waits where someone has signed in, who may still be", () => {
    assert.deepEqual(decideAccess("signed-out", "loading", false, true), wait);
  });
  test("a signed-in screen waits either way", () => {
    assert.deepEqual(decideAccess("signed-in", "loading", false, false), wait);
  });
});

describe("matchPath", () => {
  test("static and parameter segments", () => {
    assert.deepEqual(matchPath("/", "/"), {});
    assert.equal(matchPath("/", "/history"), null);
    assert.deepEqual(matchPath("/history", "/history/"), {});
    assert.deepEqual(matchPath("/client/:id", "/client/42"), { id: "42" });
    assert.deepEqual(matchPath("/client/:id", "/client/a%20b"), { id: "a b" });
    assert.equal(matchPath("/client/:id", "/client/"), null);
    assert.equal(matchPath("/client/:id", "/client/1/2"), null);
    assert.equal(matchPath("/admin/login", "/admin/loginx"), null);
  });
});

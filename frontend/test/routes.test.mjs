import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { resolveAccess, routes } from "../src/routes.tsx";

describe("route table", () => {
  test("matches the product's routes and access rules", () => {
    const table = Object.fromEntries(routes.map((r) => [r.path, resolveAccess(r, "")]));
    assert.deepEqual(table, {
      "/login": "signed-out",
      "/signup": "signed-out",
      "/reset-password": "signed-out",
      "/confirm-email": "public",
      "/": "signed-in",
      "/history": "signed-in",
      "/client/:id": "signed-in",
      "/insights": "signed-in",
      "/profile": "signed-in",
      "/admin/login": "public",
      "/admin/dashboard": "admin",
      "/install": "public",
    });
  });

  test("a reset link opens even when signed in; asking for one is for signed-out visitors", () => {
    const reset = routes.find((r) => r.path === "/reset-password");
    assert.equal(resolveAccess(reset, "token=abc"), "public");
    assert.equal(resolveAccess(reset, "?token=abc"), "public");
    assert.equal(resolveAccess(reset, "other=1"), "signed-out");
  });

  test("every page can be lazily loaded", () => {
    for (const route of routes) assert.equal(typeof route.page.preload, "function", route.path);
  });
});

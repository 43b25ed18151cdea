import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { api, ApiError, errorMessage, request, setFetch } from "../src/lib/api.ts";
import { fakeFetch } from "./fake-fetch.mjs";

afterEach(() => setFetch(null));

function useFake() {
  const f = fakeFetch();
  setFetch(f);
  return f;
}

describe("api client", () => {
  test("reads JSON with credentials and no body", async () => {
    const f = useFake().reply(200, { id: 1 });
    assert.deepEqual(await api.get("/api/x"), { id: 1 });
    assert.equal(f.calls.length, 1);
    const { url, init } = f.calls[0];
    assert.equal(url, "/api/x");
    assert.equal(init.method, "GET");
    assert.equal(init.credentials, "same-origin");
    assert.equal(init.body, undefined);
    assert.equal(init.headers.Accept, "application/json");
  });

  test("sends a plain value as JSON", async () => {
    const f = useFake().reply(200, { ok: true });
    await api.post("/api/auth/login", { email: "a@b.c", password: "p" });
    const { init } = f.calls[0];
    assert.equal(init.method, "POST");
    assert.equal(init.headers["Content-Type"], "application/json");
    assert.equal(init.body, '{"email":"a@b.c","password":"p"}');
    assert.equal(init.credentials, "same-origin");
  });

  test("sends FormData as it is, letting the browser set the multipart type", async () => {
    const f = useFake().reply(200, {});
    const form = new FormData();
    form.append("businessCard", new Blob(["x"]), "card.png");
    await api.post("/api/business-card/scan", form);
    assert.equal(f.calls[0].init.body, form);
    assert.equal(f.calls[0].init.headers["Content-Type"], undefined);
  });

  test("PUT, PATCH and DELETE use their methods", async () => {
    const f = useFake().reply(200, {}).reply(200, {}).reply(204, null);
    await api.put("/api/profile", { a: 1 });
    await api.patch("/api/clients/1", { b: 2 });
    assert.equal(await api.delete("/api/clients/1"), null);
    assert.deepEqual(
      f.calls.map((c) => c.init.method),
      ["PUT", "PATCH", "DELETE"],
    );
  });

  test("an empty OK body resolves to null; plain text resolves to the text", async () => {
    useFake().reply(200, null).reply(200, "pong");
    assert.equal(await api.post("/api/auth/logout"), null);
    assert.equal(await api.get("/api/ping"), "pong");
  });

  test("a JSON error's message is the status, a colon and the JSON text", async () => {
    const body = { message: "Email already registered", fieldErrors: [{ field: "email", message: "taken" }] };
    useFake().reply(400, body);
    const err = await api.post("/api/auth/signup", {}).catch((e) => e);
    assert.ok(err instanceof ApiError);
    assert.ok(err instanceof Error);
    assert.equal(err.message, `400: ${JSON.stringify(body)}`);
    assert.equal(err.status, 400);
    assert.deepEqual(err.body, body);
    assert.equal(err.serverMessage, "Email already registered");
    assert.deepEqual(err.fieldErrors, [{ field: "email", message: "taken" }]);
  });

  test("a plain-text error carries the text", async () => {
    useFake().reply(500, "database is locked", { statusText: "Internal Server Error" });
    const err = await api.get("/api/clients").catch((e) => e);
    assert.equal(err.message, "500: database is locked");
    assert.equal(err.body, "database is locked");
    assert.equal(err.serverMessage, undefined);
    assert.deepEqual(err.fieldErrors, []);
  });

  test("an error without a body falls back to the status text", async () => {
    useFake().reply(404, null, { statusText: "Not Found" });
    const err = await api.get("/api/clients/9").catch((e) => e);
    assert.equal(err.message, "404: Not Found");
    assert.equal(err.body, null);
  });

  test("invalid JSON labelled as JSON is kept as text", async () => {
    useFake().reply(502, "<html>bad gateway</html>", { contentType: "application/json" });
    const err = await api.get("/api/x").catch((e) => e);
    assert.equal(err.message, "502: <html>bad gateway</html>");
    assert.equal(err.body, "<html>bad gateway</html>");
  });

  test("`error` stands in for `message`; malformed fieldErrors are dropped", async () => {
    useFake().reply(422, { error: "Could not read the card", fieldErrors: [{ field: 1 }, { field: "name", message: "x" }] });
    const err = await api.get("/api/x").catch((e) => e);
    assert.equal(err.serverMessage, "Could not read the card");
    assert.deepEqual(err.fieldErrors, [{ field: "name", message: "x" }]);
  });

  test("401 throws unless the read treats it as empty", async () => {
    useFake().reply(401, { message: "Not signed in" }).reply(401, { message: "Not signed in" });
    const err = await api.get("/api/auth/me").catch((e) => e);
    assert.equal(err.status, 401);
    assert.equal(err.message, '401: {"message":"Not signed in"}');
    assert.equal(await api.get("/api/auth/me", { allow401: true }), null);
  });

  test("allow401 does not hide other errors", async () => {
    useFake().reply(403, { message: "nope" });
    const err = await api.get("/api/x", { allow401: true }).catch((e) => e);
    assert.equal(err.status, 403);
  });

  test("nothing is retried: one failure, one call", async () => {
    const f = useFake().reply(503, { message: "busy" });
    await assert.rejects(api.get("/api/x"));
    await assert.rejects(api.post("/api/y", {}), /unexpected fetch/);
    assert.equal(f.calls.length, 2);
  });

  test("a network failure propagates as it is", async () => {
    const f = useFake().fail(new TypeError("Failed to fetch"));
    await assert.rejects(api.get("/api/x"), { name: "TypeError", message: "Failed to fetch" });
    assert.equal(f.calls.length, 1);
  });

  test("cache and signal options reach fetch", async () => {
    const f = useFake().reply(200, {});
    const controller = new AbortController();
    await request("GET", "/api/auth/me", { cache: "no-store", signal: controller.signal });
    assert.equal(f.calls[0].init.cache, "no-store");
    assert.equal(f.calls[0].init.signal, controller.signal);
  });

  test("errorMessage prefers the server's words", async () => {
    useFake().reply(401, { message: "Invalid email or password." });
    const err = await api.post("/api/auth/login", {}).catch((e) => e);
    assert.equal(errorMessage(err, "Invalid email or password"), "Invalid email or password.");
    assert.equal(errorMessage(new TypeError("Failed to fetch"), "fallback"), "fallback");
    assert.equal(errorMessage(new ApiError(500, "Internal Server Error", "", null), "fallback"), "fallback");
  });
});

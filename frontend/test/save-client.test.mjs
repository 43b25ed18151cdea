// The New Client save flow: create, photo, recording, in that order; the failures'
// toasts; the Idempotency-Key.

import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { ApiError, setFetch } from "../src/lib/api.ts";
import { describeCreateFailure, SAVE_TEXT, saveClient } from "../src/pages/new-client/save-client.ts";
import { wavBlob } from "../src/lib/wav.ts";
import { fakeFetch } from "./fake-fetch.mjs";

afterEach(() => setFetch(null));

const values = { name: " Jane O'Neil ", email: "jane@client.example", phone: "+1 555 123 4567", company: "Globex", position: "" };
const client = {
  id: 12,
  name: "Jane O'Neil",
  email: "jane@client.example",
  phone: "+1 555 123 4567",
  company: "Globex",
  position: null,
};

function transportFrom(answers) {
  const requests = [];
  const transport = async (request) => {
    requests.push(request);
    const next = answers.shift();
    return typeof next === "function" ? next(request) : next;
  };
  transport.requests = requests;
  return transport;
}

const noWait = { sleep: async () => {}, isOnline: () => true, waitOnline: async () => {} };

describe("save client", () => {
  test("creates with the key, then the photo, then the recording", async () => {
    const f = fakeFetch().reply(201, client);
    setFetch(f);
    const wav = wavBlob([new Int16Array(16)]);
    const bytes = new Uint8Array(await wav.arrayBuffer());
    const digest = Buffer.from(await crypto.subtle.digest("SHA-256", bytes)).toString("hex");
    const transport = transportFrom([
      { status: 200, text: '{"photoUrl":"/p"}', contentType: "application/json" },
      { status: 200, text: JSON.stringify({ size: bytes.length, sha256: digest, durationMs: 1 }), contentType: "application/json" },
    ]);
    const stages = [];
    const result = await saveClient(
      { values, userId: 5, idempotencyKey: "key-1", photo: "data:image/jpeg;base64,AA", recording: { wav, localId: null, recordedAt: 0 } },
      { onStage: (s) => stages.push(s), retry: { ...noWait, transport } },
    );
    assert.deepEqual(stages, ["client", "photo", "recording"]);
    assert.deepEqual(result, { client, photoSaved: true, recordingSaved: true });
    const { url, init } = f.calls[0];
    assert.equal(url, "/api/clients");
    assert.equal(init.headers["Idempotency-Key"], "key-1");
    assert.deepEqual(JSON.parse(init.body), {
      clientData: { name: "Jane O'Neil", email: "jane@client.example", phone: "+1 555 123 4567", company: "Globex", position: "", userId: 5 },
    });
    assert.deepEqual(transport.requests.map((r) => r.url), ["/api/clients/12/photo", "/api/clients/12/recording"]);
  });

  test("photo and recording failures are noted and the client is still saved", async () => {
    setFetch(fakeFetch().reply(201, client));
    const answers = [{ status: 413, text: '{"message":"too big"}', contentType: "application/json" }];
    for (let i = 0; i < 5; i++) answers.push({ status: 0, text: "", contentType: null });
    const transport = transportFrom(answers);
    const warn = console.warn;
    console.warn = () => {};
    try {
      const result = await saveClient(
        { values, userId: 5, idempotencyKey: "k", photo: "data:image/png;base64,AA", recording: { wav: wavBlob([]), localId: null, recordedAt: 0 } },
        { retry: { ...noWait, transport } },
      );
      assert.equal(result.photoSaved, false);
      assert.equal(result.recordingSaved, false);
      assert.equal(transport.requests.length, 6, "one photo try (refused), five recording tries");
    } finally {
      console.warn = warn;
    }
  });

  test("without photo or recording only the client is created", async () => {
    const f = fakeFetch().reply(200, client);
    setFetch(f);
    const result = await saveClient({ values, userId: 5, idempotencyKey: "k", photo: null, recording: null });
    assert.deepEqual(result, { client, photoSaved: null, recordingSaved: null });
    assert.equal(f.calls.length, 1);
  });

  test("a retry that gets back a client made with older details brings it up to date", async () => {
    const older = { ...client, phone: "555 000 0000" };
    const f = fakeFetch().reply(200, older).reply(200, client);
    setFetch(f);
    const result = await saveClient({ values, userId: 5, idempotencyKey: "k", photo: null, recording: null });
    assert.equal(f.calls.length, 2);
    assert.equal(f.calls[1].url, "/api/clients/12");
    assert.equal(f.calls[1].init.method, "PATCH");
    assert.deepEqual(JSON.parse(f.calls[1].init.body), {
      name: "Jane O'Neil",
      email: "jane@client.example",
      phone: "+1 555 123 4567",
      company: "Globex",
      position: "",
    });
    assert.equal(result.client.phone, "+1 555 123 4567");
  });

  test("a failed create rejects before anything is uploaded", async () => {
    setFetch(fakeFetch().reply(400, { message: "Invalid", fieldErrors: [{ field: "email", message: "Email address is required" }] }));
    await assert.rejects(saveClient({ values, userId: 5, idempotencyKey: "k", photo: "x", recording: null }), ApiError);
  });
});

describe("create failures as the toast says them", () => {
  const api = (status, body) => new ApiError(status, "", JSON.stringify(body ?? ""), body ?? null);

  test("field errors are listed under 'Please fix the following:'", () => {
    const failure = describeCreateFailure(
      api(400, {
        message: "Invalid",
        fieldErrors: [
          { field: "name", message: "Client name is required" },
          { field: "phone", message: "Phone number is too long" },
        ],
      }),
    );
    assert.equal(failure.title, "Error");
    assert.equal(failure.description, "Please fix the following:\nname: Client name is required\nphone: Phone number is too long");
    assert.equal(failure.fieldErrors.length, 2);
    assert.equal(failure.answered, true);
  });

  test("the server's message, else 'Failed to create client'", () => {
    assert.equal(describeCreateFailure(api(409, { message: "Something" })).description, "Something");
    assert.equal(describeCreateFailure(api(400, null)).description, SAVE_TEXT.createFailed);
    assert.equal(describeCreateFailure(api(503, null)).answered, false, "a 5xx may not be final");
  });

  test("401: 'User not authenticated'; a network failure: try again, with the same key", () => {
    assert.equal(describeCreateFailure(api(401, { message: "Not signed in" })).description, "User not authenticated");
    const network = describeCreateFailure(new TypeError("Failed to fetch"));
    assert.equal(network.description, "Failed to save client information. Please try again.");
    assert.equal(network.answered, false);
  });
});

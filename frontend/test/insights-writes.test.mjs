// What the tracker writes, with a scripted server: a step ticked done at once and put
// right from the answer, its Undo sent after it, a refusal put back; the client page's
// cached read dropped; a client marked followed up and unmarked; the toasts' Undo.

import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, test } from "node:test";
import { setFetch } from "../src/lib/api.ts";
import { clientPath } from "../src/pages/client/client-cache.ts";
import { markFollowedUp } from "../src/pages/client/follow-up.ts";
import { DONE_PATH, insightsPath, OPEN_PATH } from "../src/pages/insights/paths.ts";
import { $focusStep, changeStep, tickDone } from "../src/pages/insights/step-changes.ts";
import { feedLinks } from "../src/pages/profile/CalendarFeed.tsx";
import { clearQueries, query, setQueryData } from "../src/stores/query.ts";
import { $toasts, resetToastsForTests } from "../src/stores/toast.ts";
import { fakeFetch } from "./fake-fetch.mjs";
import { trackedStep as step } from "./next-step-fixtures.mjs";

const settle = () => new Promise((r) => setTimeout(r, 0));

let f;
beforeEach(() => {
  clearQueries();
  resetToastsForTests();
  $focusStep.set(null);
  f = fakeFetch();
  setFetch(f);
});
afterEach(() => {
  setFetch(null);
  resetToastsForTests();
});

/** The cached data of a path, read without asking the server. */
const cached = (path) => query(path).value?.data;
const ids = (path) => cached(path)?.map((s) => s.id);
const sent = () => f.calls.map((c) => `${c.init.method} ${c.url} ${c.init.body ?? ""}`.trim());
const shownToast = () => $toasts.get().toasts.find((t) => t.open);

function seedLists() {
  setQueryData(OPEN_PATH, () => [step(1, { dueDate: "2026-03-04" }), step(2), step(3)]);
  setQueryData(DONE_PATH, () => [step(9, { done: true })]);
  setQueryData(clientPath(7), () => ({ id: 7, actionItems: [] }));
}

describe("a next step changed from the tracker", () => {
  test("ticked done, it moves to Done at once, is sent, and the client page will read it again", async () => {
    seedLists();
    f.reply(200, step(2, { done: true, line: "Done line" }));
    tickDone(step(2));
    assert.deepEqual(ids(OPEN_PATH), [1, 3], "off the open list before the server answered");
    assert.deepEqual(ids(DONE_PATH), [2, 9], "undated, among the undated by id");
    assert.equal(shownToast().title, "Marked as done");
    assert.equal(shownToast().action.label, "Undo");
    await settle();
    assert.deepEqual(sent(), ['PATCH /api/next-steps/2 {"done":true}']);
    assert.equal(cached(DONE_PATH)[0].line, "Done line", "the server's answer is drawn");
    assert.equal(cached(clientPath(7)), undefined, "the client page's copy is dropped");
  });

  test("Undo sends the opening after the tick, puts the step back and asks for its checkbox to take the focus", async () => {
    seedLists();
    const answerTick = f.defer();
    f.reply(200, step(2, { done: false }));
    tickDone(step(2));
    shownToast().action.onClick();
    assert.deepEqual($focusStep.get(), { id: 2, control: "check", done: false });
    assert.deepEqual(ids(OPEN_PATH), [1, 2, 3]);
    await settle();
    assert.equal(f.calls.length, 1, "the opening waits for the tick's answer");
    answerTick(200, step(2, { done: true }));
    await settle();
    await settle();
    assert.deepEqual(sent(), ['PATCH /api/next-steps/2 {"done":true}', 'PATCH /api/next-steps/2 {"done":false}']);
    assert.deepEqual(ids(OPEN_PATH), [1, 2, 3], "the tick's late answer does not undo the Undo");
    assert.deepEqual(ids(DONE_PATH), [9]);
  });

  test("a refused change puts the step back and says why", async () => {
    seedLists();
    f.reply(400, { message: "Due date must be a real date", errors: [{ field: "dueDate", message: "bad" }] });
    const saved = await changeStep(step(3), { dueDate: "2026-02-30" });
    assert.equal(saved, null);
    assert.equal(cached(OPEN_PATH)[2].dueDate, null);
    assert.equal(shownToast().title, "Date not changed");
    assert.equal(shownToast().description, "Due date must be a real date");
    assert.equal(shownToast().variant, "destructive");
  });

  test("a step gone from the server leaves both lists", async () => {
    seedLists();
    f.reply(404, { message: "Next step not found" });
    await changeStep(step(1), { done: true });
    assert.deepEqual(ids(OPEN_PATH), [2, 3]);
    assert.deepEqual(ids(DONE_PATH), [9]);
  });

  test("a date is sent as a date, and an emptied date as null", async () => {
    seedLists();
    f.reply(200, step(3, { dueDate: "2026-03-06", dueText: "by 6 March" }));
    f.reply(200, step(1));
    await changeStep(step(3), { dueDate: "2026-03-06" });
    await changeStep(step(1, { dueDate: "2026-03-04" }), { dueDate: null });
    assert.deepEqual(sent(), [
      'PATCH /api/next-steps/3 {"dueDate":"2026-03-06"}',
      'PATCH /api/next-steps/1 {"dueDate":null}',
    ]);
    assert.equal(cached(OPEN_PATH).find((s) => s.id === 3).dueText, "by 6 March");
  });
});

describe("a follow-up sent another way", () => {
  const client = (fill = {}) => ({ id: 5, name: "Amara Okafor", summary: "Met.", followedUpAt: null, ...fill });

  test("marked, the client page has it, the tracker reads again, and Undo takes it off", async () => {
    const path = insightsPath("2026-03-04");
    setQueryData(path, () => ({ waiting: [{ id: 5 }] }));
    f.reply(200, client({ followedUpAt: "2026-03-04T10:00:00Z" }));
    const marked = await markFollowedUp(client());
    assert.equal(marked.followedUpAt, "2026-03-04T10:00:00Z");
    assert.equal(cached(clientPath(5)).followedUpAt, "2026-03-04T10:00:00Z");
    assert.equal(cached(path), undefined, "the tracker's figures and list are read again");
    assert.equal(shownToast().title, "Marked as followed up");
    f.reply(200, client());
    shownToast().action.onClick();
    await settle();
    assert.deepEqual(sent(), ["POST /api/clients/5/followed-up", "DELETE /api/clients/5/followed-up"]);
    assert.equal(cached(clientPath(5)).followedUpAt, null);
  });

  test("a refusal says so, and nothing is marked", async () => {
    f.reply(404, { message: "Client not found" });
    assert.equal(await markFollowedUp(client()), null);
    assert.equal(shownToast().title, "Not marked as followed up");
    assert.equal(shownToast().description, "Client not found");
  });
});

describe("the calendar feed's link", () => {
  test("made absolute on this origin, and as a webcal:// link to subscribe with", () => {
    assert.deepEqual(feedLinks("https://debrief.local:8443", "/api/next-steps.ics?token=abc_12"), {
      url: "https://debrief.local:8443/api/next-steps.ics?token=abc_12",
      webcal: "webcal://debrief.local:8443/api/next-steps.ics?token=abc_12",
    });
    assert.equal(feedLinks("http://192.168.1.5:8080", "/api/next-steps.ics?token=x").webcal, "webcal://192.168.1.5:8080/api/next-steps.ics?token=x");
  });
});

// The next steps the email preview edits: seeded from the items or from older text,
// sent back whole, checked by the server's rules.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  blankStep,
  editableSteps,
  sameSteps,
  stepLines,
  stepsPayload,
  stepsProblem,
  whoLabel,
  withDueDate,
} from "../src/pages/client/next-steps.ts";
import { actionItem as item } from "./next-step-fixtures.mjs";

describe("next steps", () => {
  test("a client's items are edited as they are, and sent back with their ids", () => {
    const steps = editableSteps({ actionItems: [item(4, { dueText: "by Friday", dueDate: "2026-03-06" })], nextSteps: "x" });
    assert.equal(steps.length, 1);
    assert.deepEqual(stepsPayload(steps), [
      { id: 4, who: "me", action: "Step 4", dueText: "by Friday", dueDate: "2026-03-06", done: false },
    ]);
  });

  test("a client from before items is edited from the lines of its text, as new steps", () => {
    const steps = editableSteps({ actionItems: [], nextSteps: "- Call the bank\n\n2. Send the quote" });
    assert.deepEqual(
      stepsPayload(steps),
      ["Call the bank", "Send the quote"].map((action) => ({ who: "unattributed", action, dueText: null, dueDate: null, done: false })),
    );
    assert.deepEqual(stepLines("* one\r\n• two\n"), ["one", "two"]);
  });

  test("only a change that would save differently counts as unsaved", () => {
    const before = editableSteps({ actionItems: [item(1), item(2)], nextSteps: null });
    assert.ok(sameSteps(before, before.map((s) => ({ ...s, action: ` ${s.action} ` }))));
    assert.ok(!sameSteps(before, before.slice(1)));
    assert.ok(!sameSteps(before, [...before, blankStep({ action: "New" })]));
    assert.ok(!sameSteps(before, before.map((s, i) => (i === 0 ? { ...s, done: true } : s))));
  });

  test("a list the server would refuse says why, in the server's words", () => {
    assert.equal(stepsProblem([blankStep({ action: "ok" })]), null);
    assert.equal(stepsProblem([blankStep({ action: "  " })]), "Every next step needs an action");
    assert.equal(stepsProblem([blankStep({ action: "x".repeat(501) })]), "A next step must be less than 500 characters");
    assert.equal(stepsProblem(Array.from({ length: 51 }, () => blankStep({ action: "a" }))), "Next steps must be at most 50 items");
  });

  test("a new due date makes the deadline read as that day, and clearing it drops it", () => {
    const step = withDueDate(blankStep({ action: "Send", dueText: "by Friday" }), "2026-03-13");
    assert.equal(step.dueDate, "2026-03-13");
    assert.equal(step.dueText, "by Friday 13 March");
    assert.equal(withDueDate(step, "").dueText, "");
  });

  test("who is named as the consultant reads their client's page", () => {
    assert.deepEqual(
      ["me", "client", "we", "unattributed", "Maria Silva"].map((who) => whoLabel(who, "Jane Doe")),
      ["Me", "Jane Doe", "Both of us", "Not said", "Maria Silva"],
    );
  });
});

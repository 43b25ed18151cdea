// The job of a recording in words: the Processing card's stage and bar, the History
// line, the end announcement, and the event payloads read defensively.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  describeJob,
  DONE_ANNOUNCEMENT,
  endAnnouncement,
  isRunning,
  NO_SUMMARY,
  parseClientEvent,
  parseJobEvent,
  PROCESSING_BUSY,
  PROCESSING_FAILED,
  rowSummary,
  stagePercent,
} from "../src/lib/job.ts";
import { transcriptParagraphs, wordCount } from "../src/lib/transcript.ts";

const job = (status, progress = 0, error = null) => ({ status, progress, error, updatedAt: "2026-03-01T10:00:00Z" });

describe("the Processing card", () => {
  test("each running stage has its words, its percentage and its step", () => {
    assert.deepEqual(describeJob(job("queued")), {
      kind: "running",
      stage: "Waiting to start…",
      percent: null,
      step: null,
      detail: null,
    });
    assert.deepEqual(describeJob(job("transcribing", 42)), {
      kind: "running",
      stage: "Transcribing… 42%",
      percent: 42,
      step: "Step 1 of 2",
      detail: null,
    });
    assert.deepEqual(describeJob(job("summarising", 80)), {
      kind: "running",
      stage: "Summarising… 80%",
      percent: 80,
      step: "Step 2 of 2",
      detail: null,
    });
  });

  test("waiting for a model shows the server's words, else says what happens", () => {
    const missing = "The Whisper model is not installed. Processing resumes once it is installed.";
    const view = describeJob(job("waiting_for_model", 0, missing));
    assert.equal(view.kind, "running");
    assert.equal(view.percent, null, "nothing to measure: the bar only says it waits");
    assert.equal(view.detail, missing);
    assert.match(describeJob(job("waiting_for_model", 0, "  ")).detail, /resumes once it is/);
  });

  test("a failure gives the server's reason, or a plain one", () => {
    assert.deepEqual(describeJob(job("failed", 10, "The recording has no sound.")), {
      kind: "failed",
      reason: "The recording has no sound.",
    });
    assert.equal(describeJob(job("failed")).reason, "The recording could not be processed.");
    assert.deepEqual(describeJob(job("done", 100)), { kind: "done" });
  });

  test("percentages are whole, within 0–100, and reach 100 only when the stage has", () => {
    assert.equal(stagePercent(99.9), 99);
    assert.equal(stagePercent(100), 100);
    assert.equal(stagePercent(140), 100);
    assert.equal(stagePercent(-3), 0);
    assert.equal(stagePercent(Number.NaN), 0);
    assert.equal(describeJob(job("transcribing", 12.7)).stage, "Transcribing… 12%");
  });

  test("which statuses still have work to come", () => {
    assert.deepEqual(
      ["queued", "transcribing", "summarising", "waiting_for_model", "done", "failed", null, undefined].map(isRunning),
      [true, true, true, true, false, false, false, false],
    );
  });
});

describe("the announcement when a job ends", () => {
  test("said when a job watched on this visit finishes or fails", () => {
    assert.equal(endAnnouncement("summarising", job("done", 100)), DONE_ANNOUNCEMENT);
    assert.equal(endAnnouncement("queued", job("failed", 0, "No speech found.")), `${PROCESSING_FAILED}: No speech found.`);
    assert.equal(endAnnouncement("transcribing", job("failed")), "Processing failed: The recording could not be processed.");
  });

  test("silent when nothing ended here: a page opened on a finished job, or a job moving on", () => {
    assert.equal(endAnnouncement(undefined, job("done", 100)), null);
    assert.equal(endAnnouncement("done", job("done", 100)), null);
    assert.equal(endAnnouncement("failed", job("queued")), null);
    assert.equal(endAnnouncement("transcribing", job("summarising", 5)), null);
    assert.equal(endAnnouncement("transcribing", null), null);
  });
});

describe("a History row", () => {
  test("the summary when there is one, else where the processing stands", () => {
    assert.deepEqual(rowSummary({ summary: "We agreed a pilot.", jobStatus: "done" }), { text: "We agreed a pilot.", tone: "summary" });
    assert.deepEqual(rowSummary({ summary: "Old summary", jobStatus: "summarising" }), { text: "Old summary", tone: "summary" });
    for (const status of ["queued", "transcribing", "summarising", "waiting_for_model"]) {
      assert.deepEqual(rowSummary({ summary: null, jobStatus: status }), { text: PROCESSING_BUSY, tone: "busy" }, status);
    }
    assert.deepEqual(rowSummary({ summary: null, jobStatus: "failed" }), { text: "Processing failed", tone: "failed" });
    assert.deepEqual(rowSummary({ summary: null, jobStatus: null }), { text: "No summary available", tone: "none" });
    assert.deepEqual(rowSummary({ summary: "", jobStatus: "done" }), { text: NO_SUMMARY, tone: "none" });
    assert.equal(PROCESSING_BUSY, "Processing…");
  });
});

describe("the event stream's payloads", () => {
  test("a job event", () => {
    assert.deepEqual(parseJobEvent(JSON.stringify(job("transcribing", 42))), job("transcribing", 42));
    // Missing or odd fields get safe values rather than reaching the screen.
    assert.deepEqual(parseJobEvent('{"status":"queued","progress":"x"}'), { status: "queued", progress: 0, error: null, updatedAt: "" });
    assert.equal(parseJobEvent('{"status":"exploded","progress":1}'), null);
    assert.equal(parseJobEvent("not json"), null);
    assert.equal(parseJobEvent("[]"), null);
    assert.equal(parseJobEvent("null"), null);
  });

  test("a client event, only for this client, with its job read the same way", () => {
    const client = { id: 7, name: "Grace Hopper", summary: "S", job: { ...job("done", 100), extra: 1 } };
    assert.deepEqual(parseClientEvent(JSON.stringify(client), 7), { ...client, job: job("done", 100) });
    assert.equal(parseClientEvent(JSON.stringify(client), 8), null, "another client's data never lands here");
    assert.equal(parseClientEvent(JSON.stringify({ ...client, id: "7" }), 7), null);
    assert.equal(parseClientEvent(JSON.stringify({ id: 7 }), 7), null);
    assert.equal(parseClientEvent("{", 7), null);
    assert.equal(parseClientEvent(JSON.stringify({ ...client, job: undefined }), 7).job, null);
  });
});

describe("the transcript", () => {
  test("paragraphs at blank lines; line breaks inside a paragraph are kept", () => {
    assert.deepEqual(transcriptParagraphs("Hello there.\nHi.\n\n \n  Next part.  \r\n\r\nLast."), [
      "Hello there.\nHi.",
      "Next part.",
      "Last.",
    ]);
    assert.deepEqual(transcriptParagraphs("  \n\n "), []);
  });

  test("words are counted without the punctuation", () => {
    assert.equal(wordCount("Thanks for meeting today. Sarah will send the revised proposal by Friday."), 12);
    assert.equal(wordCount("It's a follow-up — in 2 weeks."), 6);
    assert.equal(wordCount(" … "), 0);
  });
});

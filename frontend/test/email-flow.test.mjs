import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ApiError } from "../src/lib/api.ts";
import {
  canEmail,
  EMAIL_MISSING,
  failedOutcome,
  lastEmailedText,
  OUTBOX_MESSAGE,
  SEND_FAILED,
  sentOutcome,
  textBlock,
  validateEmailTexts,
} from "../src/pages/client/email-flow.ts";

const apiError = (status, body) => new ApiError(status, "", JSON.stringify(body), body);

describe("Email Client", () => {
  test("only a client with an email address and a summary can be emailed", () => {
    assert.equal(canEmail({ email: "ada@example.com", summary: "We met." }), true);
    assert.equal(canEmail({ email: "ada@example.com", summary: null }), false);
    assert.equal(canEmail({ email: "ada@example.com", summary: " \n\t" }), false);
    assert.equal(canEmail({ email: "", summary: "We met." }), false);
    assert.equal(canEmail({ email: "not an address", summary: "We met." }), false);
    assert.equal(EMAIL_MISSING, "Cannot send email: Client email or summary is missing");
  });

  test("sent: 'Email Sent' and the server's words", () => {
    assert.deepEqual(sentOutcome({ message: "Email sent to ada@example.com", delivery: "sent" }, "x@example.com"), {
      status: "sent",
      toast: { title: "Success", description: "Email sent to ada@example.com" },
      delivered: true,
    });
    assert.deepEqual(sentOutcome(null, "ada@example.com").toast, {
      title: "Success",
      description: "Email sent to ada@example.com",
    });
  });

  test("filed in the outbox: the button is ready again and the toast says why", () => {
    const message = "Saved to outbox: email is not configured on this server";
    assert.deepEqual(sentOutcome({ message, delivery: "outbox" }, "ada@example.com"), {
      status: "idle",
      toast: { title: message },
      delivered: false,
    });
    assert.equal(sentOutcome({ delivery: "outbox" }, "ada@example.com").toast.title, OUTBOX_MESSAGE);
  });

  test("a failure: 'Failed to send email', destructive, back to idle; a refusal gives the reason", () => {
    const bad = failedOutcome(apiError(502, { message: "Failed to send email" }));
    assert.deepEqual(bad, { status: "idle", toast: { title: SEND_FAILED, description: undefined, variant: "destructive" }, delivered: false });
    const wait = "This follow-up was just sent. Please wait a minute before sending it again.";
    assert.equal(failedOutcome(apiError(429, { message: wait })).toast.description, wait);
    assert.equal(failedOutcome(apiError(401, { message: "Not signed in" })).toast.description, "User not authenticated");
    assert.equal(failedOutcome(new TypeError("Failed to fetch")).toast.description, undefined);
    assert.equal(failedOutcome(apiError(500, null)).toast.title, "Failed to send email");
  });

  test("the corrected texts follow the server's rules", () => {
    assert.deepEqual(validateEmailTexts({ summary: "Fine.\n\tIndented.", nextSteps: "One\r\nTwo" }), {});
    assert.deepEqual(validateEmailTexts({}), {});
    assert.deepEqual(validateEmailTexts({ summary: "a".repeat(10_000), nextSteps: " " + "b".repeat(10_000) + " " }), {});
    assert.deepEqual(validateEmailTexts({ summary: "😀".repeat(10_001), nextSteps: "x".repeat(10_001) }), {
      summary: "Summary must be less than 10000 characters",
      nextSteps: "Next steps must be less than 10000 characters",
    });
    assert.deepEqual(validateEmailTexts({ summary: "bell\u0007", nextSteps: "nul\u0000" }), {
      summary: "Summary contains characters that are not allowed",
      nextSteps: "Next steps contain characters that are not allowed",
    });
    // Trimmed first, as the server does: edge white space is neither counted nor refused.
    assert.deepEqual(validateEmailTexts({ summary: "\r\nok\r\n" }), {});
    assert.equal(textBlock("  one\r\ntwo \n"), "one\ntwo");
    assert.equal(textBlock(null), "");
  });

  test("when the client was last emailed", () => {
    const now = Date.parse("2026-03-10T12:00:00.000Z");
    assert.equal(lastEmailedText("2026-03-10T11:59:50.000Z", now), "Last emailed just now");
    assert.equal(lastEmailedText("2026-03-10T11:55:00.000Z", now), "Last emailed 5 minutes ago");
    assert.equal(lastEmailedText("2026-03-07T12:00:00.000Z", now), "Last emailed 3 days ago");
    // The server's clock a little ahead of the phone's.
    assert.equal(lastEmailedText("2026-03-10T12:02:00.000Z", now), "Last emailed just now");
    assert.equal(lastEmailedText("not a date", now), "");
  });
});

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { countOf, formatClock, relativeTime, spokenDuration } from "../src/lib/format.ts";

describe("times on screen", () => {
  test("durations read mm:ss, minutes going on past the hour", () => {
    assert.equal(formatClock(0), "00:00");
    assert.equal(formatClock(999), "00:00");
    assert.equal(formatClock(61_500), "01:01");
    assert.equal(formatClock(75 * 60_000 + 3000), "75:03");
    assert.equal(formatClock(-5), "00:00");
    assert.equal(formatClock(Number.NaN), "00:00");
  });

  test("durations spoken in words", () => {
    assert.equal(spokenDuration(1000), "1 second");
    assert.equal(spokenDuration(65_000), "1 minute 5 seconds");
    assert.equal(spokenDuration(120_000), "2 minutes");
  });

  test("counts say one client, and any other number of clients", () => {
    assert.equal(countOf(1, "client"), "1 client");
    assert.equal(countOf(0, "client"), "0 clients");
    assert.equal(countOf(2, "user"), "2 users");
    assert.equal(countOf(1000, "client"), "1000 clients");
  });

  test("relative times like '3 days ago'", () => {
    const now = Date.parse("2025-06-15T12:00:00Z");
    const ago = (ms) => new Date(now - ms).toISOString();
    assert.equal(relativeTime(ago(3 * 86_400_000), now), "3 days ago");
    assert.equal(relativeTime(ago(10_000), now), "now");
    assert.equal(relativeTime(ago(5 * 60_000), now), "5 minutes ago");
    assert.equal(relativeTime(ago(60_000), now), "1 minute ago");
    assert.equal(relativeTime(ago(2 * 3_600_000), now), "2 hours ago");
    assert.equal(relativeTime(ago(23 * 3_600_000), now), "1 day ago");
    assert.equal(relativeTime(ago(45 * 86_400_000), now), "1 month ago");
    assert.equal(relativeTime(ago(400 * 86_400_000), now), "1 year ago");
    assert.equal(relativeTime("not a date", now), "");
  });
});

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { countOf, formatBytes, formatClock, longDate, relativeTime, spokenDuration } from "../src/lib/format.ts";

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

  test("relative times read as the browser's own English formatter reads them", () => {
    const now = Date.parse("2025-06-15T12:00:00Z");
    const numeric = new Intl.RelativeTimeFormat("en", { numeric: "always" });
    const cases = [
      [-50_000, 1, "minute"],
      [-44 * 60_000, 44, "minute"],
      [-46 * 60_000, 1, "hour"],
      [-21 * 3_600_000, 21, "hour"],
      [-25 * 86_400_000, 25, "day"],
      [-27 * 86_400_000, 1, "month"],
      [-319 * 86_400_000, 10, "month"],
      [-3 * 365 * 86_400_000, 3, "year"],
      [2 * 3_600_000, 2, "hour"],
      [90_000, 2, "minute"],
    ];
    for (const [ms, count, unit] of cases) {
      const sign = ms < 0 ? -1 : 1;
      assert.equal(relativeTime(now + ms, now), numeric.format(sign * count, unit), `${ms} ms`);
    }
    assert.equal(relativeTime(now + 30_000, now), new Intl.RelativeTimeFormat("en", { numeric: "auto" }).format(0, "second"));
  });

  test("dates written out in English, the day on this phone's calendar", () => {
    assert.equal(longDate(new Date(2026, 2, 6, 23, 30)), "6 March 2026");
    assert.equal(longDate(new Date(2025, 11, 31).toISOString()), "31 December 2025");
  });
});

describe("sizes on screen", () => {
  test("bytes read in decimal units, one decimal below a hundred", () => {
    assert.equal(formatBytes(0), "0 B");
    assert.equal(formatBytes(512), "512 B");
    assert.equal(formatBytes(999), "999 B");
    assert.equal(formatBytes(1000), "1.0 kB");
    assert.equal(formatBytes(12_345), "12.3 kB");
    assert.equal(formatBytes(99_960), "100 kB");
    assert.equal(formatBytes(1_500_000), "1.5 MB");
    assert.equal(formatBytes(250_000_000_000), "250 GB");
    assert.equal(formatBytes(4e15), "4000 TB");
  });

  test("a size about to round up reads in the next unit", () => {
    assert.equal(formatBytes(999_400), "999 kB");
    assert.equal(formatBytes(999_960), "1.0 MB");
  });

  test("no size reads as nothing at all", () => {
    assert.equal(formatBytes(-5), "0 B");
    assert.equal(formatBytes(Number.NaN), "0 B");
  });
});

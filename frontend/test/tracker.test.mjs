// The follow-up tracker's pure parts: the phone's date, the groups by due date (the
// week ends on Sunday), who does a step, a step moved between the open and done lists,
// how a delay reads, and the bar chart's scale.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  chartSummary,
  followUpDelay,
  layoutBars,
  MIN_BAR,
  scaleTop,
  weekLabel,
} from "../src/pages/insights/figures.ts";
import { isoDay, localToday } from "../src/pages/insights/paths.ts";
import { endOfWeek, groupOf, groupSteps, placeStep, sortSteps, trackerWho } from "../src/pages/insights/tracker.ts";
import { trackedStep } from "./next-step-fixtures.mjs";

const step = (id, dueDate = null, fill = {}) => trackedStep(id, { dueDate, ...fill });
const ids = (list) => list.map((s) => s.id);
const titled = (groups) => groups.map((g) => [g.title, ids(g.steps)]);

describe("the phone's date", () => {
  test("today is read on the phone's clock, as YYYY-MM-DD", () => {
    assert.equal(isoDay(new Date(2026, 2, 4, 23, 59)), "2026-03-04");
    assert.equal(isoDay(new Date(2026, 0, 1, 0, 0)), "2026-01-01");
    assert.match(localToday(), /^\d{4}-\d{2}-\d{2}$/);
  });

  test("this week ends on Sunday, and a Sunday ends its own week", () => {
    assert.equal(endOfWeek("2026-03-02"), "2026-03-08", "Monday");
    assert.equal(endOfWeek("2026-03-04"), "2026-03-08", "Wednesday");
    assert.equal(endOfWeek("2026-03-07"), "2026-03-08", "Saturday");
    assert.equal(endOfWeek("2026-03-08"), "2026-03-08", "Sunday");
    assert.equal(endOfWeek("2026-12-30"), "2027-01-03", "across the new year");
    assert.equal(endOfWeek("2026-02-26"), "2026-03-01", "across the end of February");
    // Europe's clocks go forward on the last Sunday of March: the week still ends that Sunday.
    assert.equal(endOfWeek("2026-03-25"), "2026-03-29");
  });
});

describe("next steps grouped by due date", () => {
  test("overdue before today, this week up to Sunday, later after, no date last; empty groups left out", () => {
    const today = "2026-03-04"; // a Wednesday
    const steps = [
      step(1, null),
      step(2, "2026-03-09"), // next Monday
      step(3, "2026-03-08"), // Sunday, this week
      step(4, "2026-03-04"), // today
      step(5, "2026-03-03"), // yesterday
      step(6, "2025-12-31"),
    ];
    assert.deepEqual(titled(groupSteps(steps, today)), [
      ["Overdue", [6, 5]],
      ["This week", [4, 3]],
      ["Later", [2]],
      ["No date", [1]],
    ]);
    assert.deepEqual(titled(groupSteps([step(1, "2026-03-05")], today)), [["This week", [1]]]);
    assert.deepEqual(groupSteps([], today), []);
  });

  test("on a Sunday this week is that day alone, and Monday is later", () => {
    const sunday = "2026-03-08";
    assert.equal(groupOf("2026-03-08", sunday), "week");
    assert.equal(groupOf("2026-03-09", sunday), "later");
    assert.equal(groupOf("2026-03-07", sunday), "overdue");
  });

  test("on a Monday the whole week to Sunday is this week", () => {
    const monday = "2026-03-02";
    assert.equal(groupOf("2026-03-08", monday), "week");
    assert.equal(groupOf("2026-03-09", monday), "later");
    assert.equal(groupOf("2026-03-01", monday), "overdue");
    assert.equal(groupOf(null, monday), "undated");
  });

  test("steps due the same day keep the server's order; undated steps go last", () => {
    const list = [step(1, null), step(2, "2026-03-10"), step(3, "2026-03-06"), step(4, "2026-03-06"), step(5, null)];
    assert.deepEqual(ids(sortSteps(list)), [3, 4, 2, 1, 5]);
  });

  test("who does it reads plainly across clients: me, the client's name, we, not known, or a person", () => {
    assert.equal(trackerWho("me", "Jordan Ellis"), "Me");
    assert.equal(trackerWho("client", "Jordan Ellis"), "Jordan Ellis");
    assert.equal(trackerWho("we", "Jordan Ellis"), "We");
    assert.equal(trackerWho("unattributed", "Jordan Ellis"), "Not known");
    assert.equal(trackerWho("Priya", "Jordan Ellis"), "Priya");
  });
});

describe("a step moved between the lists", () => {
  const open = [step(1, "2026-03-04"), step(2, "2026-03-10"), step(3, null)];
  const done = [step(7, "2026-03-01", { done: true })];

  test("ticked done, it leaves the open list for the done list, in date order", () => {
    const lists = placeStep({ open, done }, { ...open[1], done: true });
    assert.deepEqual(ids(lists.open), [1, 3]);
    assert.deepEqual(ids(lists.done), [7, 2]);
  });

  test("opened again, it goes back among the open steps by its date", () => {
    const lists = placeStep({ open: [open[0], open[2]], done: [done[0], { ...open[1], done: true }] }, open[1]);
    assert.deepEqual(ids(lists.open), [1, 2, 3]);
    assert.deepEqual(ids(lists.done), [7]);
  });

  test("a new date changes the step where it is", () => {
    const lists = placeStep({ open, done }, { ...open[2], dueDate: "2026-03-05" });
    assert.deepEqual(ids(lists.open), [1, 2, 3]);
    assert.equal(lists.open[2].dueDate, "2026-03-05");
    assert.deepEqual(ids(lists.done), [7]);
  });

  test("a list not read yet stays unread", () => {
    const lists = placeStep({ open, done: undefined }, { ...open[0], done: true });
    assert.deepEqual(ids(lists.open), [2, 3]);
    assert.equal(lists.done, undefined);
  });
});

describe("figures", () => {
  test("the time to a follow-up reads in hours under 48, in days from there, a dash before any", () => {
    assert.deepEqual(followUpDelay(null), { text: "—", spoken: "none yet" });
    assert.equal(followUpDelay(0.2).text, "< 1 h");
    assert.deepEqual(followUpDelay(5), { text: "5 h", spoken: "5 hours" });
    assert.equal(followUpDelay(1).spoken, "1 hour");
    assert.equal(followUpDelay(5.4).text, "5 h");
    assert.equal(followUpDelay(47.4).text, "47 h");
    assert.deepEqual(followUpDelay(48), { text: "2 d", spoken: "2 days" });
    assert.equal(followUpDelay(72).text, "3 d");
    assert.equal(followUpDelay(83).text, "3 d");
    assert.equal(followUpDelay(24 * 30).text, "30 d");
  });

  test("a week reads by its Monday's day and month", () => {
    assert.equal(weekLabel("2026-03-02"), "2 Mar");
    assert.equal(weekLabel("2025-12-29"), "29 Dec");
  });
});

describe("the chart of meetings per week", () => {
  const weeks = (counts) => counts.map((meetings, i) => ({ start: isoDay(new Date(2026, 0, 5 + 7 * i)), meetings }));

  test("the scale tops out at the next round number at or above the busiest week", () => {
    assert.deepEqual(
      [0, 1, 2, 3, 5, 6, 7, 10, 11, 12, 23, 25, 26, 51, 101].map(scaleTop),
      [1, 1, 2, 5, 5, 10, 10, 10, 20, 20, 25, 25, 50, 100, 200],
    );
  });

  test("bars are as tall as their share of the scale, laid out across the width", () => {
    const { top, bars } = layoutBars(weeks([0, 1, 2, 4, 3, 0, 0, 0, 0, 0, 0, 1]), { width: 240, height: 100, gap: 0.25 });
    assert.equal(top, 5);
    assert.equal(bars.length, 12);
    assert.deepEqual(
      bars.map((b) => b.height),
      [0, 20, 40, 80, 60, 0, 0, 0, 0, 0, 0, 20],
    );
    for (const [i, bar] of bars.entries()) {
      assert.equal(bar.width, 15);
      assert.equal(bar.x, i * 20 + 2.5);
      assert.equal(bar.y + bar.height, 100, "every bar stands on the base line");
    }
    assert.equal(bars[3].meetings, 4);
  });

  test("one meeting among many is still drawn, and no meetings at all draw nothing", () => {
    const { bars } = layoutBars(weeks([1, 1000]), { width: 20, height: 50 });
    assert.equal(bars[0].height, MIN_BAR);
    assert.equal(bars[1].height, 50);
    const empty = layoutBars(weeks(new Array(12).fill(0)), { width: 120, height: 50 });
    assert.equal(empty.top, 1);
    assert.ok(empty.bars.every((b) => b.height === 0 && b.y === 50));
  });

  test("the chart is summed up in one sentence for screen readers", () => {
    assert.equal(
      chartSummary(weeks([0, 2, 5, 1])),
      "Meetings per week over the last 4 weeks: 8 in all, the most 5 in the week of 19 Jan, 1 this week.",
    );
    assert.equal(chartSummary(weeks(new Array(12).fill(0))), "Meetings per week: none in the last 12 weeks.");
  });
});

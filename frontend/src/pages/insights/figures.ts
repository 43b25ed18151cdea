// The tracker's figures without the screen: what the server counts, how a delay reads,
// and the bar chart of meetings per week as numbers to draw.

import { countOf } from "../../lib/format.ts";
import { dayOf } from "../client/next-steps.ts";

/** Meetings in the week that starts on Monday `start` (YYYY-MM-DD). */
export interface Week {
  start: string;
  meetings: number;
}

/** What `GET /api/insights` and `GET /api/admin/insights` both count. */
export interface Figures {
  meetingsThisMonth: number;
  meetingsLastMonth: number;
  followUpsThisMonth: number;
  /** The median hours from a meeting to its follow-up email; null before the first. */
  medianHoursToFollowUp: number | null;
  openItems: number;
  overdueItems: number;
  /** Twelve weeks, oldest first, the last being this week. */
  weeks: Week[];
}

/** A client with a summary whose follow-up has not gone out. */
export interface WaitingClient {
  id: number;
  name: string;
  company: string | null;
  photoUrl: string | null;
  /** RFC 3339. */
  meetingAt: string;
}

export interface Insights extends Figures {
  /** Oldest meeting first. */
  waiting: WaitingClient[];
}

export interface AdminInsights extends Figures {
  users: number;
}

/** A delay as a figure shows it ("5 h", "3 d") and as it is read out ("5 hours"). */
export interface Delay {
  text: string;
  spoken: string;
}

/** Hours under 48 read in hours, longer in days; none yet is a dash. */
export function followUpDelay(hours: number | null): Delay {
  if (hours === null || !Number.isFinite(hours)) return { text: "—", spoken: "none yet" };
  if (hours < 0.5) return { text: "< 1 h", spoken: "under an hour" };
  if (hours < 48) {
    const h = Math.round(hours);
    return { text: `${h} h`, spoken: countOf(h, "hour") };
  }
  const d = Math.round(hours / 24);
  return { text: `${d} d`, spoken: countOf(d, "day") };
}

/** "3 Mar": a week's Monday. */
export function weekLabel(start: string): string {
  return dayOf(start).toLocaleDateString("en-GB", { day: "numeric", month: "short" });
}

/** The top of the chart's scale: the smallest of 1, 2, 5, 10, 20, 25, 50… at or above `max`. */
export function scaleTop(max: number): number {
  if (!(max > 1)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) {
    const top = step * magnitude;
    if (Number.isInteger(top) && top >= max) return top;
  }
  return 10 * magnitude;
}

export interface Bar {
  start: string;
  meetings: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ChartLayout {
  top: number;
  bars: Bar[];
}

/** The smallest height a week with meetings is drawn at, so one meeting never vanishes. */
export const MIN_BAR = 2;

/**
 * Bars across `width` × `height` (the plot, without its labels), one slot per week
 * with `gap` of each slot left empty, scaled so `top` reaches the full height.
 */
export function layoutBars(weeks: Week[], { width, height, gap = 0.3 }: { width: number; height: number; gap?: number }): ChartLayout {
  const top = scaleTop(Math.max(0, ...weeks.map((w) => w.meetings)));
  const slot = weeks.length > 0 ? width / weeks.length : 0;
  const barWidth = slot * (1 - gap);
  const bars = weeks.map((week, i) => {
    const value = Math.max(0, week.meetings);
    const h = value === 0 ? 0 : Math.max(MIN_BAR, (value / top) * height);
    return { start: week.start, meetings: value, x: i * slot + (slot - barWidth) / 2, y: height - h, width: barWidth, height: h };
  });
  return { top, bars };
}

/** The chart in one sentence, for screen readers. */
export function chartSummary(weeks: Week[]): string {
  const total = weeks.reduce((n, w) => n + w.meetings, 0);
  const span = `the last ${countOf(weeks.length, "week")}`;
  if (total === 0) return `Meetings per week: none in ${span}.`;
  const busiest = weeks.reduce((best, w) => (w.meetings > best.meetings ? w : best), weeks[0]);
  const thisWeek = weeks[weeks.length - 1];
  return (
    `Meetings per week over ${span}: ${total} in all, the most ${busiest.meetings} in the week of ` +
    `${weekLabel(busiest.start)}, ${thisWeek.meetings} this week.`
  );
}

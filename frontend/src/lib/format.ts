// How times read on screen.

/** A duration as mm:ss (minutes keep counting past an hour: 75:03). */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.floor((Number.isFinite(ms) ? ms : 0) / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${String(minutes).padStart(2, "0")}:${String(seconds).padStart(2, "0")}`;
}

/** "1 client", "0 clients", "12 clients": a count with its noun in the right number. */
export function countOf(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** A duration for screen readers: "1 minute 5 seconds". */
export function spokenDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  if (minutes === 0) return countOf(seconds, "second");
  return seconds === 0 ? countOf(minutes, "minute") : `${countOf(minutes, "minute")} ${countOf(seconds, "second")}`;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * "3 days ago", "5 minutes ago", "now"; a date in the future reads "in 2 hours". Said in
 * English by hand: Intl.RelativeTimeFormat says the same, but making one costs a phone
 * about 50 ms of main thread for its locale data, on the first screen of History.
 */
export function relativeTime(date: Date | string | number, now: number = Date.now()): string {
  const then = new Date(date).getTime();
  if (!Number.isFinite(then)) return "";
  const diff = then - now;
  const abs = Math.abs(diff);
  const say = (count: number, unit: string) => {
    const amount = countOf(Math.max(1, Math.round(count)), unit);
    return diff < 0 ? `${amount} ago` : `in ${amount}`;
  };
  if (abs < 45 * SECOND) return "now";
  if (abs < 45 * MINUTE) return say(abs / MINUTE, "minute");
  if (abs < 22 * HOUR) return say(abs / HOUR, "hour");
  if (abs < 26 * DAY) return say(abs / DAY, "day");
  if (abs < 320 * DAY) return say(abs / (30.44 * DAY), "month");
  return say(abs / (365.25 * DAY), "year");
}

// How times, dates and sizes read on screen.

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

/** "6 March 2026": a day written out, as the app writes dates in English. */
export function longDate(date: Date | string | number): string {
  return new Date(date).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric" });
}

const BYTE_UNITS = ["B", "kB", "MB", "GB", "TB"];

/**
 * "512 B", "1.5 MB", "120 GB": a size in decimal units (as disks are sold and as
 * `debrief retention show` counts), one decimal below 100 of a unit.
 */
export function formatBytes(bytes: number): string {
  let value = Math.max(0, Number.isFinite(bytes) ? bytes : 0);
  let unit = 0;
  // Compared as they will be rounded, so 999 960 bytes reads "1.0 MB", not "1000 kB".
  while (Math.round(value) >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = unit === 0 || value >= 99.95 ? 0 : 1;
  return `${value.toFixed(digits)} ${BYTE_UNITS[unit]}`;
}

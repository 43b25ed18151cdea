// Where the tracker's reads and writes go, and the phone's date they are asked with.
// Kept free of imports: the route table names these reads, and it is on the first page.

export const STEPS_PATH = "/api/next-steps";
export const OPEN_PATH = `${STEPS_PATH}?status=open`;
export const DONE_PATH = `${STEPS_PATH}?status=done`;
export const stepPath = (id: number) => `${STEPS_PATH}/${id}`;
export const calendarPath = (id: number) => `${STEPS_PATH}/${id}/calendar.ics`;

// The phone's date goes with the question: "this month" and "overdue" are the user's days.
export const INSIGHTS_PREFIX = "/api/insights";
export const insightsPath = (today: string) => `${INSIGHTS_PREFIX}?today=${today}`;
export const adminInsightsPath = (today: string) => `/api/admin/insights?today=${today}`;

/** A date as YYYY-MM-DD, read on the phone's clock: the day the user is living. */
export function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Today on this phone. */
export const localToday = (now: Date = new Date()) => isoDay(now);

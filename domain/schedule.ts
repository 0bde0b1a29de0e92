/**
 * The calendar of invoice schedules (docs/api.md, "Invoice schedules"): which date each period
 * of a schedule falls on, and whether a schedule has any period left. All dates are UTC calendar
 * dates written YYYY-MM-DD; nothing here reads a clock.
 *
 * Periods are counted from the start date (period 0). A monthly schedule keeps the start date's
 * day of the month and takes the month's last day when the month is shorter: a schedule starting
 * on 31 January issues on 31 January, 28 February (29 in a leap year), 31 March, 30 April… Each
 * date is computed from the start date, never from the previous period, so a short month never
 * pulls the later ones earlier.
 */

export const SCHEDULE_FREQUENCIES = ["weekly", "monthly", "every_n_days"] as const;
export type ScheduleFrequency = (typeof SCHEDULE_FREQUENCIES)[number];

export const SCHEDULE_STATUSES = ["active", "paused", "cancelled", "completed"] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

export type ScheduleCalendar = {
  frequency: ScheduleFrequency;
  /** Days between periods, for `every_n_days`. */
  everyNDays?: number | null;
  startDate: string;
  /** The last date a period may fall on (inclusive); none: no end. */
  endDate?: string | null;
  /** How many periods at most; none: no limit. */
  maxCount?: number | null;
};

const DAY_MS = 86_400_000;

const toUtc = (date: string): number => Date.parse(`${date}T00:00:00Z`);
const fromUtc = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** `date` plus `days` (negative: minus). @example addDays("2026-02-27", 2) // "2026-03-01" */
export function addDays(date: string, days: number): string {
  return fromUtc(toUtc(date) + days * DAY_MS);
}

/** Days from `from` to `to` (negative when `to` comes first). */
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtc(to) - toUtc(from)) / DAY_MS);
}

/** The number of days in a month (`month` 0–11). */
const daysInMonth = (year: number, month: number): number =>
  new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/**
 * `months` months after `date`, on the same day of the month or the month's last day.
 *
 * @example addMonthsClamped("2024-01-31", 1) // "2024-02-29"
 * @example addMonthsClamped("2024-01-31", 2) // "2024-03-31"
 */
export function addMonthsClamped(date: string, months: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12;
  const day = Math.min(d, daysInMonth(year, month));
  return fromUtc(Date.UTC(year, month, day));
}

/** The date of period `index` (0: the start date), whether or not the schedule reaches it. */
export function periodDate(calendar: ScheduleCalendar, index: number): string {
  switch (calendar.frequency) {
    case "weekly":
      return addDays(calendar.startDate, 7 * index);
    case "monthly":
      return addMonthsClamped(calendar.startDate, index);
    case "every_n_days":
      return addDays(calendar.startDate, (calendar.everyNDays ?? 1) * index);
  }
}

/** The date of period `index`, or null when the schedule ends before it (count or end date). */
export function scheduledDate(calendar: ScheduleCalendar, index: number): string | null {
  if (calendar.maxCount != null && index >= calendar.maxCount) return null;
  const date = periodDate(calendar, index);
  if (calendar.endDate != null && date > calendar.endDate) return null;
  return date;
}

/**
 * The periods due on `today` from period `next` on: each one whose date is on or before today,
 * in order. After downtime every missed period is issued once (dated its own period), never
 * skipped and never twice: docs/api.md, "Invoice schedules".
 *
 * @example duePeriods({ frequency: "weekly", startDate: "2026-01-01" }, 0, "2026-01-15")
 *   // [{ index: 0, date: "2026-01-01" }, { index: 1, date: "2026-01-08" }, { index: 2, date: "2026-01-15" }]
 */
export function duePeriods(
  calendar: ScheduleCalendar,
  next: number,
  today: string,
  limit = 1000,
): { index: number; date: string }[] {
  const due: { index: number; date: string }[] = [];
  for (let index = next; due.length < limit; index++) {
    const date = scheduledDate(calendar, index);
    if (date === null || date > today) break;
    due.push({ index, date });
  }
  return due;
}

/** An issued invoice's dates: issued on `issueDate`, due `daysUntilDue` days later. */
export function invoiceDates(
  issueDate: string,
  daysUntilDue: number,
): { issue_date: string; due_date: string } {
  return { issue_date: issueDate, due_date: addDays(issueDate, daysUntilDue) };
}

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

/**
 * The first and last dates a schedule may use: before 1970 the calendar's arithmetic (two-digit
 * years are read as 19xx by Date.UTC) is wrong, and past 9999 neither an ISO date string nor
 * Postgres' `date` can hold the period; 9000 leaves room for a schedule's later periods.
 */
export const FIRST_SCHEDULE_YEAR = 1970;
export const LAST_SCHEDULE_YEAR = 9000;
/** The last date any period may fall on: later periods do not exist (the schedule completes). */
const LAST_PERIOD_DATE = "9999-12-31";

/** Past periods a new schedule may issue at once when `backfill` is asked for. */
export const MAX_BACKFILL_PERIODS = 12;

/** The date of period `index`, or null when the schedule ends before it (count or end date). */
export function scheduledDate(calendar: ScheduleCalendar, index: number): string | null {
  if (calendar.maxCount != null && index >= calendar.maxCount) return null;
  const date = periodDate(calendar, index);
  // Past year 9999 toISOString writes "+010000-…", which sorts before every real date.
  if (!/^\d{4}-/.test(date) || date > LAST_PERIOD_DATE) return null;
  if (calendar.endDate != null && date > calendar.endDate) return null;
  return date;
}

/**
 * How many periods fall on or before `today` (count and end date applied): the periods a new
 * schedule starting in the past would owe at once. Computed, not walked, so a daily schedule
 * from 1970 costs what a weekly one from last month does.
 *
 * @example periodsUpTo({ frequency: "weekly", startDate: "2026-01-01" }, "2026-01-15") // 3
 */
export function periodsUpTo(calendar: ScheduleCalendar, today: string): number {
  const until = calendar.endDate != null && calendar.endDate < today ? calendar.endDate : today;
  if (until < calendar.startDate) return 0;
  let index: number;
  if (calendar.frequency === "monthly") {
    const [sy, sm] = calendar.startDate.split("-").map(Number) as [number, number];
    const [uy, um] = until.split("-").map(Number) as [number, number];
    index = (uy - sy) * 12 + (um - sm);
    if (periodDate(calendar, index) > until) index--;
  } else {
    const step = calendar.frequency === "weekly" ? 7 : (calendar.everyNDays ?? 1);
    index = Math.floor(daysBetween(calendar.startDate, until) / step);
  }
  const count = index + 1;
  return calendar.maxCount != null ? Math.min(count, calendar.maxCount) : count;
}

/**
 * The period a new schedule starts at. Without `backfill`, a start date in the past owes only
 * the current period (the latest on or before today): one request cannot issue years of
 * invoices to a third party's inbox. With it, every past period is issued, at most
 * MAX_BACKFILL_PERIODS; more is `too_many` (the caller's 400).
 *
 * @example firstPeriod({ frequency: "monthly", startDate: "2026-01-15" }, "2026-03-20", false)
 *   // { index: 2, past: 3 }
 */
export function firstPeriod(
  calendar: ScheduleCalendar,
  today: string,
  backfill: boolean,
): { index: number; past: number; tooMany: boolean } {
  const past = periodsUpTo(calendar, today);
  if (backfill) return { index: 0, past, tooMany: past > MAX_BACKFILL_PERIODS };
  return { index: Math.max(0, past - 1), past, tooMany: false };
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

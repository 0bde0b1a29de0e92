import { describe, expect, test } from "vitest";
import {
  addMonthsClamped,
  duePeriods,
  firstPeriod,
  invoiceDates,
  MAX_BACKFILL_PERIODS,
  periodDate,
  periodsUpTo,
  type ScheduleCalendar,
  scheduledDate,
} from "./schedule.ts";

const monthly31: ScheduleCalendar = { frequency: "monthly", startDate: "2027-12-31" };

describe("monthly periods", () => {
  test("the 31st: the month's last day when shorter, back to the 31st after", () => {
    const dates = Array.from({ length: 14 }, (_, i) => periodDate(monthly31, i));
    expect(dates).toEqual([
      "2027-12-31",
      "2028-01-31",
      "2028-02-29", // leap year
      "2028-03-31",
      "2028-04-30",
      "2028-05-31",
      "2028-06-30",
      "2028-07-31",
      "2028-08-31",
      "2028-09-30",
      "2028-10-31",
      "2028-11-30",
      "2028-12-31",
      "2029-01-31",
    ]);
  });

  test("28 February outside a leap year", () => {
    expect(addMonthsClamped("2026-01-31", 1)).toBe("2026-02-28");
    expect(addMonthsClamped("2026-01-31", 2)).toBe("2026-03-31");
    expect(addMonthsClamped("2026-01-30", 1)).toBe("2026-02-28");
    expect(addMonthsClamped("2100-01-29", 1)).toBe("2100-02-28"); // 2100 is no leap year
    expect(addMonthsClamped("2000-01-29", 1)).toBe("2000-02-29"); // 2000 is
  });

  test("across years, both ways of counting agree", () => {
    expect(addMonthsClamped("2026-11-15", 3)).toBe("2027-02-15");
    expect(addMonthsClamped("2026-03-31", 12)).toBe("2027-03-31");
  });
});

describe("weekly and every n days", () => {
  test("weekly steps 7 days, across a month and a leap day", () => {
    const weekly: ScheduleCalendar = { frequency: "weekly", startDate: "2028-02-22" };
    expect([0, 1, 2].map((i) => periodDate(weekly, i))).toEqual([
      "2028-02-22",
      "2028-02-29",
      "2028-03-07",
    ]);
  });

  test("every 10 days", () => {
    const every: ScheduleCalendar = {
      frequency: "every_n_days",
      everyNDays: 10,
      startDate: "2026-12-25",
    };
    expect([0, 1, 2].map((i) => periodDate(every, i))).toEqual([
      "2026-12-25",
      "2027-01-04",
      "2027-01-14",
    ]);
  });
});

describe("ends", () => {
  test("a count: no period at or past it", () => {
    const calendar: ScheduleCalendar = { ...monthly31, maxCount: 2 };
    expect(scheduledDate(calendar, 1)).toBe("2028-01-31");
    expect(scheduledDate(calendar, 2)).toBeNull();
  });

  test("an end date: inclusive", () => {
    const calendar: ScheduleCalendar = { ...monthly31, endDate: "2028-02-29" };
    expect(scheduledDate(calendar, 2)).toBe("2028-02-29");
    expect(scheduledDate(calendar, 3)).toBeNull();
  });
});

describe("duePeriods", () => {
  test("every missed period once, in order, up to today", () => {
    expect(duePeriods(monthly31, 1, "2028-04-29")).toEqual([
      { index: 1, date: "2028-01-31" },
      { index: 2, date: "2028-02-29" },
      { index: 3, date: "2028-03-31" },
    ]);
  });

  test("nothing before the next date, nothing past the end", () => {
    expect(duePeriods(monthly31, 0, "2027-12-30")).toEqual([]);
    expect(duePeriods({ ...monthly31, maxCount: 1 }, 1, "2030-01-01")).toEqual([]);
  });
});

test("invoiceDates: due days_until_due after the issue date", () => {
  expect(invoiceDates("2028-02-29", 30)).toEqual({
    issue_date: "2028-02-29",
    due_date: "2028-03-30",
  });
  expect(invoiceDates("2028-02-29", 0).due_date).toBe("2028-02-29");
});

describe("a start date in the past", () => {
  const daily2000: ScheduleCalendar = {
    frequency: "every_n_days",
    everyNDays: 1,
    startDate: "2000-01-01",
  };

  test("periodsUpTo counts the periods on or before today, as walking them would", () => {
    const calendars: ScheduleCalendar[] = [
      monthly31,
      { frequency: "weekly", startDate: "2027-12-29" },
      { frequency: "every_n_days", everyNDays: 10, startDate: "2027-12-25" },
      { frequency: "monthly", startDate: "2027-12-31", maxCount: 4 },
      { frequency: "weekly", startDate: "2027-12-29", endDate: "2028-02-01" },
    ];
    for (const calendar of calendars)
      for (const today of ["2027-12-01", "2027-12-31", "2028-02-28", "2028-02-29", "2028-07-30"])
        expect(periodsUpTo(calendar, today), `${JSON.stringify(calendar)} on ${today}`).toBe(
          duePeriods(calendar, 0, today).length,
        );
  });

  test("a daily schedule from 2000 counts its 9,827 days without walking them", () => {
    expect(periodsUpTo(daily2000, "2026-11-27")).toBe(9828);
  });

  test("without backfill only the current period is owed; with it, all of them up to the cap", () => {
    expect(firstPeriod(daily2000, "2026-11-27", false)).toEqual({
      index: 9827,
      past: 9828,
      tooMany: false,
    });
    expect(firstPeriod(daily2000, "2026-11-27", true).tooMany).toBe(true);
    const monthly: ScheduleCalendar = { frequency: "monthly", startDate: "2026-01-15" };
    expect(firstPeriod(monthly, "2026-03-20", false)).toEqual({
      index: 2,
      past: 3,
      tooMany: false,
    });
    expect(firstPeriod(monthly, "2026-03-20", true)).toEqual({ index: 0, past: 3, tooMany: false });
    expect(firstPeriod(monthly, "2027-01-14", true).past).toBe(MAX_BACKFILL_PERIODS);
    expect(firstPeriod(monthly, "2027-01-15", true).tooMany).toBe(true);
    // A future start owes nothing yet, with or without backfill.
    expect(firstPeriod(monthly, "2025-12-31", false)).toEqual({
      index: 0,
      past: 0,
      tooMany: false,
    });
  });

  test("no period falls after 9999-12-31: the schedule ends there", () => {
    const late: ScheduleCalendar = { frequency: "monthly", startDate: "8999-01-31" };
    expect(scheduledDate(late, 11_999)).toBe("9998-12-31");
    expect(scheduledDate(late, 12_011)).toBe("9999-12-31");
    expect(scheduledDate(late, 12_012)).toBeNull();
    expect(
      scheduledDate({ frequency: "every_n_days", everyNDays: 366, startDate: "9000-01-01" }, 1000),
    ).toBeNull();
  });
});

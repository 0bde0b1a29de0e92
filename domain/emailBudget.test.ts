import { describe, expect, test } from "vitest";
import { emailBudgetVerdict, isOwnAddress } from "./emailBudget.ts";

const budget = { perHour: 100, perDay: 500 };

describe("the budget of email to others", () => {
  test("under both windows: allowed", () => {
    expect(
      emailBudgetVerdict({ hour: 99, day: 499, oldestInHourAgo: 10, oldestInDayAgo: 10 }, budget),
    ).toEqual({ allowed: true });
  });

  test("the hour full: refused until its oldest email is an hour old", () => {
    expect(
      emailBudgetVerdict(
        { hour: 100, day: 120, oldestInHourAgo: 600, oldestInDayAgo: 9000 },
        budget,
      ),
    ).toEqual({ allowed: false, window: "hour", limit: 100, retryAfterSeconds: 3000 });
  });

  test("the day full: named before the hour, retry once its oldest is a day old", () => {
    expect(
      emailBudgetVerdict(
        { hour: 100, day: 500, oldestInHourAgo: 600, oldestInDayAgo: 86_000 },
        budget,
      ),
    ).toEqual({ allowed: false, window: "day", limit: 500, retryAfterSeconds: 400 });
  });

  test("a limit of 0 is none; a retry is at least a second away", () => {
    expect(
      emailBudgetVerdict(
        { hour: 10_000, day: 10_000, oldestInHourAgo: 0, oldestInDayAgo: 0 },
        { perHour: 0, perDay: 0 },
      ),
    ).toEqual({ allowed: true });
    const late = emailBudgetVerdict(
      { hour: 1, day: 1, oldestInHourAgo: 3600.5, oldestInDayAgo: 3600.5 },
      { perHour: 1, perDay: 0 },
    );
    expect(late).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
  });

  test("own addresses, whatever their case; null is nobody's", () => {
    expect(isOwnAddress("Billing@Acme.example", ["billing@acme.example", null])).toBe(true);
    expect(isOwnAddress("ap@globex.example", ["billing@acme.example", null])).toBe(false);
  });
});

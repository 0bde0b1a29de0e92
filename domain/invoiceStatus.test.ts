import { describe, expect, test } from "vitest";
import { isVoidable, reportedStatus, utcToday } from "./invoiceStatus.ts";

describe("reportedStatus", () => {
  test("draft and sent become overdue the day after the due date", () => {
    expect(reportedStatus("sent", "2026-01-31", "2026-01-31")).toBe("sent");
    expect(reportedStatus("sent", "2026-01-31", "2026-02-01")).toBe("overdue");
    expect(reportedStatus("draft", "2026-01-31", "2026-02-01")).toBe("overdue");
  });

  test("paid, partial and excess never become overdue", () => {
    for (const stored of ["paid", "partial", "excess"] as const) {
      expect(reportedStatus(stored, "2020-01-01", "2026-02-01")).toBe(stored);
    }
  });

  test("today is taken in UTC", () => {
    expect(utcToday(new Date("2026-03-01T23:30:00-05:00"))).toBe("2026-03-02");
  });
});

describe("isVoidable", () => {
  test("an unpaid invoice, stored or reported overdue, and nothing paid or void", () => {
    expect(["draft", "sent", "overdue"].every((s) => isVoidable(s as "draft"))).toBe(true);
    expect(["paid", "partial", "excess", "void"].some((s) => isVoidable(s as "paid"))).toBe(false);
  });
});

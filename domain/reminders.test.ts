import { describe, expect, test } from "vitest";
import {
  dueDateEvents,
  dueReminderStep,
  DEFAULT_REMINDER_POLICY as policy,
  remindableAmount,
} from "./reminders.ts";

const due = "2026-03-10";

describe("dueReminderStep", () => {
  test.each([
    ["2026-03-06", [], null], // 4 days before: nothing yet
    ["2026-03-07", [], -3],
    ["2026-03-09", [-3], null],
    ["2026-03-10", [-3], 0],
    ["2026-03-16", [-3, 0], null],
    ["2026-03-17", [-3, 0], 7],
    ["2026-03-24", [-3, 0, 7], 14],
    ["2026-06-01", [-3, 0, 7, 14], null],
  ] as const)("on %s after %j: %s", (today, sent, step) => {
    expect(dueReminderStep(policy, due, today, sent)).toBe(step);
  });

  test("after downtime only the latest step, never the missed ones", () => {
    expect(dueReminderStep(policy, due, "2026-03-30", [])).toBe(14);
    expect(dueReminderStep(policy, due, "2026-03-30", [14])).toBeNull();
  });

  test("a step turned off is skipped", () => {
    const steps = policy.steps.map((s) => (s.days === 0 ? { ...s, enabled: false } : s));
    expect(dueReminderStep({ ...policy, steps }, due, "2026-03-10", [-3])).toBeNull();
  });

  test("the cap, and the policy off", () => {
    expect(dueReminderStep({ ...policy, max_reminders: 2 }, due, "2026-03-17", [-3, 0])).toBeNull();
    expect(dueReminderStep({ ...policy, enabled: false }, due, "2026-03-10", [])).toBeNull();
  });
});

describe("remindableAmount", () => {
  test("what is still due on a sent or partly paid invoice", () => {
    expect(remindableAmount("sent", 3_000_000n, 0n)).toBe(3_000_000n);
    expect(remindableAmount("partial", 3_000_000n, 1_000_000n)).toBe(2_000_000n);
  });
  test.each(["paid", "void", "excess", "draft"] as const)("%s: nothing", (status) => {
    expect(remindableAmount(status, 3_000_000n, 0n)).toBe(0n);
  });
});

describe("dueDateEvents", () => {
  test("will_be_due from the earliest step before, overdue the day after", () => {
    expect(dueDateEvents(policy, due, "2026-03-06")).toEqual([]);
    expect(dueDateEvents(policy, due, "2026-03-07")).toEqual(["invoice.will_be_due"]);
    expect(dueDateEvents(policy, due, "2026-03-10")).toEqual(["invoice.will_be_due"]);
    expect(dueDateEvents(policy, due, "2026-03-11")).toEqual(["invoice.overdue"]);
  });
});

import { describe, expect, test } from "vitest";
import {
  automaticReminder,
  dueDateEvents,
  dueReminderStep,
  nextReminderCheck,
  DEFAULT_REMINDER_POLICY as policy,
  REMINDERS_PER_CUSTOMER_PER_DAY,
  type ReminderContext,
  remindableAmount,
  reminderHold,
  type SentReminder,
} from "./reminders.ts";

const due = "2026-03-10";
const at = (moment: string) => new Date(moment.includes("T") ? moment : `${moment}T12:00:00Z`);
/** Automatic reminders of these steps, each sent at noon of its day. */
const steps = (...days: number[]): SentReminder[] =>
  days.map((step) => ({
    step,
    sentAt: at(new Date(Date.parse(`${due}T12:00:00Z`) + step * 86_400_000).toISOString()),
  }));
/** An invoice emailed long ago, with these reminders (all to its one customer). */
const context = (reminders: SentReminder[] = [], other: Date[] = []): ReminderContext => ({
  invoiceSentAt: at("2026-02-01"),
  reminders,
  customerReminders: [...reminders.map((r) => r.sentAt), ...other],
});

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
    expect(dueReminderStep(policy, due, today, steps(...sent))).toBe(step);
  });

  test("after downtime only the latest step, never the missed ones", () => {
    expect(dueReminderStep(policy, due, "2026-03-30", [])).toBe(14);
    expect(dueReminderStep(policy, due, "2026-03-30", steps(14))).toBeNull();
  });

  test("overdue at any age: an invoice 119 days past its due date still gets the last step", () => {
    expect(dueReminderStep(policy, due, "2026-07-07", [])).toBe(14);
  });

  test("a reminder on request on or after a step's day is that step's reminder", () => {
    const byHand = (day: string): SentReminder => ({ step: null, sentAt: at(day) });
    expect(dueReminderStep(policy, due, "2026-03-17", [byHand("2026-03-17")])).toBeNull();
    expect(dueReminderStep(policy, due, "2026-03-18", [byHand("2026-03-17")])).toBeNull();
    // Sent before the step's day: the step is still due.
    expect(dueReminderStep(policy, due, "2026-03-17", [byHand("2026-03-16")])).toBe(7);
    // And a late step (held back) covers the one whose day came meanwhile.
    expect(
      dueReminderStep(policy, due, "2026-03-17", [{ step: 0, sentAt: at("2026-03-17") }]),
    ).toBeNull();
  });

  test("a step turned off is skipped", () => {
    const off = policy.steps.map((s) => (s.days === 0 ? { ...s, enabled: false } : s));
    expect(dueReminderStep({ ...policy, steps: off }, due, "2026-03-10", steps(-3))).toBeNull();
  });

  test("the cap counts automatic reminders only, and the policy off", () => {
    expect(
      dueReminderStep({ ...policy, max_reminders: 2 }, due, "2026-03-17", steps(-3, 0)),
    ).toBeNull();
    const byHand = [{ step: null, sentAt: at("2026-03-01") }];
    expect(dueReminderStep({ ...policy, max_reminders: 1 }, due, "2026-03-07", byHand)).toBe(-3);
    expect(dueReminderStep({ ...policy, enabled: false }, due, "2026-03-10", [])).toBeNull();
  });
});

describe("reminderHold: one cadence and one cap, whoever sends", () => {
  test("never within a day of the invoice's own email: an invoice issued minutes ago is never reminded", () => {
    const issued = {
      invoiceSentAt: at("2026-03-20T09:00:00Z"),
      reminders: [],
      customerReminders: [],
    };
    expect(reminderHold(issued, at("2026-03-20T09:05:00Z"))).toEqual({
      reason: "invoice_just_sent",
      until: at("2026-03-21T09:00:00Z"),
    });
    expect(reminderHold(issued, at("2026-03-21T09:00:00Z"))).toBeNull();
  });

  test("a reminder by hand holds the next one, by hand or automatic, for a day", () => {
    const byHand = context([{ step: null, sentAt: at("2026-03-11T10:00:00Z") }]);
    expect(reminderHold(byHand, at("2026-03-11T10:00:28Z"))).toEqual({
      reason: "invoice_just_reminded",
      until: at("2026-03-12T10:00:00Z"),
    });
    expect(automaticReminder(policy, "2026-03-11", at("2026-03-11T10:00:28Z"), byHand)).toBeNull();
  });

  test(`at most ${REMINDERS_PER_CUSTOMER_PER_DAY} a day per customer, across invoices`, () => {
    // Another invoice of the same customer was reminded this morning.
    const other = context([], [at("2026-03-17T08:00:00Z")]);
    expect(reminderHold(other, at("2026-03-17T12:00:00Z"))).toEqual({
      reason: "customer_reminded_today",
      until: at("2026-03-18T08:00:00Z"),
    });
    expect(automaticReminder(policy, due, at("2026-03-17T12:00:00Z"), other)).toEqual({
      step: 7,
      hold: { reason: "customer_reminded_today", until: at("2026-03-18T08:00:00Z") },
    });
    expect(reminderHold(other, at("2026-03-18T08:00:00Z"))).toBeNull();
  });

  test("the hold shown is the one that ends last", () => {
    const both = {
      invoiceSentAt: at("2026-03-17T11:00:00Z"),
      reminders: [],
      customerReminders: [at("2026-03-17T08:00:00Z")],
    };
    expect(reminderHold(both, at("2026-03-17T12:00:00Z"))?.reason).toBe("invoice_just_sent");
  });

  test("the backfill of issue 42: three invoices at once, two long overdue, no reminder that day", () => {
    const now = at("2026-06-15T12:00:57Z");
    const issued = {
      invoiceSentAt: at("2026-06-15T12:00:00Z"),
      reminders: [],
      customerReminders: [],
    };
    for (const dueDate of ["2026-04-22", "2026-05-22"]) {
      const due = automaticReminder(policy, dueDate, now, issued);
      expect(due?.hold?.reason).toBe("invoice_just_sent");
    }
  });
});

describe("nextReminderCheck: the sweep looks at an invoice only when it has to", () => {
  test("the next step's day, or the overdue event's", () => {
    const now = at("2026-03-07T00:01:00Z");
    expect(
      nextReminderCheck(policy, due, now, context(steps(-3)), ["invoice.will_be_due"]),
    ).toEqual(at("2026-03-10T00:00:00Z"));
    const afterDue = at("2026-03-10T00:01:00Z");
    expect(
      nextReminderCheck(policy, due, afterDue, context(steps(-3, 0)), ["invoice.will_be_due"]),
    ).toEqual(at("2026-03-11T00:00:00Z"));
  });

  test("the end of a hold on a due step", () => {
    const now = at("2026-03-17T12:00:00Z");
    const held = context(steps(-3, 0), [at("2026-03-17T08:00:00Z")]);
    expect(nextReminderCheck(policy, due, now, held, ["invoice.overdue"])).toEqual(
      at("2026-03-18T08:00:00Z"),
    );
  });

  test("never again once the last step is sent and the events recorded", () => {
    const now = at("2026-07-07T12:00:00Z");
    const done = context(steps(14));
    expect(nextReminderCheck(policy, due, now, done, ["invoice.overdue"])).toBeNull();
    // The cap reached: no step is waited for either.
    const capped = { ...policy, max_reminders: 1 };
    expect(
      nextReminderCheck(capped, due, at("2026-03-07T13:00:00Z"), context(steps(-3)), [
        "invoice.will_be_due",
      ]),
    ).toEqual(at("2026-03-11T00:00:00Z"));
  });
});

describe("remindableAmount", () => {
  test("what is still due on a sent or partly paid invoice", () => {
    expect(remindableAmount("sent", 3_000_000n, 0n, 0n)).toBe(3_000_000n);
    expect(remindableAmount("partial", 3_000_000n, 1_000_000n, 0n)).toBe(2_000_000n);
  });
  test.each(["paid", "void", "excess", "draft"] as const)("%s: nothing", (status) => {
    expect(remindableAmount(status, 3_000_000n, 0n, 0n)).toBe(0n);
  });
});

describe("dueDateEvents", () => {
  test("will_be_due from the earliest step before, overdue the day after", () => {
    expect(dueDateEvents(policy, due, "2026-03-06")).toEqual([]);
    expect(dueDateEvents(policy, due, "2026-03-07")).toEqual(["invoice.will_be_due"]);
    expect(dueDateEvents(policy, due, "2026-03-10")).toEqual(["invoice.will_be_due"]);
    expect(dueDateEvents(policy, due, "2026-03-11")).toEqual(["invoice.overdue"]);
  });
  test("overdue at any age", () => {
    expect(dueDateEvents(policy, due, "2026-07-07")).toEqual(["invoice.overdue"]);
    expect(dueDateEvents(policy, due, "2031-01-01")).toEqual(["invoice.overdue"]);
  });
});

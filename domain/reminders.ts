import { openAmountDue } from "./moneyRules.ts";
import { addDays } from "./schedule.ts";

/**
 * Payment reminders (docs/api.md, "Reminders"): a merchant's policy, which step of it is due on
 * a day, and whether an invoice may be reminded at all. Pure: the caller says what today is.
 */

/** A step: a reminder `days` after the due date (negative: before it), on or off. */
export type ReminderStep = { days: number; enabled: boolean };

export type ReminderPolicy = {
  /** Off: no automatic reminder (one on request still may be sent). */
  enabled: boolean;
  steps: ReminderStep[];
  /** Automatic reminders per invoice at most. */
  max_reminders: number;
};

/** The earliest and latest step a policy may have, in days from the due date. */
export const REMINDER_STEP_MIN_DAYS = -30;
export const REMINDER_STEP_MAX_DAYS = 90;
export const MAX_REMINDER_STEPS = 8;
/** Reminders one invoice may be sent on request per hour (POST /api/invoices/{id}/remind). */
export const MANUAL_REMINDERS_PER_HOUR = 3;

/** The defaults: 3 days before the due date, on it, 7 and 14 days after; at most 4. */
export const DEFAULT_REMINDER_POLICY: ReminderPolicy = {
  enabled: true,
  steps: [
    { days: -3, enabled: true },
    { days: 0, enabled: true },
    { days: 7, enabled: true },
    { days: 14, enabled: true },
  ],
  max_reminders: 4,
};

/**
 * What an invoice still asks for, when a reminder may be sent about it: the amount due of an
 * open invoice (moneyRules' openAmountDue: sent or partly paid, after partial payments). Drafts,
 * paid, excess and void invoices are never reminded.
 */
export const remindableAmount = openAmountDue;

/**
 * The policy step due on `today` for an invoice due on `dueDate`, or null: the latest enabled
 * step whose day has come, unless it (or a later one) was sent already or the cap is reached.
 * After downtime only the latest step is sent, never a burst of the missed ones.
 *
 * @example dueReminderStep(DEFAULT_REMINDER_POLICY, "2026-03-10", "2026-03-07", []) // -3
 * @example dueReminderStep(DEFAULT_REMINDER_POLICY, "2026-03-10", "2026-03-20", [-3, 0]) // 7
 */
export function dueReminderStep(
  policy: ReminderPolicy,
  dueDate: string,
  today: string,
  sentSteps: readonly number[],
): number | null {
  if (!policy.enabled || sentSteps.length >= policy.max_reminders) return null;
  const reached = policy.steps
    .filter((step) => step.enabled && addDays(dueDate, step.days) <= today)
    .map((step) => step.days)
    .sort((a, b) => a - b);
  const latest = reached.at(-1);
  if (latest === undefined) return null;
  if (sentSteps.some((sent) => sent >= latest)) return null;
  return latest;
}

/**
 * The due-date events an open invoice has reached on `today`: `invoice.will_be_due` from the
 * policy's earliest step before the due date (3 days before when it has none), `invoice.overdue`
 * from the day after the due date. Each is recorded once per invoice.
 */
export function dueDateEvents(
  policy: ReminderPolicy,
  dueDate: string,
  today: string,
): ("invoice.will_be_due" | "invoice.overdue")[] {
  const before = policy.steps.filter((s) => s.days < 0).map((s) => s.days);
  const warnFrom = addDays(dueDate, before.length ? Math.min(...before) : -3);
  const events: ("invoice.will_be_due" | "invoice.overdue")[] = [];
  if (today > dueDate) events.push("invoice.overdue");
  else if (today >= warnFrom) events.push("invoice.will_be_due");
  return events;
}

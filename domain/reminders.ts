import { openAmountDue } from "./moneyRules.ts";
import { addDays } from "./schedule.ts";

/**
 * Payment reminders (docs/api.md, "Reminders"): a merchant's policy, which step of it is due on
 * a day, whether an invoice may be reminded at all, and the one cadence and cap every reminder
 * obeys, sent on request or by the policy. Pure: the caller says what now is and what was sent.
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
 * One cadence for every reminder of an invoice, sent on request (POST /api/invoices/{id}/remind)
 * or by the policy (the worker's sweep): at least REMINDER_GAP_HOURS after the invoice itself
 * was emailed to the customer (so an invoice issued minutes ago, by hand or by a schedule
 * catching up, is never called overdue in an email), and at least as long after the invoice's
 * previous reminder.
 */
export const REMINDER_GAP_HOURS = 24;
/**
 * One cap per customer: reminders to one customer (the vendor email, in any case) of one merchant
 * in any rolling 24 hours, whichever invoices they are about and however they were sent.
 */
export const REMINDERS_PER_CUSTOMER_PER_DAY = 1;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A reminder already sent: its policy step (null: on request) and when, on the reminders' clock. */
export type SentReminder = { step: number | null; sentAt: Date };

/** What the cadence and the cap are counted on, read under the invoice's lock. */
export type ReminderContext = {
  /** When the invoice was emailed to the customer (its `sent_at`); null: never. */
  invoiceSentAt: Date | null;
  /** The invoice's reminders, both kinds. */
  reminders: readonly SentReminder[];
  /** When each reminder to the invoice's customer was sent (this invoice's and the merchant's
   * other invoices' to the same address), those of the last 24 hours at least. */
  customerReminders: readonly Date[];
};

/** Why a reminder may not go now, and the moment it may. */
export type ReminderHold = {
  reason: "invoice_just_sent" | "invoice_just_reminded" | "customer_reminded_today";
  until: Date;
};

const dayOf = (moment: Date) => moment.toISOString().slice(0, 10);
const startOfDay = (date: string) => new Date(`${date}T00:00:00Z`);

/**
 * The one rule of when an invoice may be reminded, whoever asks: null when now, else the hold
 * that ends last (the reason shown, and the moment every limit allows one).
 *
 * @example reminderHold({ invoiceSentAt: new Date("2026-03-10T09:00:00Z"), reminders: [], customerReminders: [] }, new Date("2026-03-10T09:05:00Z"))
 *   // { reason: "invoice_just_sent", until: 2026-03-11T09:00:00Z }
 */
export function reminderHold(context: ReminderContext, now: Date): ReminderHold | null {
  const holds: ReminderHold[] = [];
  const gap = REMINDER_GAP_HOURS * HOUR_MS;
  if (context.invoiceSentAt && context.invoiceSentAt.getTime() + gap > now.getTime())
    holds.push({
      reason: "invoice_just_sent",
      until: new Date(context.invoiceSentAt.getTime() + gap),
    });
  const last = Math.max(...context.reminders.map((r) => r.sentAt.getTime()));
  if (last + gap > now.getTime())
    holds.push({ reason: "invoice_just_reminded", until: new Date(last + gap) });
  // In the window: the last 24 hours (a reminder "after" now, on a clock moved back, counts too).
  const recent = context.customerReminders
    .map((at) => at.getTime())
    .filter((at) => at > now.getTime() - DAY_MS)
    .sort((a, b) => a - b);
  if (recent.length >= REMINDERS_PER_CUSTOMER_PER_DAY) {
    // The window holds one fewer than the cap once this one has left it.
    const leaving = recent[recent.length - REMINDERS_PER_CUSTOMER_PER_DAY] as number;
    holds.push({ reason: "customer_reminded_today", until: new Date(leaving + DAY_MS) });
  }
  return holds.reduce<ReminderHold | null>(
    (latest, hold) => (latest && latest.until >= hold.until ? latest : hold),
    null,
  );
}

/**
 * The policy step due on `today` for an invoice due on `dueDate`, or null: the latest enabled
 * step whose day has come, unless the cap of automatic reminders is reached or a reminder of
 * either kind already covers it (that step or a later one sent, or any reminder sent on or after
 * its day: a reminder on request the morning of a step's day is that day's reminder). After
 * downtime, or a reminder held back, only the latest step is sent, never a burst of the missed
 * ones.
 *
 * @example dueReminderStep(DEFAULT_REMINDER_POLICY, "2026-03-10", "2026-03-07", []) // -3
 */
export function dueReminderStep(
  policy: ReminderPolicy,
  dueDate: string,
  today: string,
  reminders: readonly SentReminder[],
): number | null {
  const automatic = reminders.filter((r) => r.step !== null).length;
  if (!policy.enabled || automatic >= policy.max_reminders) return null;
  const reached = policy.steps
    .filter((step) => step.enabled && addDays(dueDate, step.days) <= today)
    .map((step) => step.days)
    .sort((a, b) => a - b);
  const latest = reached.at(-1);
  if (latest === undefined) return null;
  const day = addDays(dueDate, latest);
  const covered = reminders.some(
    (r) => (r.step !== null && r.step >= latest) || dayOf(r.sentAt) >= day,
  );
  return covered ? null : latest;
}

/**
 * What the policy asks of an open invoice now: the step to send, the step due but held by the
 * cadence or the cap (sent once the hold ends, if it is still the latest), or nothing.
 */
export function automaticReminder(
  policy: ReminderPolicy,
  dueDate: string,
  now: Date,
  context: ReminderContext,
): { step: number; hold: ReminderHold | null } | null {
  const step = dueReminderStep(policy, dueDate, dayOf(now), context.reminders);
  return step === null ? null : { step, hold: reminderHold(context, now) };
}

/** The day `invoice.will_be_due` is recorded from: the earliest step before the due date's, or 3 days before. */
function warnFrom(policy: ReminderPolicy, dueDate: string): string {
  const before = policy.steps.filter((s) => s.days < 0).map((s) => s.days);
  return addDays(dueDate, before.length ? Math.min(...before) : -3);
}

/**
 * The due-date events an open invoice has reached on `today`: `invoice.will_be_due` from the
 * policy's earliest step before the due date (3 days before when it has none), `invoice.overdue`
 * from the day after the due date, however long ago that was. Each is recorded once per invoice.
 */
export function dueDateEvents(
  policy: ReminderPolicy,
  dueDate: string,
  today: string,
): ("invoice.will_be_due" | "invoice.overdue")[] {
  if (today > dueDate) return ["invoice.overdue"];
  if (today >= warnFrom(policy, dueDate)) return ["invoice.will_be_due"];
  return [];
}

/**
 * When the sweep next has something to do for an open invoice, given what it has recorded and
 * sent: the day a due-date event not yet recorded comes, the end of a hold on a due step, the
 * day of the next enabled step while the cap allows one; null when nothing ever will (until the
 * policy changes or the invoice reopens). Always after `now`: the sweep looks at an invoice
 * only when it has to, however many invoices are open and however old they are.
 */
export function nextReminderCheck(
  policy: ReminderPolicy,
  dueDate: string,
  now: Date,
  context: ReminderContext,
  recordedEvents: readonly string[],
): Date | null {
  const today = dayOf(now);
  const moments: Date[] = [];
  if (!recordedEvents.includes("invoice.overdue")) moments.push(startOfDay(addDays(dueDate, 1)));
  if (!recordedEvents.includes("invoice.will_be_due") && today <= dueDate)
    moments.push(startOfDay(warnFrom(policy, dueDate)));
  const due = automaticReminder(policy, dueDate, now, context);
  if (due?.hold) moments.push(due.hold.until);
  const automatic = context.reminders.filter((r) => r.step !== null).length;
  if (policy.enabled && automatic < policy.max_reminders) {
    const next = policy.steps
      .filter((step) => step.enabled)
      .map((step) => addDays(dueDate, step.days))
      .filter((day) => day > today)
      .sort()[0];
    if (next) moments.push(startOfDay(next));
  }
  const ahead = moments.filter((moment) => moment > now).map((moment) => moment.getTime());
  return ahead.length ? new Date(Math.min(...ahead)) : null;
}

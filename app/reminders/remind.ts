import type { Transaction } from "kysely";
import type { Clock } from "../../db/clock.ts";
import type { Database, Db } from "../../db/database.ts";
import { recordPaymentEvent } from "../../db/queries/paymentEvents.ts";
import {
  findOpenInvoicesDueBetween,
  findReminderPolicy,
  insertReminder,
  lockRemindableInvoice,
  type RemindableInvoice,
  recentManualReminders,
  recordedDueDateEvents,
  sentReminderSteps,
} from "../../db/queries/reminders.ts";
import { formatUsdc } from "../../domain/money.ts";
import {
  dueDateEvents,
  dueReminderStep,
  REMINDER_STEP_MAX_DAYS,
  REMINDER_STEP_MIN_DAYS,
  type ReminderPolicy,
  remindableAmount,
} from "../../domain/reminders.ts";
import { addDays } from "../../domain/schedule.ts";

export type ReminderSent = { reminderId: string; emailId: string; amountDue: bigint };

/** On-request reminders past their hourly cap: the next one may go at `freeAt`. */
export type ReminderLimited = { limited: true; freeAt: Date };

const HOUR_MS = 3_600_000;

/**
 * Sends a reminder for the invoice now (step null: on request), in one transaction under the
 * invoice's row lock, so a payment or a void committing meanwhile is seen: "nothing_due" when
 * nothing is (paid, excess, void, a draft), "already_sent" for a policy step sent before. With
 * `hourlyCap`, on-request reminders sent in the last hour (wall clock) are counted under the same
 * lock: concurrent requests cannot all pass a count taken before it.
 */
export async function remindInvoice(
  db: Db,
  invoiceId: string,
  step: number | null,
  now: Date,
  hourlyCap?: number,
): Promise<ReminderSent | ReminderLimited | "nothing_due" | "already_sent"> {
  return db.transaction().execute(async (trx) => {
    const invoice = await lockRemindableInvoice(trx, invoiceId);
    if (!invoice) return "nothing_due";
    if (hourlyCap !== undefined) {
      const wall = Date.now();
      const recent = await recentManualReminders(trx, invoiceId, new Date(wall - HOUR_MS));
      if (recent.count >= hourlyCap)
        return { limited: true, freeAt: new Date((recent.oldest?.getTime() ?? wall) + HOUR_MS) };
    }
    const amountDue = remindableAmount(invoice.status, invoice.total_amount, invoice.received);
    if (amountDue === 0n) return "nothing_due";
    const sent = await insertReminder(trx, {
      invoiceId,
      step,
      amountDue,
      recipient: invoice.vendor_email,
      sentAt: now,
    });
    return sent ? { reminderId: sent.id, emailId: sent.emailId, amountDue } : "already_sent";
  });
}

/**
 * Records `invoice.will_be_due` or `invoice.overdue` once for the invoice (a unique index, and
 * the invoice's lock held here), with its deliveries to the merchant's webhook endpoints and
 * its line in the event log. Not to the invoice's own webhook_url, whose receivers were written
 * for payment events only.
 */
async function recordDueDateEvent(
  trx: Transaction<Database>,
  invoice: RemindableInvoice & { due_date: string },
  type: "invoice.will_be_due" | "invoice.overdue",
  now: Date,
): Promise<boolean> {
  if ((await recordedDueDateEvents(trx, invoice.id)).includes(type)) return false;
  const id = crypto.randomUUID();
  const amountDue = remindableAmount(invoice.status, invoice.total_amount, invoice.received);
  await recordPaymentEvent(trx, {
    id,
    owner: { invoiceId: invoice.id },
    type,
    status: invoice.status,
    paidAmount: invoice.received,
    txHash: null,
    paidAt: null,
    createdAt: now,
    payload: JSON.stringify({
      event_id: id,
      type,
      created_at: now.toISOString(),
      invoice_id: invoice.id,
      invoice_number: invoice.invoice_number,
      status: invoice.status,
      due_date: invoice.due_date,
      total_amount: formatUsdc(invoice.total_amount),
      paid_amount: formatUsdc(invoice.received),
      amount_due: formatUsdc(amountDue),
    }),
    merchantEmail: null,
    webhookUrl: null,
  });
  return true;
}

/** Invoices looked at per query of the sweep. */
const SWEEP_PAGE = 500;

/**
 * The reminder sweep (every minute, and whenever tests move the clock): for every open invoice
 * whose due date is within reach of a policy step, the due-date events it has reached and the
 * policy step due today, each once. Idempotent: running it twice, or in two workers, sends
 * nothing twice (the unique indexes, under the invoice's lock).
 */
export async function sweepReminders(
  db: Db,
  clock: Clock,
): Promise<{ reminders: number; events: number }> {
  const now = await clock.now();
  const today = now.toISOString().slice(0, 10);
  const policies = new Map<string, ReminderPolicy>();
  const policyOf = async (merchantId: string) => {
    let policy = policies.get(merchantId);
    if (!policy) {
      policy = await findReminderPolicy(db, merchantId);
      policies.set(merchantId, policy);
    }
    return policy;
  };
  let reminders = 0;
  let events = 0;
  let after: string | undefined;
  for (;;) {
    // A due date a step (or the will_be_due warning) reaches today: within the steps' bounds.
    const page = await findOpenInvoicesDueBetween(
      db,
      addDays(today, -REMINDER_STEP_MAX_DAYS),
      addDays(today, -REMINDER_STEP_MIN_DAYS),
      SWEEP_PAGE,
      after,
    );
    for (const candidate of page) {
      const policy = await policyOf(candidate.merchant_id);
      const types = dueDateEvents(policy, candidate.due_date, today);
      if (types.length) {
        const recorded = await recordedDueDateEvents(db, candidate.id);
        const missing = types.filter((type) => !recorded.includes(type));
        if (missing.length)
          await db.transaction().execute(async (trx) => {
            const invoice = await lockRemindableInvoice(trx, candidate.id);
            if (!invoice) return;
            if (remindableAmount(invoice.status, invoice.total_amount, invoice.received) === 0n)
              return;
            for (const type of missing)
              if (await recordDueDateEvent(trx, invoice, type, now)) events += 1;
          });
      }
      const step = dueReminderStep(
        policy,
        candidate.due_date,
        today,
        await sentReminderSteps(db, candidate.id),
      );
      if (step === null) continue;
      const sent = await remindInvoice(db, candidate.id, step, now);
      if (typeof sent === "object" && "reminderId" in sent) reminders += 1;
    }
    if (page.length < SWEEP_PAGE) break;
    after = page.at(-1)?.id;
  }
  return { reminders, events };
}

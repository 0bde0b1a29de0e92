import type { Transaction } from "kysely";
import type { Clock } from "../../db/clock.ts";
import type { Database, Db } from "../../db/database.ts";
import {
  findDueReminderChecks,
  findReminderPolicy,
  insertReminder,
  lockCustomerReminders,
  lockRemindableInvoice,
  type RemindableInvoice,
  type ReminderCheckKey,
  recordedDueDateEvents,
  reminderContext,
  rewindReminderChecks,
  setReminderCheck,
} from "../../db/queries/reminders.ts";
import type { EmailBudget } from "../../domain/emailBudget.ts";
import { formatUsdc } from "../../domain/money.ts";
import {
  automaticReminder,
  dueDateEvents,
  nextReminderCheck,
  type ReminderContext,
  type ReminderHold,
  type ReminderPolicy,
  remindableAmount,
  reminderHold,
} from "../../domain/reminders.ts";
import { chargeEmailToOthers } from "../emailBudget.ts";
import { recordEvent } from "../events/recordEvent.ts";
import { RetryLaterError } from "../refusal.ts";

export type ReminderSent = { reminderId: string; emailId: string; amountDue: bigint };

/** A reminder the cadence or the cap holds back (domain/reminders.ts reminderHold). */
export type ReminderHeld = { held: ReminderHold };

/**
 * Records a reminder and queues its email, in the caller's transaction (the invoice's row lock
 * and its customer's lock held): charged to the merchant's budget of email to others first.
 */
async function sendReminder(
  trx: Transaction<Database>,
  invoice: RemindableInvoice,
  step: number | null,
  amountDue: bigint,
  now: Date,
  emailBudget: EmailBudget | undefined,
): Promise<ReminderSent | null> {
  await chargeEmailToOthers(trx, emailBudget, invoice.merchant_id, invoice.vendor_email);
  const sent = await insertReminder(trx, {
    invoiceId: invoice.id,
    merchantId: invoice.merchant_id,
    step,
    amountDue,
    recipient: invoice.vendor_email,
    sentAt: now,
  });
  return sent && { reminderId: sent.id, emailId: sent.emailId, amountDue };
}

/** The context with the reminder just sent counted. */
const withSent = (context: ReminderContext, step: number | null, now: Date): ReminderContext => ({
  ...context,
  reminders: [...context.reminders, { step, sentAt: now }],
  customerReminders: [...context.customerReminders, now],
});

/**
 * A reminder of the invoice on request, now: in one transaction under the invoice's row lock
 * (a payment or a void committing meanwhile is seen: "nothing_due" when nothing is) and its
 * customer's lock, so the cadence and the cap (domain/reminders.ts reminderHold, the same rule
 * as the policy's reminders) are counted where concurrent requests and the sweep cannot pass
 * them.
 */
export async function remindInvoice(
  db: Db,
  invoiceId: string,
  now: Date,
  emailBudget?: EmailBudget,
): Promise<ReminderSent | ReminderHeld | "nothing_due"> {
  return db.transaction().execute(async (trx) => {
    const invoice = await lockRemindableInvoice(trx, invoiceId);
    if (!invoice) return "nothing_due";
    const amountDue = remindableAmount(
      invoice.status,
      invoice.total_amount,
      invoice.received,
      invoice.credited_amount,
    );
    if (amountDue === 0n) return "nothing_due";
    await lockCustomerReminders(trx, invoice);
    const held = reminderHold(await reminderContext(trx, invoice, now), now);
    if (held) return { held };
    const sent = await sendReminder(trx, invoice, null, amountDue, now, emailBudget);
    // Reminders on request have no step: the (invoice, step) index never refuses one.
    if (!sent) throw new Error(`reminder of invoice ${invoiceId} not recorded`);
    return sent;
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
  invoice: RemindableInvoice,
  type: "invoice.will_be_due" | "invoice.overdue",
  now: Date,
): Promise<boolean> {
  if ((await recordedDueDateEvents(trx, invoice.id)).includes(type)) return false;
  const id = crypto.randomUUID();
  const amountDue = remindableAmount(
    invoice.status,
    invoice.total_amount,
    invoice.received,
    invoice.credited_amount,
  );
  await recordEvent(
    trx,
    {
      owner: { invoiceId: invoice.id },
      status: invoice.status,
      paidAmount: invoice.received,
      txHash: null,
      paidAt: null,
      merchantEmail: null,
      webhookUrl: null,
    },
    {
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
      metadata: invoice.metadata,
    },
  );
  return true;
}

/** Invoices looked at per query of the sweep. */
const SWEEP_PAGE = 500;

type SweepOutcome = { reminded: boolean; events: number; deferred: boolean };

/**
 * One open invoice whose check has come: the due-date events it has reached (in a transaction
 * of their own: a reminder deferred by the email budget does not take them back), the policy
 * step due unless the cadence or the cap holds it (the same rule as a reminder on request),
 * and when to look at it again (domain/reminders.ts nextReminderCheck).
 */
async function sweepInvoice(
  db: Db,
  candidate: RemindableInvoice,
  policy: ReminderPolicy,
  now: Date,
  emailBudget: EmailBudget | undefined,
): Promise<SweepOutcome> {
  const today = now.toISOString().slice(0, 10);
  const outcome: SweepOutcome = { reminded: false, events: 0, deferred: false };
  const types = dueDateEvents(policy, candidate.due_date, today);
  const recorded = types.length ? await recordedDueDateEvents(db, candidate.id) : [];
  const missing = types.filter((type) => !recorded.includes(type));
  if (missing.length)
    await db.transaction().execute(async (trx) => {
      const invoice = await lockRemindableInvoice(trx, candidate.id);
      if (!invoice) return;
      if (
        remindableAmount(
          invoice.status,
          invoice.total_amount,
          invoice.received,
          invoice.credited_amount,
        ) === 0n
      )
        return;
      for (const type of missing)
        if (await recordDueDateEvent(trx, invoice, type, now)) outcome.events += 1;
    });
  try {
    await db.transaction().execute(async (trx) => {
      const invoice = await lockRemindableInvoice(trx, candidate.id);
      if (!invoice) return;
      // Closed meanwhile (paid, void): nothing is due, and its check went with its status
      // (migration 0038's trigger), so the update below changes nothing.
      await lockCustomerReminders(trx, invoice);
      let context = await reminderContext(trx, invoice, now);
      const amountDue = remindableAmount(
        invoice.status,
        invoice.total_amount,
        invoice.received,
        invoice.credited_amount,
      );
      const due = amountDue > 0n ? automaticReminder(policy, invoice.due_date, now, context) : null;
      if (due && !due.hold) {
        const sent = await sendReminder(trx, invoice, due.step, amountDue, now, emailBudget);
        outcome.reminded = sent !== null;
        context = withSent(context, due.step, now);
      }
      const events = await recordedDueDateEvents(trx, invoice.id);
      const next = nextReminderCheck(policy, invoice.due_date, now, context, events);
      await setReminderCheck(trx, invoice.id, next, now);
    });
  } catch (error) {
    // Over the merchant's budget of email to others: deferred, not sent; looked at again once
    // the budget allows (each step is sent once, whenever that is).
    if (!(error instanceof RetryLaterError) || error.code !== "email_budget_exhausted") throw error;
    outcome.deferred = true;
    await setReminderCheck(
      db,
      candidate.id,
      new Date(now.getTime() + error.retryAfterSeconds * 1000),
      now,
    );
  }
  return outcome;
}

/**
 * The reminder sweep (every minute, and whenever tests move the clock): every open invoice
 * whose check has come (migration 0038's reminder_checks, set by nextReminderCheck), whatever
 * its age, gets the due-date events it has reached and the policy step due, each once. Only
 * those are read: an invoice with nothing to do until a later day is not looked at before it.
 * Idempotent: running it twice, or in two workers, sends nothing twice (the unique indexes,
 * under the invoice's lock).
 */
export async function sweepReminders(
  db: Db,
  clock: Clock,
  emailBudget?: EmailBudget,
): Promise<{ reminders: number; events: number; deferred: number }> {
  const now = await clock.now();
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
  let deferred = 0;
  await rewindReminderChecks(db, now);
  let after: ReminderCheckKey | undefined;
  for (;;) {
    const page = await findDueReminderChecks(db, now, SWEEP_PAGE, after);
    for (const candidate of page) {
      const outcome = await sweepInvoice(
        db,
        candidate,
        await policyOf(candidate.merchant_id),
        now,
        emailBudget,
      );
      if (outcome.reminded) reminders += 1;
      if (outcome.deferred) deferred += 1;
      events += outcome.events;
    }
    const last = page.at(-1);
    if (page.length < SWEEP_PAGE || !last) break;
    after = { checkAt: last.check_at, invoiceId: last.id };
  }
  return { reminders, events, deferred };
}

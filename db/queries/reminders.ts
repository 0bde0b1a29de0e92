import { sql, type Transaction } from "kysely";
import { DEFAULT_REMINDER_POLICY, type ReminderPolicy } from "../../domain/reminders.ts";
import type { StoredInvoiceStatus } from "../../domain/statuses.ts";
import type { Database, Executor } from "../database.ts";

/** The merchant's reminder policy; the defaults until it changes one. */
export async function findReminderPolicy(
  db: Executor,
  merchantId: string,
): Promise<ReminderPolicy> {
  const row = await db
    .selectFrom("app.reminder_policies")
    .select(["enabled", "step_days", "step_enabled", "max_reminders"])
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  if (!row) return DEFAULT_REMINDER_POLICY;
  return {
    enabled: row.enabled,
    steps: row.step_days.map((days, i) => ({ days, enabled: row.step_enabled[i] ?? false })),
    max_reminders: row.max_reminders,
  };
}

export async function saveReminderPolicy(
  db: Executor,
  merchantId: string,
  policy: ReminderPolicy,
): Promise<void> {
  const values = {
    enabled: policy.enabled,
    step_days: policy.steps.map((step) => step.days),
    step_enabled: policy.steps.map((step) => step.enabled),
    max_reminders: policy.max_reminders,
    updated_at: new Date(),
  };
  await db
    .insertInto("app.reminder_policies")
    .values({ merchant_id: merchantId, ...values })
    .onConflict((oc) => oc.column("merchant_id").doUpdateSet(values))
    .execute();
}

/** What a reminder needs of an invoice: its money (received from payment_state) and its people. */
export type RemindableInvoice = {
  id: string;
  merchant_id: string;
  invoice_number: string;
  status: StoredInvoiceStatus;
  total_amount: bigint;
  received: bigint;
  due_date: string;
  vendor_email: string;
};

const remindable = (db: Executor) =>
  db
    .selectFrom("app.invoices as i")
    .leftJoin("app.payment_state as s", "s.deposit_address", "i.deposit_address")
    .select([
      "i.id",
      "i.merchant_id",
      "i.invoice_number",
      "i.status",
      "i.total_amount",
      "i.due_date",
      "i.vendor_email",
    ])
    .select((eb) => eb.fn.coalesce("s.received", sql<bigint>`0::bigint`).as("received"));

/** The invoice, its row locked: a reminder and a payment or void of it serialise. */
export async function lockRemindableInvoice(
  trx: Transaction<Database>,
  id: string,
): Promise<RemindableInvoice | undefined> {
  return remindable(trx).where("i.id", "=", id).forUpdate("i").executeTakeFirst();
}

/** Open invoices due between the two dates (inclusive), a page at a time by id. */
export async function findOpenInvoicesDueBetween(
  db: Executor,
  from: string,
  to: string,
  limit: number,
  afterId?: string,
): Promise<RemindableInvoice[]> {
  let query = remindable(db)
    .where("i.status", "in", ["sent", "partial"])
    .where("i.due_date", ">=", from)
    .where("i.due_date", "<=", to);
  if (afterId) query = query.where("i.id", ">", afterId);
  return query.orderBy("i.id").limit(limit).execute();
}

/** The policy steps already sent for an invoice. */
export async function sentReminderSteps(db: Executor, invoiceId: string): Promise<number[]> {
  const rows = await db
    .selectFrom("app.invoice_reminders")
    .select("step")
    .where("invoice_id", "=", invoiceId)
    .where("step", "is not", null)
    .execute();
  return rows.map((row) => row.step as number);
}

/** The due-date event types already recorded for an invoice. */
export async function recordedDueDateEvents(db: Executor, invoiceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("app.payment_events")
    .select("type")
    .where("invoice_id", "=", invoiceId)
    .where("type", "in", ["invoice.will_be_due", "invoice.overdue"])
    .execute();
  return rows.map((row) => row.type);
}

/**
 * Records a reminder and queues its email to the vendor (the send_email job composes it, PDF
 * attached); null when this policy step was sent already (the unique index: once per step).
 */
export async function insertReminder(
  trx: Transaction<Database>,
  reminder: {
    invoiceId: string;
    step: number | null;
    amountDue: bigint;
    recipient: string;
    sentAt: Date;
  },
): Promise<{ id: string; emailId: string } | null> {
  const row = await trx
    .insertInto("app.invoice_reminders")
    .values({
      invoice_id: reminder.invoiceId,
      step: reminder.step,
      amount_due: reminder.amountDue,
      email_id: null,
      sent_at: reminder.sentAt,
    })
    .onConflict((oc) =>
      oc.columns(["invoice_id", "step"]).where("step", "is not", null).doNothing(),
    )
    .returning("id")
    .executeTakeFirst();
  if (!row) return null;
  const email = await trx
    .insertInto("app.emails")
    .values({
      kind: "vendor_reminder",
      invoice_id: reminder.invoiceId,
      recipient: reminder.recipient,
      last_error: null,
      sent_at: null,
      event_id: null,
      details: JSON.stringify({
        reminder_id: row.id,
        amount_due: reminder.amountDue.toString(),
        // The day it is about, on the clock that decided it (the test clock under TEST_CLOCK).
        day: reminder.sentAt.toISOString().slice(0, 10),
      }),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await trx
    .updateTable("app.invoice_reminders")
    .set({ email_id: email.id })
    .where("id", "=", row.id)
    .execute();
  return { id: row.id, emailId: email.id };
}

/** Reminders sent on request for an invoice since `since`, and the oldest of them. */
export async function recentManualReminders(
  db: Executor,
  invoiceId: string,
  since: Date,
): Promise<{ count: number; oldest: Date | null }> {
  const row = await db
    .selectFrom("app.invoice_reminders")
    .select((eb) => [eb.fn.countAll<string>().as("count"), eb.fn.min("created_at").as("oldest")])
    .where("invoice_id", "=", invoiceId)
    .where("step", "is", null)
    .where("created_at", ">=", since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), oldest: (row.oldest as Date | null) ?? null };
}

/** Every reminder of an invoice, oldest first (the invoice's timeline). */
export async function listReminders(db: Executor, invoiceId: string) {
  return db
    .selectFrom("app.invoice_reminders")
    .select(["id", "step", "amount_due", "sent_at", "created_at", "email_id"])
    .where("invoice_id", "=", invoiceId)
    .orderBy("created_at")
    .execute();
}

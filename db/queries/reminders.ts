import { sql, type Transaction } from "kysely";
import type { Currency } from "../../domain/currencies.ts";
import type { Metadata } from "../../domain/metadata.ts";
import { receivedInOwnUnit } from "../../domain/moneyRules.ts";
import {
  DEFAULT_REMINDER_POLICY,
  type ReminderContext,
  type ReminderPolicy,
} from "../../domain/reminders.ts";
import type { StoredInvoiceStatus } from "../../domain/statuses.ts";
import type { Database, Executor } from "../database.ts";
import { queuedEmail } from "./emails.ts";

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
  /** Its amounts (total, credited, received) are in this: USDC, or the currency it is priced in. */
  currency: Currency;
  total_amount: bigint;
  /** What its credit notes took off (migration 0040). */
  credited_amount: bigint;
  /** What its payments counted for, in its currency (moneyRules' receivedInOwnUnit). */
  received: bigint;
  due_date: string;
  vendor_email: string;
  /** When the invoice was emailed to the vendor; null: never (a draft). */
  sent_at: Date | null;
  /** Its integrator's keys, in its due-date events as in its payment events. */
  metadata: Metadata;
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
      "i.credited_amount",
      "i.due_date",
      "i.vendor_email",
      "i.sent_at",
      "i.metadata",
      "i.currency",
      "s.received_in_currency",
    ])
    .select((eb) => eb.fn.coalesce("s.received", sql<bigint>`0::bigint`).as("received"));

/** A row of `remindable` with what it received in its own unit (USDC, or its currency). */
const inOwnUnit = <Row extends RemindableInvoice & { received_in_currency: bigint | null }>({
  received_in_currency,
  ...row
}: Row): Omit<Row, "received_in_currency"> => ({
  ...row,
  received: receivedInOwnUnit(row.currency, {
    received: row.received,
    receivedInCurrency: received_in_currency,
  }),
});

/** The invoice, its row locked: a reminder and a payment or void of it serialise. */
export async function lockRemindableInvoice(
  trx: Transaction<Database>,
  id: string,
): Promise<RemindableInvoice | undefined> {
  const row = await remindable(trx).where("i.id", "=", id).forUpdate("i").executeTakeFirst();
  return row && inOwnUnit(row);
}

/** Where the sweep's reading of its due rows stopped: the last row's moment and invoice. */
export type ReminderCheckKey = { checkAt: Date; invoiceId: string };

/**
 * The open invoices whose reminder check has come by `now` (migration 0038's reminder_checks,
 * on its index), a page at a time in the order of their moment, after `after`.
 */
export async function findDueReminderChecks(
  db: Executor,
  now: Date,
  limit: number,
  after?: ReminderCheckKey,
): Promise<(RemindableInvoice & { check_at: Date })[]> {
  let query = remindable(db)
    .innerJoin("app.reminder_checks as c", "c.invoice_id", "i.id")
    .select(sql<Date>`c.check_at`.as("check_at"))
    .where("c.check_at", "is not", null)
    .where("c.check_at", "<=", now);
  if (after)
    query = query.where(
      sql<boolean>`(c.check_at, c.invoice_id) > (${after.checkAt}::timestamptz, ${after.invoiceId}::uuid)`,
    );
  const rows = await query.orderBy("c.check_at").orderBy("c.invoice_id").limit(limit).execute();
  return rows.map(inOwnUnit);
}

/**
 * When the sweep next looks at the invoice (null: not until the policy changes), as decided at
 * `now`.
 */
export async function setReminderCheck(
  db: Executor,
  invoiceId: string,
  at: Date | null,
  now: Date,
): Promise<void> {
  await db
    .updateTable("app.reminder_checks")
    .set({ check_at: at, checked_at: now })
    .where("invoice_id", "=", invoiceId)
    .execute();
}

/**
 * Checks decided at a moment after `now` (the clock went back: the test clock does, between
 * tests) are due again: what they waited for was reckoned from a time that has not come.
 */
export async function rewindReminderChecks(db: Executor, now: Date): Promise<void> {
  await db
    .updateTable("app.reminder_checks")
    .set({ check_at: new Date(0), checked_at: null })
    .where("checked_at", ">", now)
    .execute();
}

/** Every open invoice of the merchant looked at by the next sweep (its policy changed). */
export async function resetReminderChecks(db: Executor, merchantId: string): Promise<void> {
  await db
    .updateTable("app.reminder_checks")
    .set({ check_at: new Date(0) })
    .where("invoice_id", "in", (eb) =>
      eb
        .selectFrom("app.invoices")
        .select("id")
        .where("merchant_id", "=", merchantId)
        .where("status", "in", ["sent", "partial"]),
    )
    .execute();
}

/** The customer of a reminder: the vendor email, in any case. */
const customerOf = (vendorEmail: string) => vendorEmail.toLowerCase();

/**
 * Serialises the reminders of one merchant's customer until the transaction ends (taken after
 * the invoice's row lock): a count of its last day's reminders cannot be passed by a reminder
 * of another of its invoices decided at the same moment.
 */
export async function lockCustomerReminders(
  trx: Transaction<Database>,
  invoice: Pick<RemindableInvoice, "merchant_id" | "vendor_email">,
): Promise<void> {
  const key = `remit:reminders:${invoice.merchant_id}:${customerOf(invoice.vendor_email)}`;
  await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
}

/**
 * What the cadence and the cap count for a reminder of `invoice` at `now`
 * (domain/reminders.ts reminderHold): its email's time, its reminders, and the reminders to its
 * customer since a day before `now`.
 */
export async function reminderContext(
  db: Executor,
  invoice: Pick<RemindableInvoice, "id" | "merchant_id" | "vendor_email" | "sent_at">,
  now: Date,
): Promise<ReminderContext> {
  const reminders = await db
    .selectFrom("app.invoice_reminders")
    .select(["step", "sent_at"])
    .where("invoice_id", "=", invoice.id)
    .execute();
  const customer = await db
    .selectFrom("app.invoice_reminders")
    .select("sent_at")
    .where("merchant_id", "=", invoice.merchant_id)
    .where("customer", "=", customerOf(invoice.vendor_email))
    .where("sent_at", ">", new Date(now.getTime() - 86_400_000))
    .execute();
  return {
    invoiceSentAt: invoice.sent_at,
    reminders: reminders.map((r) => ({ step: r.step, sentAt: r.sent_at })),
    customerReminders: customer.map((r) => r.sent_at),
  };
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
    merchantId: string;
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
      merchant_id: reminder.merchantId,
      customer: customerOf(reminder.recipient),
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
      ...queuedEmail({
        kind: "vendor_reminder",
        invoiceId: reminder.invoiceId,
        recipient: reminder.recipient,
      }),
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

/** Every reminder of an invoice, oldest first (the invoice's timeline). */
export async function listReminders(db: Executor, invoiceId: string) {
  return db
    .selectFrom("app.invoice_reminders")
    .select(["id", "step", "amount_due", "sent_at", "created_at", "email_id"])
    .where("invoice_id", "=", invoiceId)
    .orderBy("created_at")
    .execute();
}

import { sql } from "kysely";
import type { RefundStatus, StoredInvoiceStatus } from "../../domain/statuses.ts";
import type { Executor } from "../database.ts";
import type { LinkRow } from "./links.ts";

/**
 * What the dashboard reads beyond the API's own queries: its overview's facts, its settings,
 * and an invoice's emails and audit entries. Its lists are the API's (invoiceLists.ts,
 * linkLists.ts, paymentLists.ts).
 */

export type MerchantSettings = {
  default_name: string | null;
  default_address: string | null;
  notification_email: string | null;
};

const NO_SETTINGS: MerchantSettings = {
  default_name: null,
  default_address: null,
  notification_email: null,
};

export async function findMerchantSettings(
  db: Executor,
  merchantId: string,
): Promise<MerchantSettings> {
  const row = await db
    .selectFrom("app.merchant_settings")
    .select(["default_name", "default_address", "notification_email"])
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  return row ?? NO_SETTINGS;
}

export async function saveMerchantSettings(
  db: Executor,
  merchantId: string,
  settings: MerchantSettings,
): Promise<void> {
  await db
    .insertInto("app.merchant_settings")
    .values({ merchant_id: merchantId, ...settings })
    .onConflict((oc) =>
      oc.column("merchant_id").doUpdateSet({ ...settings, updated_at: sql<Date>`now()` }),
    )
    .execute();
}

/** Where the merchant of `email` wants its payment notices: its notification email, or `email`. */
export async function notificationRecipient(db: Executor, email: string): Promise<string> {
  const row = await db
    .selectFrom("app.merchant_settings as s")
    .innerJoin("app.merchants as m", "m.id", "s.merchant_id")
    .select("s.notification_email")
    .where("m.email", "=", email.toLowerCase())
    .executeTakeFirst();
  return row?.notification_email ?? email;
}

/** The rows the overview's figures are computed from, by domain/moneyRules.ts. */
export type OverviewFacts = {
  /** Every counted payment's amount with a block time on or after the month's start. */
  receivedThisMonth: bigint;
  /** The refunds confirmed on or after the month's start (status and amount). */
  refundsThisMonth: { status: RefundStatus; amount: bigint }[];
  /** The invoices that may still owe something (total above what they received). */
  openInvoices: { status: StoredInvoiceStatus; total: bigint; received: bigint; dueDate: string }[];
};

/**
 * What the overview of one merchant is computed from: the month's payments (app.payments, as
 * the API's payment list), the month's confirmed refunds, and the invoices that may owe
 * something; `monthStart` is the first moment of the month (UTC).
 */
export async function merchantOverviewFacts(
  db: Executor,
  merchantId: string,
  monthStart: Date,
): Promise<OverviewFacts> {
  const [received, refunds, invoices] = await Promise.all([
    db
      .selectFrom("app.payments")
      .select((eb) => eb.fn.coalesce(eb.fn.sum<bigint>("amount"), eb.val(0n)).as("total"))
      .where("merchant_id", "=", merchantId)
      .where("block_time", ">=", monthStart)
      .executeTakeFirst(),
    db
      .selectFrom("app.refunds")
      .select(["status", "amount"])
      .where("merchant_id", "=", merchantId)
      .where("confirmed_at", ">=", monthStart)
      .execute(),
    db
      .selectFrom("app.invoices as i")
      .leftJoin("app.payment_state as p", "p.deposit_address", "i.deposit_address")
      .select(["i.status", "i.total_amount", "i.due_date"])
      .select(sql<bigint>`coalesce(p.received, 0)::bigint`.as("received"))
      .where("i.merchant_id", "=", merchantId)
      // Only a prefilter: whatever is due is at most the total less what arrived.
      .where(sql<boolean>`i.total_amount > coalesce(p.received, 0)`)
      .execute(),
  ]);
  return {
    receivedThisMonth: BigInt(received?.total ?? 0n),
    refundsThisMonth: refunds,
    openInvoices: invoices.map((i) => ({
      status: i.status,
      total: i.total_amount,
      received: i.received,
      dueDate: i.due_date,
    })),
  };
}

/** The merchant's link `slug`, or undefined (another merchant's too). */
export async function findMerchantLink(
  db: Executor,
  merchantId: string,
  slug: string,
): Promise<LinkRow | undefined> {
  return db
    .selectFrom("app.payment_links")
    .selectAll()
    .where("slug", "=", slug)
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
}

/** The emails about an invoice (to the vendor, payment notices, sweep failures), oldest first. */
export async function findInvoiceEmails(db: Executor, invoiceId: string) {
  return db
    .selectFrom("app.emails")
    .select([
      "id",
      "kind",
      "recipient",
      "status",
      "attempts",
      "sent_at",
      "last_error",
      "created_at",
    ])
    .where("invoice_id", "=", invoiceId)
    .orderBy("created_at")
    .execute();
}

/** The invoice's audit entries (created, sent, redeliveries…), oldest first. */
export async function findInvoiceAudit(db: Executor, merchantId: string, invoiceId: string) {
  return db
    .selectFrom("app.audit_log")
    .select(["id", "actor", "action", "target", "created_at"])
    .where("merchant_id", "=", merchantId)
    .where("target", "=", invoiceId)
    .orderBy("id")
    .execute();
}

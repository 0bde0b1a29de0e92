import { type ExpressionBuilder, sql } from "kysely";
import { type OpenInvoiceFigures, receivedInOwnUnit } from "../../domain/moneyRules.ts";
import type { RefundStatus } from "../../domain/statuses.ts";
import type { Database, Executor } from "../database.ts";
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
): Promise<MerchantSettings & { pending_notification_email: string | null }> {
  const row = await db
    .selectFrom("app.merchant_settings")
    .select(["default_name", "default_address", "notification_email"])
    // Only while its link still works: an expired one is as good as none.
    .select(
      sql<
        string | null
      >`case when pending_expires_at > now() then pending_notification_email end`.as(
        "pending_notification_email",
      ),
    )
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  return row ?? { ...NO_SETTINGS, pending_notification_email: null };
}

/** Saves the three settings; a pending notification email is left as it is. */
export async function saveMerchantSettings(
  db: Executor,
  merchantId: string,
  settings: MerchantSettings,
): Promise<void> {
  const values = {
    default_name: settings.default_name,
    default_address: settings.default_address,
    notification_email: settings.notification_email,
  };
  await db
    .insertInto("app.merchant_settings")
    .values({ merchant_id: merchantId, ...values })
    .onConflict((oc) =>
      oc.column("merchant_id").doUpdateSet({ ...values, updated_at: sql<Date>`now()` }),
    )
    .execute();
}

/**
 * Sets (or with null, clears) the notification email waiting for its link to be followed: its
 * token's hash, valid for `ttlMinutes`. A newer one replaces it, and its link stops working.
 */
export async function setPendingNotificationEmail(
  db: Executor,
  merchantId: string,
  pending: { email: string; tokenHash: string; ttlMinutes: number } | null,
): Promise<void> {
  await db
    .updateTable("app.merchant_settings")
    .set({
      pending_notification_email: pending?.email ?? null,
      pending_token_hash: pending?.tokenHash ?? null,
      pending_expires_at: pending
        ? sql<Date>`now() + make_interval(mins => ${pending.ttlMinutes})`
        : null,
    })
    .where("merchant_id", "=", merchantId)
    .execute();
}

/** The settings whose pending notification email's link has the token hash `tokenHash`, while it works. */
const pendingEmailLink =
  (tokenHash: string) => (eb: ExpressionBuilder<Database, "app.merchant_settings">) =>
    eb.and([
      eb("pending_token_hash", "=", tokenHash),
      eb("pending_expires_at", ">", sql<Date>`now()`),
    ]);

/** Whether the hash names a pending notification email whose link still works (consumes nothing). */
export async function isNotificationEmailTokenUsable(
  db: Executor,
  tokenHash: string,
): Promise<boolean> {
  const row = await db
    .selectFrom("app.merchant_settings")
    .select("merchant_id")
    .where(pendingEmailLink(tokenHash))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Follows a notification email's link once: the pending address becomes the notification
 * email. Answers the merchant and the change, or undefined when the token is unknown, expired,
 * used or replaced.
 */
export async function confirmNotificationEmail(
  db: Executor,
  tokenHash: string,
): Promise<{ merchantId: string; from: string | null; to: string } | undefined> {
  const row = await db
    .selectFrom("app.merchant_settings")
    .select(["merchant_id", "notification_email", "pending_notification_email"])
    .where(pendingEmailLink(tokenHash))
    .forUpdate()
    .executeTakeFirst();
  if (!row?.pending_notification_email) return undefined;
  await db
    .updateTable("app.merchant_settings")
    .set({
      notification_email: row.pending_notification_email,
      pending_notification_email: null,
      pending_token_hash: null,
      pending_expires_at: null,
      updated_at: sql<Date>`now()`,
    })
    .where("merchant_id", "=", row.merchant_id)
    .execute();
  return {
    merchantId: row.merchant_id,
    from: row.notification_email,
    to: row.pending_notification_email,
  };
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
  /** Every counted payment's amount (USDC) with a block time on or after the month's start. */
  receivedThisMonth: bigint;
  /** The refunds confirmed on or after the month's start (status and amount, USDC). */
  refundsThisMonth: { status: RefundStatus; amount: bigint }[];
  /**
   * The invoices that may still owe something (total above what they received), each with its
   * currency and what it received in it.
   */
  openInvoices: OpenInvoiceFigures[];
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
      .select(["i.status", "i.currency", "i.total_amount", "i.credited_amount", "i.due_date"])
      .select(sql<bigint>`coalesce(p.received, 0)::bigint`.as("received"))
      .select("p.received_in_currency")
      .where("i.merchant_id", "=", merchantId)
      // Only a prefilter: whatever is due is at most what is invoiced less what arrived, both in
      // the invoice's unit (domain/moneyRules.ts receivedInOwnUnit, restated here: USDC's
      // received, or the conversions' sum in its currency, none yet counting as 0).
      .where(
        sql<boolean>`i.total_amount - i.credited_amount > coalesce(case when i.currency = 'USDC' then p.received else p.received_in_currency end, 0)`,
      )
      .execute(),
  ]);
  return {
    receivedThisMonth: BigInt(received?.total ?? 0n),
    refundsThisMonth: refunds,
    openInvoices: invoices.map((i) => ({
      status: i.status,
      currency: i.currency,
      total: i.total_amount,
      credited: i.credited_amount,
      received: receivedInOwnUnit(i.currency, {
        received: i.received,
        receivedInCurrency: i.received_in_currency,
      }),
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

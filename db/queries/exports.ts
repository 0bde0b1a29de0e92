import { type RawBuilder, sql } from "kysely";
import type { Currency } from "../../domain/currencies.ts";
import type { ListKey } from "../../domain/listCursor.ts";
import type { Metadata } from "../../domain/metadata.ts";
import { COUNTED_REFUND_STATUS } from "../../domain/moneyRules.ts";
import type { StoredInvoiceStatus } from "../../domain/statuses.ts";
import type { TaxCategory } from "../../domain/tax.ts";
import type { Executor } from "../database.ts";
import { INVOICE_ORDER, merchantInvoices } from "./invoiceLists.ts";
import { keysetBatch, listMoment, pastKey } from "./listPage.ts";

/** The moments an export covers: from (inclusive) to before (exclusive); either may be open. */
export type ExportRange = { from?: Date; before?: Date };

/** One line item of an invoice, with its invoice's fields: a row of the invoices export. */
export type InvoiceExportRow = {
  id: string;
  invoice_number: string;
  status: StoredInvoiceStatus;
  issue_date: string;
  due_date: string;
  created_at: Date;
  sent_at: Date | null;
  vendor_name: string;
  vendor_email: string;
  merchant_name_snapshot: string;
  /** What its amounts (total, lines, credited) are in (migration 0041). */
  currency: Currency;
  total_amount: bigint;
  /** What its credit notes took off (migration 0040). */
  credited_amount: bigint;
  /** The counted payments, in USDC. */
  received: bigint;
  /** Priced in a currency: their conversions' sum in it (null before any, or in USDC). */
  received_in_currency: bigint | null;
  /** What its confirmed refunds paid back, in USDC. */
  refunded: bigint;
  deposit_address: string;
  position: number;
  description: string;
  quantity: string;
  unit_price: bigint;
  line_total: bigint;
  list_at: string;
  /** The integrator's own keys (migration 0038); `{}` when none. */
  metadata: Metadata;
  /** The line's tax (migration 0039); both null on an invoice without tax. */
  tax_category: TaxCategory | null;
  tax_rate: string | null;
  /** The parties' tax fields, as given at creation; null when not given. */
  merchant_tax_id: string | null;
  vendor_tax_id: string | null;
  merchant_country: string | null;
  vendor_country: string | null;
  tax_exemption_reason: string | null;
};

/**
 * The line items of the next `invoices` invoices created in the range after `after`, oldest
 * first (created_at, id, then line position): one batch of the streamed export. The batch's
 * last row's invoice is where the next batch starts; an invoice is never split across batches.
 */
export async function invoiceExportBatch(
  db: Executor,
  merchantId: string,
  range: ExportRange,
  after: ListKey | null,
  invoices: number,
): Promise<InvoiceExportRow[]> {
  return db
    .with("page", (qb) => {
      let page = merchantInvoices(qb, merchantId).select([
        "i.merchant_name_snapshot",
        "i.merchant_tax_id",
        "i.vendor_tax_id",
        "i.merchant_country",
        "i.vendor_country",
        "i.tax_exemption_reason",
      ]);
      if (range.from) page = page.where("i.created_at", ">=", range.from);
      if (range.before) page = page.where("i.created_at", "<", range.before);
      return keysetBatch(page, INVOICE_ORDER, after, invoices);
    })
    .selectFrom("page")
    .innerJoin("app.invoice_line_items as li", "li.invoice_id", "page.id")
    .selectAll("page")
    .select([
      "li.position",
      "li.description",
      "li.quantity",
      "li.unit_price",
      "li.line_total",
      "li.tax_category",
      "li.tax_rate",
    ])
    .orderBy("page.created_at")
    .orderBy("page.id")
    .orderBy("li.position")
    .execute();
}

/**
 * One entry of the payments export: a counted payment, or a confirmed refund (money that left),
 * with what it was for. A payment's `at` is its block time; a refund's, when it was confirmed.
 */
export type PaymentExportRow = {
  /** Money in, money out, or a credit note (a document: no transaction, nothing moved). */
  entry: "payment" | "refund" | "credit_note";
  /** A payment's transfer id (tx hash and log index), or the refund's or credit note's id. */
  id: string;
  /** Null for a credit note. */
  tx_hash: string | null;
  /** A payment's; null for a refund. */
  log_index: number | null;
  payer: string | null;
  amount: bigint;
  block_number: bigint | null;
  at: Date;
  deposit_address: string;
  invoice_id: string | null;
  invoice_number: string | null;
  vendor_name: string | null;
  link_slug: string | null;
  link_description: string | null;
  /** A refund's source address (the deposit address or the merchant's managed wallet). */
  refund_from: string | null;
  refund_to: string | null;
  /** A credit note's number (CN-0001); null otherwise. */
  credit_note_number: string | null;
  /**
   * What its invoice or link is priced in: a credit note's `amount` is in it, a payment's and a
   * refund's are USDC whatever it is.
   */
  currency: Currency;
  list_at: string;
};

/**
 * The next `limit` entries (counted payments, confirmed refunds and credit notes) with a moment in the range
 * after `after`, oldest first (moment, then id as text): one batch of the streamed export.
 * Confirmed refunds only, the rule of domain/moneyRules.ts refundedAmount.
 */
export async function paymentExportBatch(
  db: Executor,
  merchantId: string,
  range: ExportRange,
  after: ListKey | null,
  limit: number,
): Promise<PaymentExportRow[]> {
  const inRange = (moment: string, id: RawBuilder<unknown>) => {
    const parts = [];
    if (range.from) parts.push(sql`${sql.ref(moment)} >= ${range.from}`);
    if (range.before) parts.push(sql`${sql.ref(moment)} < ${range.before}`);
    if (after) parts.push(pastKey({ moment, id, idType: "text" }, after, "asc"));
    return parts.length ? sql`and ${sql.join(parts, sql` and `)}` : sql``;
  };
  const { rows } = await sql<Omit<PaymentExportRow, "list_at"> & { list_at: string }>`
    select e.*, ${listMoment("e.at")} as list_at from (
      (select 'payment' as entry, p.id, p.tx_hash, p.log_index, p.payer, p.amount, p.block_number,
          p.block_time as at, p.deposit_address, p.invoice_id, i.invoice_number, i.vendor_name,
          l.slug as link_slug, l.description as link_description,
          null::text as refund_from, null::text as refund_to, null::text as credit_note_number,
          coalesce(i.currency, l.currency, 'USDC') as currency
        from app.payments p
        left join app.invoices i on i.id = p.invoice_id
        left join app.payment_links l on l.id = p.link_id
        where p.merchant_id = ${merchantId} ${inRange("p.block_time", sql.ref("p.id"))}
        order by p.block_time, p.id limit ${limit})
      union all
      (select 'refund', r.id::text, r.tx_hash, null, null, r.amount, null,
          r.confirmed_at, coalesce(i.deposit_address, l.deposit_address), r.invoice_id,
          i.invoice_number, i.vendor_name, l.slug, l.description, r.from_address, r.to_address,
          null, coalesce(i.currency, l.currency, 'USDC')
        from app.refunds r
        left join app.invoices i on i.id = r.invoice_id
        left join app.payment_links l on l.id = r.link_id
        where r.merchant_id = ${merchantId} and r.status = ${COUNTED_REFUND_STATUS}
          ${inRange("r.confirmed_at", sql`${sql.ref("r.id")}::text`)}
        order by r.confirmed_at, r.id::text limit ${limit})
      union all
      (select 'credit_note', c.id::text, null, null, null, c.total_amount, null, c.created_at,
          i.deposit_address, c.invoice_id, i.invoice_number, i.vendor_name, null, null, null, null,
          c.credit_note_number, i.currency
        from app.credit_notes c
        join app.invoices i on i.id = c.invoice_id
        where c.merchant_id = ${merchantId}
          ${inRange("c.created_at", sql`${sql.ref("c.id")}::text`)}
        order by c.created_at, c.id::text limit ${limit})
    ) e
    order by e.at, e.id limit ${limit}`.execute(db);
  return rows;
}

/** What an export's file is named after: the merchant's registered name, its invoices' default name, its email. */
export async function exportOwnerNames(
  db: Executor,
  merchantId: string,
): Promise<{ name: string | null; defaultName: string | null; email: string }> {
  const row = await db
    .selectFrom("app.merchants as m")
    .leftJoin("app.merchant_settings as s", "s.merchant_id", "m.id")
    .select(["m.name", "s.default_name", "m.email"])
    .where("m.id", "=", merchantId)
    .executeTakeFirstOrThrow();
  return { name: row.name, defaultName: row.default_name, email: row.email };
}

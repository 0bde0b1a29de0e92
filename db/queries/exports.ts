import { sql } from "kysely";
import type { ListKey } from "../../domain/listCursor.ts";
import type { StoredInvoiceStatus } from "../../domain/statuses.ts";
import type { Executor } from "../database.ts";
import { afterKey, listMoment } from "./listPage.ts";
import { merchantPayments } from "./paymentLists.ts";

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
  total_amount: bigint;
  received: bigint;
  deposit_address: string;
  position: number;
  description: string;
  quantity: string;
  unit_price: bigint;
  line_total: bigint;
  list_at: string;
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
      let page = qb
        .selectFrom("app.invoices as i")
        .leftJoin("app.payment_state as s", "s.deposit_address", "i.deposit_address")
        .select([
          "i.id",
          "i.invoice_number",
          "i.status",
          "i.issue_date",
          "i.due_date",
          "i.created_at",
          "i.sent_at",
          "i.vendor_name",
          "i.vendor_email",
          "i.merchant_name_snapshot",
          "i.total_amount",
          "i.deposit_address",
        ])
        .select((eb) => [
          eb.fn.coalesce("s.received", sql<bigint>`0::bigint`).as("received"),
          listMoment("i.created_at").as("list_at"),
        ])
        .where("i.merchant_id", "=", merchantId);
      if (range.from) page = page.where("i.created_at", ">=", range.from);
      if (range.before) page = page.where("i.created_at", "<", range.before);
      if (after) page = page.where(afterKey("i.created_at", "i.id", after, "uuid"));
      return page.orderBy("i.created_at").orderBy("i.id").limit(invoices);
    })
    .selectFrom("page")
    .innerJoin("app.invoice_line_items as li", "li.invoice_id", "page.id")
    .selectAll("page")
    .select(["li.position", "li.description", "li.quantity", "li.unit_price", "li.line_total"])
    .orderBy("page.created_at")
    .orderBy("page.id")
    .orderBy("li.position")
    .execute();
}

/** One counted payment with what it paid: a row of the payments export. */
export type PaymentExportRow = {
  id: string;
  tx_hash: string;
  log_index: number;
  payer: string;
  amount: bigint;
  block_number: bigint;
  block_time: Date;
  deposit_address: string;
  invoice_id: string | null;
  invoice_number: string | null;
  vendor_name: string | null;
  link_slug: string | null;
  link_description: string | null;
  list_at: string;
};

/** The next `limit` payments with a block time in the range after `after`, oldest first. */
export async function paymentExportBatch(
  db: Executor,
  merchantId: string,
  range: ExportRange,
  after: ListKey | null,
  limit: number,
): Promise<PaymentExportRow[]> {
  let query = merchantPayments(db, merchantId).select([
    "i.vendor_name",
    "l.description as link_description",
  ]);
  if (range.from) query = query.where("p.block_time", ">=", range.from);
  if (range.before) query = query.where("p.block_time", "<", range.before);
  if (after) query = query.where(afterKey("p.block_time", "p.id", after, "text"));
  return query.orderBy("p.block_time").orderBy("p.id").limit(limit).execute();
}

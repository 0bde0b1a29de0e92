import { sql } from "kysely";
import { OPEN_STORED_STATUSES, receivedInOwnUnit } from "../../domain/moneyRules.ts";
import type { ReceivableInvoice } from "../../domain/receivables.ts";
import type { Executor } from "../database.ts";

/**
 * The merchant's open invoices (sent or partly paid: a draft is owed by nobody yet; paid, excess
 * and void owe nothing), newest first, with what the reconcile job counted on each, in the
 * invoice's own unit (USDC, or its currency's conversions: receivedInOwnUnit).
 */
export async function openInvoicesOf(
  db: Executor,
  merchantId: string,
): Promise<ReceivableInvoice[]> {
  const rows = await db
    .selectFrom("app.invoices as i")
    .leftJoin("app.payment_state as s", "s.deposit_address", "i.deposit_address")
    .select([
      "i.status",
      "i.currency",
      "i.total_amount",
      "i.credited_amount",
      "i.due_date",
      "i.vendor_email",
      "i.vendor_name",
    ])
    .select((eb) => eb.fn.coalesce("s.received", sql<bigint>`0::bigint`).as("received"))
    .select("s.received_in_currency")
    .where("i.merchant_id", "=", merchantId)
    .where("i.status", "in", OPEN_STORED_STATUSES)
    .orderBy("i.created_at", "desc")
    .execute();
  return rows.map((row) => ({
    status: row.status,
    currency: row.currency,
    total: row.total_amount,
    credited: row.credited_amount,
    received: receivedInOwnUnit(row.currency, {
      received: row.received,
      receivedInCurrency: row.received_in_currency,
    }),
    dueDate: row.due_date,
    vendorEmail: row.vendor_email,
    vendorName: row.vendor_name,
  }));
}

import type { Transaction } from "kysely";
import { VOIDABLE_INVOICE_STATUSES } from "../../domain/invoiceStatus.ts";
import type { Database } from "../database.ts";
import { queuedEmail } from "./emails.ts";
import type { InvoiceRow } from "./invoices.ts";

/**
 * Voids an unpaid invoice (`draft` or `sent`; `overdue` is a `sent` or `draft` one past its due
 * date) and, when the vendor was emailed the invoice, queues the email telling them it is void,
 * atomically. Undefined when the invoice is in another status: paid in part or whole (a
 * reconcile that counted a payment holds the row first, so void and a payment never both win),
 * or void already.
 */
export async function markVoid(
  trx: Transaction<Database>,
  invoiceId: string,
): Promise<InvoiceRow | undefined> {
  const row = await trx
    .updateTable("app.invoices")
    .set({ status: "void", voided_at: new Date() })
    .where("id", "=", invoiceId)
    .where("status", "in", VOIDABLE_INVOICE_STATUSES)
    .returningAll()
    .executeTakeFirst();
  if (row?.sent_at)
    await trx
      .insertInto("app.emails")
      .values({
        ...queuedEmail({ kind: "invoice_void", invoiceId: row.id, recipient: row.vendor_email }),
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  return row;
}

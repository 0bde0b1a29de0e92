import type { Executor } from "../database.ts";
import { indexedTransfersTo } from "./indexer.ts";
import { findLineItems, type InvoiceRow } from "./invoices.ts";
import { loadPaymentState } from "./paymentEvents.ts";
import { listRefundsOf } from "./refunds.ts";
import { findSweepsOf } from "./sweeps.ts";

/**
 * Everything one invoice's detail shows besides its row and its PDF: its lines, what the
 * reconcile job derived, every indexed transfer to its deposit address, its sweeps and its
 * refunds. What `GET /api/invoices/{id}` and the dashboard's invoice page both read.
 */
export async function loadInvoiceDetails(
  db: Executor,
  indexerSchema: string,
  invoice: Pick<InvoiceRow, "id" | "deposit_address">,
) {
  const [lines, state, transfers, sweeps, refunds] = await Promise.all([
    findLineItems(db, invoice.id),
    loadPaymentState(db, invoice.deposit_address),
    indexedTransfersTo(db, indexerSchema, invoice.deposit_address),
    findSweepsOf(db, indexerSchema, invoice.deposit_address),
    listRefundsOf(db, { invoiceId: invoice.id }),
  ]);
  return { lines, state, transfers, sweeps, refunds };
}

import type { CreditNoteRow } from "../../db/queries/creditNotes.ts";
import type { InvoiceRow } from "../../db/queries/invoices.ts";
import type { PricedLineItem } from "../../domain/invoiceTotals.ts";
import type { InvoicePdfData } from "../../pdf/invoiceDocument.ts";
import { invoicePdfData } from "../invoices/invoicePdfData.ts";

/** The origins the credit note's PDF links back to. */
type Origins = { baseUrl: string; payUrl: string };

/** The credit note's public URL of its PDF (its merchant's key, like the invoice's). */
export const creditNotePdfUrl = (origins: Origins, id: string): string =>
  `${origins.baseUrl}/api/credit-notes/${id}/pdf`;

/**
 * What a credit note's PDF shows: the invoice's document (its parties, their tax IDs, its
 * layout) with the credit note's number, date, lines and totals, titled CREDIT NOTE, naming the
 * invoice and the reason, and no payment instructions. A function of the stored rows alone.
 */
export function creditNotePdfData(
  origins: Origins,
  invoice: InvoiceRow,
  note: CreditNoteRow,
  lines: readonly PricedLineItem[],
): InvoicePdfData {
  const data = invoicePdfData(
    {
      ...invoice,
      invoice_number: note.credit_note_number,
      issue_date: note.issue_date,
      created_at: note.created_at,
      total_amount: note.total_amount,
      notes: null,
    },
    lines,
    creditNotePdfUrl(origins, note.id),
  );
  return {
    ...data,
    creditNote: { creditsInvoice: invoice.invoice_number, reason: note.reason },
  };
}

import {
  type CreditNoteRow,
  findCreditNote,
  findCreditNoteLines,
  merchantCreditNotes,
} from "../../db/queries/creditNotes.ts";
import { findInvoice } from "../../db/queries/invoices.ts";
import type { Currency } from "../../domain/currencies.ts";
import { presentStoredLine, storedPricedLine } from "../../domain/invoiceTaxView.ts";
import { pricedTotals } from "../../domain/invoiceTotals.ts";
import { formatUsdc } from "../../domain/money.ts";
import type { Actor } from "../actor.ts";
import { authorizedInvoice, ownMerchantId } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import { type DocumentPdfDeps, storedDocumentPdf } from "../documentPdf.ts";
import type { InvoicePdf } from "../invoices/invoiceDetail.ts";
import {
  type EInvoiceFile,
  type EInvoiceFormat,
  eInvoiceFile,
  invoiceEInvoiceDocument,
} from "../invoices/invoiceEInvoice.ts";
import { notFound } from "../refusal.ts";
import { creditNotePdfUrl } from "./creditNotePdf.ts";
import type { CreditNote } from "./schema.ts";

/**
 * The credit note `id`, if the actor may see its invoice (authorizedInvoice: its own merchant's,
 * or in open mode an unclaimed merchant's, as the invoice's own detail); any other is a 404.
 */
async function authorizedCreditNote(
  deps: Pick<CoreDeps, "db">,
  actor: Actor,
  id: string,
): Promise<CreditNoteRow> {
  const note = await findCreditNote(deps.db, id);
  if (!note) throw notFound("credit note");
  try {
    await authorizedInvoice(deps.db, actor.identity, note.invoice_id);
  } catch (error) {
    if (error instanceof Error && "kind" in error && error.kind === "not_found")
      throw notFound("credit note");
    throw error;
  }
  return note;
}

/** `GET /api/credit-notes/{id}`. */
export async function creditNoteDetail(
  deps: DocumentPdfDeps,
  actor: Actor,
  id: string,
): Promise<CreditNote> {
  const note = await authorizedCreditNote(deps, actor, id);
  const invoice = await findInvoice(deps.db, note.invoice_id);
  const [presented] = await presentCreditNotes(deps, [
    {
      ...note,
      invoice_number: invoice?.invoice_number ?? "",
      currency: invoice?.currency ?? "USDC",
    },
  ]);
  if (!presented) throw notFound("credit note");
  return presented;
}

/**
 * `GET /api/credit-notes/{id}/pdf`: the bytes stored, rendered from its rows and stored first if
 * the worker has not yet (app/documentPdf.ts).
 */
export async function creditNotePdf(
  deps: DocumentPdfDeps,
  actor: Actor,
  id: string,
): Promise<InvoicePdf> {
  const note = await authorizedCreditNote(deps, actor, id);
  const pdf = await storedDocumentPdf(deps, "creditNote", note.id);
  if (!pdf) throw notFound("credit note");
  return {
    bytes: new Uint8Array(pdf.pdf),
    sha256: pdf.sha256,
    invoiceNumber: note.credit_note_number,
  };
}

/** `GET /api/credit-notes`: the merchant's newest 100 (one invoice's with `invoiceId`). */
export async function creditNoteList(
  deps: DocumentPdfDeps,
  actor: Actor,
  invoiceId: string | undefined,
): Promise<CreditNote[]> {
  const notes = await merchantCreditNotes(deps.db, ownMerchantId(actor.identity), {
    invoiceId,
    limit: 100,
  });
  return presentCreditNotes(deps, notes);
}

/** Credit notes as the API shows them, their lines and PDF hashes read in one query each. */
export async function presentCreditNotes(
  deps: DocumentPdfDeps,
  notes: readonly (CreditNoteRow & { invoice_number: string; currency: Currency })[],
): Promise<CreditNote[]> {
  const ids = notes.map((note) => note.id);
  const [lines, pdfs] = await Promise.all([
    findCreditNoteLines(deps.db, ids),
    Promise.all(ids.map((id) => storedDocumentPdf(deps, "creditNote", id))),
  ]);
  return notes.map((note, index) => {
    const own = lines.filter((line) => line.credit_note_id === note.id);
    const { tax } = pricedTotals(own.map(storedPricedLine));
    return {
      credit_note_id: note.id,
      credit_note_number: note.credit_note_number,
      invoice_id: note.invoice_id,
      invoice_number: note.invoice_number,
      reason: note.reason,
      full: note.credits_in_full,
      issue_date: note.issue_date,
      line_items: own.map(presentStoredLine),
      subtotal_amount: formatUsdc(note.subtotal_amount),
      tax_amount: formatUsdc(note.tax_amount),
      total_amount: formatUsdc(note.total_amount),
      ...(tax
        ? {
            tax_breakdown: tax.breakdown.map((row) => ({
              category: row.category,
              rate: row.rate?.text ?? null,
              taxable_amount: formatUsdc(row.taxableAmount),
              tax_amount: formatUsdc(row.taxAmount),
            })),
          }
        : {}),
      // Its invoice's: a credit note is in the unit of what it credits.
      currency: note.currency,
      pdf_url: creditNotePdfUrl(deps, note.id),
      pdf_sha256: pdfs[index]?.sha256 ?? "",
      created_at: note.created_at.toISOString(),
    };
  });
}

/**
 * The credit note `id` as an EN 16931 e-invoice (a UBL `CreditNote`, a CII of type 381, or its
 * PDF as Factur-X), for whoever may see its invoice; it names the invoice it corrects. Refused
 * as the invoice's own e-invoice is (409 with the fields the invoice lacks).
 */
export async function authorizedCreditNoteEInvoice(
  deps: DocumentPdfDeps,
  actor: Actor,
  id: string,
  format: EInvoiceFormat,
): Promise<EInvoiceFile> {
  const note = await authorizedCreditNote(deps, actor, id);
  const [invoice, lines] = await Promise.all([
    findInvoice(deps.db, note.invoice_id),
    findCreditNoteLines(deps.db, [note.id]),
  ]);
  if (!invoice) throw notFound("credit note");
  const built = invoiceEInvoiceDocument(invoice, lines, {
    number: note.credit_note_number,
    issueDate: note.issue_date,
    total: note.total_amount,
  });
  return eInvoiceFile(
    built,
    format,
    async () => (await storedDocumentPdf(deps, "creditNote", note.id))?.pdf,
  );
}

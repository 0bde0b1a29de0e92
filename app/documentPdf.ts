import { findCreditNote, findCreditNoteLines } from "../db/queries/creditNotes.ts";
import {
  type DocumentKind,
  findDocumentPdf,
  type StoredPdf,
  storePdfOnce,
} from "../db/queries/documentParts.ts";
import { findInvoice, findLineItems } from "../db/queries/invoices.ts";
import { storedPricedLine } from "../domain/invoiceTaxView.ts";
import { invoiceUrls } from "../domain/invoiceUrls.ts";
import { sha256Hex } from "../domain/sha256.ts";
import type { InvoicePdfData } from "../pdf/invoiceDocument.ts";
import { creditNotePdfData } from "./creditNotes/creditNotePdf.ts";
import type { CoreDeps } from "./deps.ts";
import { invoicePdfData } from "./invoices/invoicePdfData.ts";
import { renderPdfOrRefuse } from "./renderPdfOrRefuse.ts";

/** What a document's PDF is made and stored with: the render threads, the origins it links to. */
export type DocumentPdfDeps = Pick<CoreDeps, "db" | "pdf" | "baseUrl" | "payUrl">;

export type { DocumentKind, StoredPdf };

/**
 * The PDF of the document `id` (an invoice, a credit note) as stored; if none is stored yet, its
 * stored record rendered and stored first. Undefined for no such document.
 *
 * A document is created without its PDF (no render on the request path); the worker's
 * render_pdf job, queued in the creating transaction, stores it moments later. Whoever needs it
 * before (a download, the vendor's email) renders the same record with the same code and fonts,
 * so the same bytes, and stores them: the first render to commit is the document's PDF for
 * good (storePdfOnce; the table is append-only), every other reader gets those bytes.
 */
export async function storedDocumentPdf(
  deps: DocumentPdfDeps,
  kind: DocumentKind,
  id: string,
): Promise<StoredPdf | undefined> {
  const stored = await findDocumentPdf(deps.db, kind, id);
  if (stored) return stored;
  const pdf = await renderStoredDocument(deps, kind, id);
  if (!pdf) return undefined;
  return storePdfOnce(deps.db, kind, id, { pdf, sha256: sha256Hex(pdf) });
}

/**
 * The stored document `id` rendered (undefined: no such document): a function of its stored
 * rows alone, the same bytes whoever renders it, whenever.
 */
export async function renderStoredDocument(
  deps: DocumentPdfDeps,
  kind: DocumentKind,
  id: string,
): Promise<Buffer | undefined> {
  const data =
    kind === "invoice" ? await storedInvoiceData(deps, id) : await storedCreditNoteData(deps, id);
  return data && renderPdfOrRefuse(deps.pdf, data);
}

/** What the stored invoice's PDF shows (invoicePdfData of its row and lines). */
async function storedInvoiceData(
  deps: DocumentPdfDeps,
  id: string,
): Promise<InvoicePdfData | undefined> {
  const [invoice, lines] = await Promise.all([
    findInvoice(deps.db, id),
    findLineItems(deps.db, id),
  ]);
  if (!invoice) return undefined;
  const { invoice_url } = invoiceUrls(deps, invoice.id, invoice.slug);
  return invoicePdfData(invoice, lines.map(storedPricedLine), invoice_url);
}

/** What the stored credit note's PDF shows (creditNotePdfData of its rows and its invoice's). */
async function storedCreditNoteData(
  deps: DocumentPdfDeps,
  id: string,
): Promise<InvoicePdfData | undefined> {
  const [note, lines] = await Promise.all([
    findCreditNote(deps.db, id),
    findCreditNoteLines(deps.db, [id]),
  ]);
  const invoice = note && (await findInvoice(deps.db, note.invoice_id));
  if (!note || !invoice) return undefined;
  return creditNotePdfData(deps, invoice, note, lines.map(storedPricedLine));
}

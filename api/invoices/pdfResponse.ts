import type { Context } from "hono";
import type { Executor } from "../../db/database.ts";
import { findPdf, type InvoiceRow } from "../../db/queries/invoices.ts";
import { notFound } from "../errors.ts";

/** The invoice's stored PDF as a download: the same bytes forever, cached by their hash. */
export async function pdfResponse(c: Context, db: Executor, invoice: InvoiceRow) {
  const pdf = await findPdf(db, invoice.id);
  if (!pdf) throw notFound("invoice");
  return c.body(new Uint8Array(pdf.pdf), 200, {
    "Content-Type": "application/pdf",
    "Content-Disposition": `inline; filename="${invoice.invoice_number}.pdf"`,
    "Content-Length": String(pdf.pdf.length),
    // The bytes never change: cache them for good, keyed by their hash.
    ETag: `"${pdf.sha256}"`,
    "Cache-Control": "private, max-age=31536000, immutable",
  });
}

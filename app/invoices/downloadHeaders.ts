import type { InvoicePdf } from "./invoiceDetail.ts";
import type { EInvoiceFile } from "./invoiceEInvoice.ts";

/**
 * The response headers of a stored PDF's download (an invoice's or a credit note's), the same
 * from the API and the dashboard: shown inline under its number, and cached for good by its
 * hash, as the bytes never change.
 */
export const pdfDownloadHeaders = (pdf: InvoicePdf): Record<string, string> => ({
  "Content-Type": "application/pdf",
  "Content-Disposition": `inline; filename="${pdf.invoiceNumber}.pdf"`,
  "Content-Length": String(pdf.bytes.length),
  ETag: `"${pdf.sha256}"`,
  "Cache-Control": "private, max-age=31536000, immutable",
});

/**
 * The response headers of an e-invoice file's download, the same from the API and the
 * dashboard: an attachment under its own name, made anew on each request from the stored record
 * (which never changes), so not cached.
 */
export const eInvoiceDownloadHeaders = (file: EInvoiceFile): Record<string, string> => ({
  "Content-Type": file.contentType,
  "Content-Disposition": `attachment; filename="${file.fileName}"`,
  "Content-Length": String(file.bytes.byteLength),
  "Cache-Control": "private, no-cache",
});

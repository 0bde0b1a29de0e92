import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { InvoicePdf } from "../../app/invoices/invoiceDetail.ts";

/** The invoice's stored PDF as a download: the same bytes forever, cached by their hash. */
export function pdfResponse(c: Context, pdf: InvoicePdf) {
  return c.body(pdf.bytes, 200, {
    "Content-Type": "application/pdf",
    "Content-Disposition": `inline; filename="${pdf.invoiceNumber}.pdf"`,
    "Content-Length": String(pdf.bytes.length),
    // The bytes never change: cache them for good, keyed by their hash.
    ETag: `"${pdf.sha256}"`,
    "Cache-Control": "private, max-age=31536000, immutable",
  });
}

/** The 200 of a stored PDF's download (pdfResponse), for the OpenAPI document. */
export const pdfDownload = {
  description: "The PDF",
  content: { "application/pdf": { schema: z.string().openapi({ format: "binary" }) } },
};

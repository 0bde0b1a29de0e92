import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { pdfDownloadHeaders } from "../../app/invoices/downloadHeaders.ts";
import type { InvoicePdf } from "../../app/invoices/invoiceDetail.ts";

/** The invoice's stored PDF as a download: the same bytes forever, cached by their hash. */
export function pdfResponse(c: Context, pdf: InvoicePdf) {
  return c.body(pdf.bytes, 200, pdfDownloadHeaders(pdf));
}

/** The 200 of a stored PDF's download (pdfResponse), for the OpenAPI document. */
export const pdfDownload = {
  description: "The PDF",
  content: { "application/pdf": { schema: z.string().openapi({ format: "binary" }) } },
};

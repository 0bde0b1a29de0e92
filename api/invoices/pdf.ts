import { createRoute, z } from "@hono/zod-openapi";
import { findPdf } from "../../db/queries/invoices.ts";
import type { AppDeps } from "../deps.ts";
import { notFound } from "../errors.ts";
import { errorResponses, type Router } from "../openapi.ts";
import { requireInvoice } from "./requireInvoice.ts";
import { InvoiceIdParamSchema } from "./schema.ts";

const route = createRoute({
  method: "get",
  path: "/api/invoices/{id}/pdf",
  tags: ["Invoices"],
  summary: "Download the invoice PDF",
  description: "The PDF rendered at creation: byte-identical to the one emailed, forever.",
  request: { params: InvoiceIdParamSchema },
  responses: {
    200: {
      description: "The PDF",
      content: { "application/pdf": { schema: z.string().openapi({ format: "binary" }) } },
    },
    ...errorResponses(404),
  },
});

export function registerInvoicePdf(app: Router, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const invoice = await requireInvoice(deps.db, c.req.valid("param").id);
    const pdf = await findPdf(deps.db, invoice.id);
    if (!pdf) throw notFound("invoice");
    return c.body(new Uint8Array(pdf.pdf), 200, {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${invoice.invoice_number}.pdf"`,
      "Content-Length": String(pdf.pdf.length),
      // The bytes never change: cache them for good, keyed by their hash.
      ETag: `"${pdf.sha256}"`,
      "Cache-Control": "private, max-age=31536000, immutable",
    });
  });
}

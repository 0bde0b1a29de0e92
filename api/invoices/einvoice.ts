import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { eInvoiceDownloadHeaders } from "../../app/invoices/downloadHeaders.ts";
import {
  authorizedInvoiceEInvoice,
  EINVOICE_FORMATS,
  type EInvoiceFile,
} from "../../app/invoices/invoiceEInvoice.ts";
import { InvoiceIdParamSchema } from "../../app/invoices/schema.ts";
import { actorOf } from "../auth/identity.ts";
import type { AppDeps } from "../deps.ts";
import { errorResponses, keyRoute, type Router } from "../openapi.ts";

/** `?format=`: shared with the credit notes' e-invoice route. */
export const EInvoiceQuerySchema = z.object({
  format: z.enum(EINVOICE_FORMATS).openapi({
    param: { name: "format", in: "query" },
    example: "ubl",
    description:
      "`ubl`: UBL 2.1 Invoice, Peppol BIS Billing 3.0. `cii`: UN/CEFACT Cross Industry Invoice. `facturx`: the invoice's PDF as Factur-X (PDF/A-3, profile EN 16931, the CII embedded as `factur-x.xml`).",
  }),
});

/**
 * The responses of an e-invoice download, an invoice's or a credit note's: the file (XML or a
 * PDF, `fileName` the example its `Content-Disposition` gives), a bad `?format=` (400), no key,
 * another merchant's record (404), or a record EN 16931 cannot be written from (409).
 */
export const eInvoiceResponses = (fileName: string) => ({
  200: {
    description: `The e-invoice (\`Content-Disposition\` names it, e.g. \`${fileName}\`)`,
    content: {
      "application/xml": { schema: z.string() },
      "application/pdf": { schema: z.string().openapi({ format: "binary" }) },
    },
  },
  ...errorResponses(400, 401, 404, 409),
});

const route = keyRoute({
  method: "get",
  path: "/api/invoices/{id}/einvoice",
  tags: ["Invoices"],
  summary: "Download the invoice as an EN 16931 e-invoice",
  description:
    "The invoice as an accountant imports it: UBL (Peppol BIS Billing 3.0), CII, or Factur-X, each conforming to EN 16931 and written in the invoice's currency (an invoice priced in USDC in USD: ISO 4217 has no USDC, and 1 USDC settles 1 USD), with the deposit address as the payment account. Its amounts are the invoice's, per line, per tax category and in total. An invoice that lacks what EN 16931 requires (both parties' countries, a tax category on every line, the VAT identifiers its categories need; for UBL, Peppol VAT identifiers of both parties) is answered 409 `einvoice_fields_missing`, `error.fields` naming each field to add. Access as for the invoice and its PDF.",
  request: { params: InvoiceIdParamSchema, query: EInvoiceQuerySchema },
  responses: eInvoiceResponses("INV-0001-ubl.xml"),
});

/** `GET /api/invoices/{id}/einvoice?format=ubl|cii|facturx`. */
export function registerInvoiceEInvoice(app: Router, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { format } = c.req.valid("query");
    return eInvoiceResponse(c, await authorizedInvoiceEInvoice(deps, actorOf(c), id, format));
  });
}

/** An e-invoice file as a download. */
export function eInvoiceResponse(c: Context, file: EInvoiceFile) {
  return c.body(new Uint8Array(file.bytes), 200, eInvoiceDownloadHeaders(file));
}

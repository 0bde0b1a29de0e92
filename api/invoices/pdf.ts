import { createRoute, z } from "@hono/zod-openapi";
import { authorizedInvoicePdf, invoicePdfBySlug } from "../../app/invoices/invoiceDetail.ts";
import { InvoiceIdParamSchema } from "../../app/invoices/schema.ts";
import { actorOf } from "../auth/identity.ts";
import type { AppDeps } from "../deps.ts";
import { errorResponses, keyRoute, pathParam, type Router } from "../openapi.ts";
import { pdfDownload, pdfResponse } from "./pdfResponse.ts";

const route = keyRoute({
  method: "get",
  path: "/api/invoices/{id}/pdf",
  tags: ["Invoices"],
  summary: "Download the invoice PDF",
  description:
    "The invoice's PDF, rendered once from its stored record (by the worker after creation, or by the first download if it comes first): byte-identical to the one emailed, forever. Behind the merchant's key like the invoice itself; vendors download it by slug.",
  request: { params: InvoiceIdParamSchema },
  responses: { 200: pdfDownload, ...errorResponses(401, 404) },
});

const bySlugRoute = createRoute({
  method: "get",
  path: "/api/invoices/by-slug/{slug}/pdf",
  tags: ["Invoices"],
  summary: "Download the invoice PDF by its slug (no authentication)",
  description:
    "The same PDF, for the vendor: addressed by the slug of the hosted invoice page (which links here), so the page never reveals the invoice's id.",
  request: {
    params: z.object({
      slug: pathParam(
        "slug",
        "7Hq3xKp2MwZa",
        "The invoice's `slug` (its hosted page is `{PAY_URL}/i/{slug}`).",
      ),
    }),
  },
  responses: { 200: pdfDownload, ...errorResponses(404, 429) },
});

export function registerInvoicePdf(app: Router, deps: AppDeps): void {
  app.openapi(route, async (c) =>
    pdfResponse(c, await authorizedInvoicePdf(deps, actorOf(c), c.req.valid("param").id)),
  );
  app.openapi(bySlugRoute, async (c) =>
    pdfResponse(c, await invoicePdfBySlug(deps, c.req.valid("param").slug)),
  );
}

import { createRoute } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { errorResponses, jsonResponse, type Router } from "../openapi.ts";
import { invoiceBody } from "./present.ts";
import { requireInvoice } from "./requireInvoice.ts";
import { InvoiceIdParamSchema, InvoiceSchema } from "./schema.ts";

const route = createRoute({
  method: "get",
  path: "/api/invoices/{id}",
  tags: ["Invoices"],
  summary: "Get an invoice",
  description:
    "Every stored field, line items with their totals, the derived status and the payments received. Never the webhook secret.",
  request: { params: InvoiceIdParamSchema },
  responses: {
    200: jsonResponse("The invoice", InvoiceSchema),
    ...errorResponses(404),
  },
});

export function registerGetInvoice(app: Router, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const invoice = await requireInvoice(deps.db, c.req.valid("param").id);
    return c.json(await invoiceBody(deps, invoice), 200);
  });
}

import { createRoute } from "@hono/zod-openapi";
import { findInvoice } from "../../db/queries/invoices.ts";
import type { AppDeps } from "../deps.ts";
import { notFound } from "../errors.ts";
import { errorResponses, type Router } from "../openapi.ts";
import { invoiceBody } from "./present.ts";
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
    200: { description: "The invoice", content: { "application/json": { schema: InvoiceSchema } } },
    ...errorResponses(404),
  },
});

export function registerGetInvoice(app: Router, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const invoice = await findInvoice(deps.db, c.req.valid("param").id);
    if (!invoice) throw notFound("invoice");
    return c.json(await invoiceBody(deps, invoice), 200);
  });
}

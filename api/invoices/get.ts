import { createRoute } from "@hono/zod-openapi";
import { authorizedInvoice } from "../../app/authorize.ts";
import { InvoiceIdParamSchema, InvoiceSchema } from "../../app/invoices/schema.ts";
import { identityOf } from "../auth/identity.ts";
import type { AppDeps } from "../deps.ts";
import { errorResponses, jsonResponse, type Router } from "../openapi.ts";
import { invoiceBody } from "./present.ts";

const route = createRoute({
  method: "get",
  path: "/api/invoices/{id}",
  tags: ["Invoices"],
  summary: "Get an invoice",
  security: [{ bearerAuth: [] }],
  description:
    "Every stored field, line items with their totals, the derived status and the payments received. Never the webhook secret.",
  request: { params: InvoiceIdParamSchema },
  responses: {
    200: jsonResponse("The invoice", InvoiceSchema),
    ...errorResponses(401, 404),
  },
});

export function registerGetInvoice(app: Router, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const invoice = await authorizedInvoice(deps.db, identityOf(c), c.req.valid("param").id);
    return c.json(await invoiceBody(deps, invoice), 200);
  });
}

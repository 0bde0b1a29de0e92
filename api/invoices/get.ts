import { createRoute } from "@hono/zod-openapi";
import { InvoiceIdParamSchema, InvoiceSchema } from "../../app/invoices/schema.ts";
import { actorOf } from "../auth/identity.ts";
import type { AppDeps } from "../deps.ts";
import { errorResponses, jsonResponse, keySecurity, type Router } from "../openapi.ts";
import { authorizedInvoiceBody } from "./present.ts";

const route = createRoute({
  method: "get",
  path: "/api/invoices/{id}",
  tags: ["Invoices"],
  summary: "Get an invoice",
  security: keySecurity,
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
    const id = c.req.valid("param").id;
    return c.json(await authorizedInvoiceBody(deps, actorOf(c), id), 200);
  });
}

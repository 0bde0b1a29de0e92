import { createRoute } from "@hono/zod-openapi";
import { InvoiceIdParamSchema, InvoiceSchema } from "../../app/invoices/schema.ts";
import { voidInvoice } from "../../app/invoices/voidInvoice.ts";
import { actorOf } from "../auth/identity.ts";
import type { AppDeps } from "../deps.ts";
import { errorResponses, jsonResponse, keySecurity, type Router } from "../openapi.ts";
import { invoiceBody } from "./present.ts";

const route = createRoute({
  method: "post",
  path: "/api/invoices/{id}/void",
  tags: ["Invoices"],
  summary: "Void an unpaid invoice",
  security: keySecurity,
  description:
    "Cancels an invoice nothing was paid on (`draft`, `sent` or `overdue`): its stored status becomes `void` (an addition to spec §3.1), the hosted page says so and offers no way to pay, and a vendor who was emailed the invoice is emailed that it is void. " +
    "Any other status is a 409 `invoice_not_voidable`; a relayed payment (gasless or x402) accepted and not yet counted is a 409 `payment_in_progress` (void once it has settled or failed). A payment that still reaches the deposit address changes no status: it is recorded as an unexpected payment (`invoice.unexpected_payment` to the webhook_url, an email to you) and held for refund (`POST /api/invoices/{id}/refunds`).",
  request: { params: InvoiceIdParamSchema },
  responses: {
    200: jsonResponse("The void invoice", InvoiceSchema),
    ...errorResponses(401, 403, 404, 409),
  },
});

export function registerVoidInvoice(app: Router, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const voided = await voidInvoice(deps, actorOf(c), c.req.valid("param").id);
    return c.json(await invoiceBody(deps, voided), 200);
  });
}

import { createRoute } from "@hono/zod-openapi";
import { InvoiceIdParamSchema, InvoiceSchema } from "../../app/invoices/schema.ts";
import { sendInvoice } from "../../app/invoices/sendInvoice.ts";
import { actorOf } from "../auth/identity.ts";
import type { AppDeps } from "../deps.ts";
import { errorResponses, jsonResponse, keySecurity, type Router } from "../openapi.ts";
import { invoiceBody } from "./present.ts";

const route = createRoute({
  method: "post",
  path: "/api/invoices/{id}/send",
  tags: ["Invoices"],
  summary: "Send a draft invoice to the vendor",
  security: keySecurity,
  description:
    "Emails the vendor (hosted-invoice link, PDF attached) and moves a `draft` to `sent`. " +
    "Only drafts can be sent: any other status is a 409 (an invoice is emailed once; share `invoice_url` to remind).",
  request: { params: InvoiceIdParamSchema },
  responses: {
    200: jsonResponse("The updated invoice", InvoiceSchema),
    ...errorResponses(401, 403, 404, 409),
  },
});

export function registerSendInvoice(app: Router, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const id = c.req.valid("param").id;
    const sent = await sendInvoice(deps, actorOf(c), id);
    return c.json(await invoiceBody(deps, sent), 200);
  });
}

import { createRoute } from "@hono/zod-openapi";
import { authorizedInvoice } from "../../app/authorize.ts";
import { InvoiceIdParamSchema, InvoiceSchema } from "../../app/invoices/schema.ts";
import { recordAudit } from "../../db/queries/audit.ts";
import { findInvoice, markSent } from "../../db/queries/invoices.ts";
import { actorOf, auditActor } from "../auth/identity.ts";
import type { AppDeps } from "../deps.ts";
import { ApiError } from "../errors.ts";
import { errorResponses, jsonResponse, type Router } from "../openapi.ts";
import { invoiceBody } from "./present.ts";

const route = createRoute({
  method: "post",
  path: "/api/invoices/{id}/send",
  tags: ["Invoices"],
  summary: "Send a draft invoice to the vendor",
  security: [{ bearerAuth: [] }],
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
    const actor = actorOf(c);
    const invoice = await authorizedInvoice(deps.db, actor.identity, id);
    const sent = await deps.db.transaction().execute(async (trx) => {
      const updated = await markSent(trx, invoice.id);
      if (updated)
        await recordAudit(trx, {
          merchantId: invoice.merchant_id,
          ...auditActor(actor.identity),
          action: "invoice.sent",
          target: invoice.id,
          requestId: actor.requestId,
        });
      return updated;
    });
    if (!sent) {
      const current = (await findInvoice(deps.db, id))?.status ?? invoice.status;
      throw new ApiError(
        409,
        "invoice_not_draft",
        `only a draft can be sent; this invoice is ${current}`,
      );
    }
    deps.log.info("invoice sent", { invoice_id: invoice.id });
    return c.json(await invoiceBody(deps, sent), 200);
  });
}

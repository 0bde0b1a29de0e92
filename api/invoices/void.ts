import { createRoute } from "@hono/zod-openapi";
import { recordAudit } from "../../db/queries/audit.ts";
import { findInvoice, type InvoiceRow } from "../../db/queries/invoices.ts";
import { markVoid } from "../../db/queries/voidInvoice.ts";
import { authorizedInvoice } from "../auth/authorize.ts";
import { type Actor, actorOf, auditActor } from "../auth/identity.ts";
import type { AppDeps } from "../deps.ts";
import { ApiError } from "../errors.ts";
import { errorResponses, jsonResponse, type Router } from "../openapi.ts";
import { invoiceBody } from "./present.ts";
import { InvoiceIdParamSchema, InvoiceSchema } from "./schema.ts";

const route = createRoute({
  method: "post",
  path: "/api/invoices/{id}/void",
  tags: ["Invoices"],
  summary: "Void an unpaid invoice",
  security: [{ bearerAuth: [] }],
  description:
    "Cancels an invoice nothing was paid on (`draft`, `sent` or `overdue`): its stored status becomes `void` (an addition to spec §3.1), the hosted page says so and offers no way to pay, and a vendor who was emailed the invoice is emailed that it is void. " +
    "Any other status is a 409 `invoice_not_voidable`. A payment that still reaches the deposit address changes no status: it is recorded as an unexpected payment (`invoice.unexpected_payment` to the webhook_url, an email to you) and held for refund (`POST /api/invoices/{id}/refunds`).",
  request: { params: InvoiceIdParamSchema },
  responses: {
    200: jsonResponse("The void invoice", InvoiceSchema),
    ...errorResponses(401, 403, 404, 409),
  },
});

/**
 * Voids the invoice `id` for `actor` (the API's route and the dashboard's button): the void
 * invoice, or a 409 `invoice_not_voidable` (404/403 as authorizedInvoice decides).
 */
export async function voidInvoice(deps: AppDeps, actor: Actor, id: string): Promise<InvoiceRow> {
  const invoice = await authorizedInvoice(deps.db, actor.identity, id);
  const voided = await deps.db.transaction().execute(async (trx) => {
    const updated = await markVoid(trx, invoice.id);
    if (updated)
      await recordAudit(trx, {
        merchantId: invoice.merchant_id,
        ...auditActor(actor.identity),
        action: "invoice.voided",
        target: invoice.id,
        requestId: actor.requestId,
      });
    return updated;
  });
  if (!voided) {
    const current = (await findInvoice(deps.db, id))?.status ?? invoice.status;
    throw new ApiError(
      409,
      "invoice_not_voidable",
      `only an unpaid invoice (draft, sent or overdue) can be voided; this invoice is ${current}`,
    );
  }
  deps.log.info("invoice voided", { invoice_id: invoice.id });
  return voided;
}

export function registerVoidInvoice(app: Router, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const voided = await voidInvoice(deps, actorOf(c), c.req.valid("param").id);
    return c.json(await invoiceBody(deps, voided), 200);
  });
}

import { recordAudit } from "../../db/queries/audit.ts";
import { findInvoice, type InvoiceRow, markSent } from "../../db/queries/invoices.ts";
import { type Actor, auditActor } from "../actor.ts";
import { authorizedInvoice } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import { Refusal } from "../refusal.ts";

/**
 * Marks the draft invoice `id` sent for `actor`, audited (`invoice.sent`): the sent invoice, or
 * a 409 `invoice_not_draft` (404/401 as authorizedInvoice decides).
 */
export async function sendInvoice(deps: CoreDeps, actor: Actor, id: string): Promise<InvoiceRow> {
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
    throw new Refusal(
      409,
      "invoice_not_draft",
      `only a draft can be sent; this invoice is ${current}`,
    );
  }
  deps.log.info("invoice sent", { invoice_id: invoice.id });
  return sent;
}

import { recordAudit } from "../../db/queries/audit.ts";
import { findInvoice, type InvoiceRow } from "../../db/queries/invoices.ts";
import { markVoid } from "../../db/queries/voidInvoice.ts";
import { type Actor, auditActor } from "../actor.ts";
import { authorizedInvoice } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import { Refusal } from "../refusal.ts";

/**
 * Voids the invoice `id` for `actor` (the API's route and the dashboard's button): the void
 * invoice, or a 409 `invoice_not_voidable` (404/403 as authorizedInvoice decides).
 */
export async function voidInvoice(deps: CoreDeps, actor: Actor, id: string): Promise<InvoiceRow> {
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
    throw new Refusal(
      409,
      "invoice_not_voidable",
      `only an unpaid invoice (draft, sent or overdue) can be voided; this invoice is ${current}`,
    );
  }
  deps.log.info("invoice voided", { invoice_id: invoice.id });
  return voided;
}

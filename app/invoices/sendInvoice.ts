import { type InvoiceRow, markSent } from "../../db/queries/invoices.ts";
import type { Actor } from "../actor.ts";
import type { CoreDeps } from "../deps.ts";
import { changeInvoiceStatus } from "./changeStatus.ts";

/**
 * Marks the draft invoice `id` sent for `actor`, audited (`invoice.sent`): the sent invoice, or
 * a 409 `invoice_not_draft` (404/401 as authorizedInvoice decides).
 */
export async function sendInvoice(deps: CoreDeps, actor: Actor, id: string): Promise<InvoiceRow> {
  const sent = await changeInvoiceStatus(deps, actor, id, {
    mark: markSent,
    action: "invoice.sent",
    code: "invoice_not_draft",
    refused: (current) => `only a draft can be sent; this invoice is ${current}`,
  });
  deps.log.info("invoice sent", { invoice_id: sent.id });
  return sent;
}

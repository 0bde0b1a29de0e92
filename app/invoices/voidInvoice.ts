import type { InvoiceRow } from "../../db/queries/invoices.ts";
import { markVoid } from "../../db/queries/voidInvoice.ts";
import type { Actor } from "../actor.ts";
import type { CoreDeps } from "../deps.ts";
import { changeInvoiceStatus } from "./changeStatus.ts";

/**
 * Voids the invoice `id` for `actor` (the API's route and the dashboard's button): the void
 * invoice, or a 409 `invoice_not_voidable` (404/403 as authorizedInvoice decides).
 */
export async function voidInvoice(deps: CoreDeps, actor: Actor, id: string): Promise<InvoiceRow> {
  const voided = await changeInvoiceStatus(deps, actor, id, {
    mark: markVoid,
    action: "invoice.voided",
    code: "invoice_not_voidable",
    refused: (current) =>
      `only an unpaid invoice (draft, sent or overdue) can be voided; this invoice is ${current}`,
  });
  deps.log.info("invoice voided", { invoice_id: voided.id });
  return voided;
}

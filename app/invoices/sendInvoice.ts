import { findInvoice, type InvoiceRow, markSent } from "../../db/queries/invoices.ts";
import type { Actor } from "../actor.ts";
import type { CoreDeps } from "../deps.ts";
import { chargeEmailToOthers } from "../emailBudget.ts";
import { changeInvoiceStatus } from "./changeStatus.ts";

/**
 * Marks the draft invoice `id` sent for `actor`, audited (`invoice.sent`): the sent invoice, or
 * a 409 `invoice_not_draft` (404/401 as authorizedInvoice decides).
 */
export async function sendInvoice(deps: CoreDeps, actor: Actor, id: string): Promise<InvoiceRow> {
  const sent = await changeInvoiceStatus(deps, actor, id, {
    // Sending emails the vendor: within the merchant's budget of email to others, or nothing.
    mark: async (trx, invoiceId) => {
      const invoice = await findInvoice(trx, invoiceId);
      if (invoice?.status === "draft")
        await chargeEmailToOthers(trx, deps.emailBudget, invoice.merchant_id, invoice.vendor_email);
      return markSent(trx, invoiceId);
    },
    action: "invoice.sent",
    code: "invoice_not_draft",
    refused: (current) => `only a draft can be sent; this invoice is ${current}`,
  });
  deps.log.info("invoice sent", { invoice_id: sent.id });
  return sent;
}

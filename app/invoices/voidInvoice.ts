import type { InvoiceRow } from "../../db/queries/invoices.ts";
import { findPaymentInProgress } from "../../db/queries/payerAuthorizations.ts";
import { markVoid } from "../../db/queries/voidInvoice.ts";
import type { Actor } from "../actor.ts";
import { creditVoidedInvoice } from "../creditNotes/createCreditNote.ts";
import type { CoreDeps } from "../deps.ts";
import { MINED_NOT_COUNTED_SECONDS } from "../payments/verifyAuthorization.ts";
import { Refusal } from "../refusal.ts";
import { changeInvoiceStatus } from "./changeStatus.ts";

/**
 * Voids the invoice `id` for `actor` (the API's route and the dashboard's button): the void
 * invoice (with, when it had been sent, a full credit note: app/creditNotes), or a 409 `invoice_not_voidable` (404/403 as authorizedInvoice decides). A relayed
 * payment (gasless or x402) accepted and not yet counted is money in flight: the relayer would
 * still pay a void invoice, so that is a 409 `payment_in_progress` and nothing changes. The
 * update's row lock and the payment's share lock (db/queries/invoicePaymentLock.ts) order the two.
 */
export async function voidInvoice(deps: CoreDeps, actor: Actor, id: string): Promise<InvoiceRow> {
  const voided = await changeInvoiceStatus(deps, actor, id, {
    mark: async (trx, invoiceId) => {
      const row = await markVoid(trx, invoiceId);
      if (row && (await findPaymentInProgress(trx, row.deposit_address, MINED_NOT_COUNTED_SECONDS)))
        throw new Refusal(
          "conflict",
          "payment_in_progress",
          "a payment to this invoice is being relayed; void it once it has settled (or failed), if anything is still due",
        );
      // A sent invoice exists for its vendor: cancelling it is a document, a full credit note.
      if (row?.sent_at) await creditVoidedInvoice(trx, actor, row);
      return row;
    },
    action: "invoice.voided",
    code: "invoice_not_voidable",
    refused: (current) =>
      `only an unpaid invoice (draft, sent or overdue) can be voided; this invoice is ${current}`,
  });
  deps.log.info("invoice voided", { invoice_id: voided.id });
  return voided;
}

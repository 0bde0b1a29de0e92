import {
  findRefundContext,
  queueRefundEmail,
  type RefundRow,
  updateRefund,
} from "../../db/queries/refunds.ts";
import { jobKey, TASK } from "../../domain/jobs.ts";
import type { OutgoingTransferKind } from "../outgoingTransfers/outgoingTransfer.ts";

/**
 * A refund as a transfer out (app/outgoingTransfers/): submitted by submit_refund
 * (submitRefund.ts), followed by check_refund (checkRefund.ts), and failed with an email to the
 * merchant. Neither task writes a refund's state but through these steps or db/queries'
 * conditional update.
 */
export const REFUND: OutgoingTransferKind<RefundRow> = {
  name: "refund",
  submitTask: TASK.submitRefund,
  checkTask: TASK.checkRefund,
  payload: (id) => ({ refund_id: id }),
  submitJobKey: jobKey.refund,
  checkJobKey: jobKey.refundCheck,
  update: updateRefund,
  queueFailedEmail: async (trx, row) => {
    const context = await findRefundContext(trx, row);
    if (context)
      await queueRefundEmail(trx, {
        kind: "refund_failed",
        recipient: context.merchantEmail,
        invoiceId: row.invoice_id,
        refundId: row.id,
      });
  },
};

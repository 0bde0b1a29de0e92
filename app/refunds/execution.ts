import type { Executor } from "../../db/database.ts";
import { inTransaction } from "../../db/queries/inTransaction.ts";
import { queueJob } from "../../db/queries/jobs.ts";
import {
  findRefundContext,
  queueRefundEmail,
  type RefundRow,
  updateRefund,
} from "../../db/queries/refunds.ts";
import { jobKey, TASK } from "../../domain/jobs.ts";

/**
 * A refund's execution, the steps of its state: submitRefund.ts (submit_refund) submits it,
 * checkRefund.ts (check_refund) follows it, and both move it through these (neither imports the
 * other, and neither writes a refund's state but through here or db/queries' conditional update).
 */

/** How soon a submitted refund is looked at (check_refund), and a busy address tried again. */
export const REFUND_CHECK_MS = 1_000;

/** The relayed transaction of a refund's nth submission (app.relayer_transactions.purpose). */
export const refundPurpose = (refundId: string, submission: number) =>
  `refund:${refundId}:${submission}`;

/** Queues the refund's check (check_refund) a moment from now. */
export const queueRefundCheck = (db: Executor, refundId: string) =>
  queueJob(
    db,
    TASK.checkRefund,
    { refund_id: refundId },
    { jobKey: jobKey.refundCheck(refundId), runAt: new Date(Date.now() + REFUND_CHECK_MS) },
  );

/** Marks a refund failed for good with its reason and queues the merchant's email, together. */
export async function failRefund(db: Executor, refund: RefundRow, reason: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const row = await updateRefund(
      trx,
      refund.id,
      { status: "failed", error: reason.slice(0, 2000) },
      ["requested", "submitted"],
    );
    if (!row) return;
    const context = await findRefundContext(trx, row);
    if (context)
      await queueRefundEmail(trx, {
        kind: "refund_failed",
        recipient: context.merchantEmail,
        invoiceId: row.invoice_id,
        refundId: row.id,
      });
  });
}

import { findMerchantEmail } from "../../db/queries/merchants.ts";
import { type PayoutRow, queuePayoutEmail, updatePayout } from "../../db/queries/payouts.ts";
import { jobKey, TASK } from "../../domain/jobs.ts";
import type { OutgoingTransferKind } from "../outgoingTransfers/outgoingTransfer.ts";

/**
 * A payout as a transfer out (app/outgoingTransfers/): submitted by submit_payout
 * (submitPayout.ts), followed by check_payout (checkPayout.ts), and failed with an email to the
 * account.
 */
export const PAYOUT: OutgoingTransferKind<PayoutRow> = {
  name: "payout",
  submitTask: TASK.submitPayout,
  checkTask: TASK.checkPayout,
  payload: (id) => ({ payout_id: id }),
  submitJobKey: jobKey.payout,
  checkJobKey: jobKey.payoutCheck,
  update: updatePayout,
  queueFailedEmail: async (trx, row) =>
    queuePayoutEmail(trx, {
      kind: "payout_failed",
      recipient: await findMerchantEmail(trx, row.merchant_id),
      payoutId: row.id,
    }),
};

import type { Executor } from "../../db/database.ts";
import { inTransaction } from "../../db/queries/inTransaction.ts";
import { queueJob } from "../../db/queries/jobs.ts";
import { findMerchantEmail } from "../../db/queries/merchants.ts";
import { type PayoutRow, queuePayoutEmail, updatePayout } from "../../db/queries/payouts.ts";
import { jobKey, TASK } from "../../domain/jobs.ts";

/**
 * A payout's execution, what submitPayout.ts (submit_payout submits it) and checkPayout.ts
 * (check_payout follows it) share: neither imports the other.
 */

/** How soon a submitted payout is looked at, and a busy wallet tried again. */
export const PAYOUT_CHECK_MS = 1_000;

/** The relayed transaction of a payout's nth submission (app.relayer_transactions.purpose). */
export const payoutPurpose = (payoutId: string, submission: number) =>
  `payout:${payoutId}:${submission}`;

/** Queues the payout's check (check_payout) a moment from now. */
export const queuePayoutCheck = (db: Executor, payoutId: string) =>
  queueJob(
    db,
    TASK.checkPayout,
    { payout_id: payoutId },
    { jobKey: jobKey.payoutCheck(payoutId), runAt: new Date(Date.now() + PAYOUT_CHECK_MS) },
  );

/** Marks a payout failed for good with its reason and emails the account, together. */
export async function failPayout(db: Executor, payout: PayoutRow, reason: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const row = await updatePayout(
      trx,
      payout.id,
      { status: "failed", error: reason.slice(0, 2000) },
      ["requested", "submitted"],
    );
    if (row)
      await queuePayoutEmail(trx, {
        kind: "payout_failed",
        recipient: await findMerchantEmail(trx, row.merchant_id),
        payoutId: row.id,
      });
  });
}

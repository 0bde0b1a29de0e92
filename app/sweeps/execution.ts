import type { Executor } from "../../db/database.ts";
import { inTransaction } from "../../db/queries/inTransaction.ts";
import { queueSweepFailedEmail, type SweepRow, updateSweep } from "../../db/queries/sweeps.ts";

/**
 * What sweep_deposit (submits a sweep) and check_sweep (follows it) share: neither task imports
 * the other.
 */

/** How soon a submitted sweep's transaction is looked at (check_sweep), and again while pending. */
export const SWEEP_CHECK_MS = 1_000;

/** The relayed transaction of a sweep's nth submission (app.relayer_transactions.purpose). */
export const sweepPurpose = (sweepId: string, submission: number) =>
  `sweep:${sweepId}:${submission}`;

/** Marks a sweep failed for good and queues its merchant's email, together. */
export async function failForGood(db: Executor, row: SweepRow, reason: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    if (await updateSweep(trx, row.id, { status: "failed", error: reason.slice(0, 2000) }))
      await queueSweepFailedEmail(trx, row);
  });
}

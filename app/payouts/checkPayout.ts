import { findPayout, updatePayout } from "../../db/queries/payouts.ts";
import { type CheckTransferDeps, executedTransfer } from "../outgoingTransfers/checkTransfer.ts";
import { PAYOUT } from "./execution.ts";

/** What following a payout needs from the worker's process (check_payout). */
export type CheckPayoutDeps = CheckTransferDeps;

/**
 * One look at a submitted payout, never a wait (app/outgoingTransfers/checkTransfer.ts): once
 * its transfer executed, the payout is confirmed (a managed wallet's transfers are not indexed:
 * the receipt confirms it).
 */
export async function checkPayout(deps: CheckPayoutDeps, payoutId: string): Promise<void> {
  const payout = await findPayout(deps.db, payoutId);
  if (payout?.status !== "submitted") return;
  const executed = await executedTransfer(deps, PAYOUT, payout);
  if (!executed) return;
  const { hash } = executed;
  const confirmed = await updatePayout(
    deps.db,
    payout.id,
    { status: "confirmed", error: null, ...(hash ? { tx_hash: hash } : {}) },
    ["submitted"],
  );
  if (confirmed)
    deps.log.info(
      `payout ${payout.id} confirmed: ${payout.amount} USDC units to ${payout.to_address} in ${hash}`,
    );
}

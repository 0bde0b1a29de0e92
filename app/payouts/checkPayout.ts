import { getAddress, type Hash, type Hex } from "viem";
import type { Db } from "../../db/database.ts";
import { findPayout, type PayoutRow, updatePayout } from "../../db/queries/payouts.ts";
import { findRelayedByPurpose } from "../../db/queries/relayerTransactions.ts";
import { jobKey, TASK } from "../../domain/jobs.ts";
import type { JobLog } from "../jobLog.ts";
import type { AddJob } from "../jobQueue.ts";
import type { Relay } from "../relay.ts";
import { failPayout, PAYOUT_CHECK_MS, payoutPurpose } from "./execution.ts";

/** What following a payout needs from the worker's process. */
export type CheckPayoutDeps = {
  db: Db;
  relay: Pick<Relay, "checkRelayed" | "authorizationUsed">;
  /** Queues this check again (check_payout), or the payout's submission (submit_payout). */
  addJob: AddJob;
  log: JobLog;
};

/** Submissions of one payout before one that keeps failing on chain is given up. */
const MAX_SUBMISSIONS = 5;

/**
 * One look at a submitted payout, never a wait. Its transaction mined and succeeded → the
 * payout is confirmed (a managed wallet's transfers are not indexed: the receipt confirms it);
 * still pending → look again in a second; reverted or its relayer nonce taken → confirmed if
 * USDC used the authorization anyway (an earlier submission was executed), else handed back to
 * submit_payout under a new relayer nonce and the same authorization nonce: paid once at most.
 */
export async function checkPayout(deps: CheckPayoutDeps, payoutId: string): Promise<void> {
  const { relay } = deps;
  const payout = await findPayout(deps.db, payoutId);
  if (payout?.status !== "submitted") return;
  const relayed = await findRelayedByPurpose(deps.db, payoutPurpose(payout.id, payout.attempts));
  const outcome = relayed ? await relay.checkRelayed(relayed) : undefined;
  if (outcome?.state === "pending") {
    await deps.addJob(
      TASK.checkPayout,
      { payout_id: payout.id },
      { jobKey: jobKey.payoutCheck(payout.id), runAt: new Date(Date.now() + PAYOUT_CHECK_MS) },
    );
    return;
  }
  let hash: Hash | null = outcome?.state === "mined" && outcome.success ? outcome.hash : null;
  if (
    !hash &&
    (await relay.authorizationUsed(getAddress(payout.from_address), payout.nonce as Hex))
  )
    hash = await executedSubmission(deps, payout);
  else if (!hash) {
    const why =
      outcome?.state === "mined"
        ? `transaction ${outcome.hash} reverted`
        : "its relayer nonce was used by another transaction";
    if (payout.attempts >= MAX_SUBMISSIONS) {
      await failPayout(
        deps.db,
        payout,
        `submitted ${payout.attempts} times, never executed: ${why}`,
      );
      return;
    }
    deps.log.warn(`payout ${payout.id}: ${why}; submitting it again`);
    await updatePayout(
      deps.db,
      payout.id,
      { status: "requested", error: `${why}; submitting again` },
      ["submitted"],
    );
    await deps.addJob(
      TASK.submitPayout,
      { payout_id: payout.id },
      { jobKey: jobKey.payout(payout.id) },
    );
    return;
  }
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

/** The hash of the submission USDC executed, when the current one was not it. */
async function executedSubmission(deps: CheckPayoutDeps, payout: PayoutRow): Promise<Hash | null> {
  for (let n = payout.attempts; n >= 1; n--) {
    const row = await findRelayedByPurpose(deps.db, payoutPurpose(payout.id, n));
    const outcome = row ? await deps.relay.checkRelayed(row) : undefined;
    if (outcome?.state === "mined" && outcome.success) return outcome.hash;
  }
  return null;
}

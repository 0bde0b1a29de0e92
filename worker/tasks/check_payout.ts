import type { Task } from "graphile-worker";
import { getAddress, type Hash, type Hex } from "viem";
import { z } from "zod";
import { findPayout, type PayoutRow, updatePayout } from "../../db/queries/payouts.ts";
import { findRelayedByPurpose } from "../../db/queries/relayerTransactions.ts";
import { jobKey, TASK } from "../../domain/jobs.ts";
import type { WorkerDeps } from "../deps.ts";
import { failPayout, PAYOUT_CHECK_MS, payoutPurpose } from "../payouts.ts";
import { checkRelayed } from "../relayer/check.ts";
import { authorizationUsed } from "../relayer/moveByAuthorization.ts";
import { parsePayload } from "./payload.ts";

const Payload = z.object({ payout_id: z.uuid() });

/** Submissions of one payout before one that keeps failing on chain is given up. */
const MAX_SUBMISSIONS = 5;

type Sweeping = NonNullable<WorkerDeps["sweep"]>;

/**
 * One look at a submitted payout, never a wait. Its transaction mined and succeeded → the
 * payout is confirmed (a managed wallet's transfers are not indexed: the receipt confirms it);
 * still pending → look again in a second; reverted or its relayer nonce taken → confirmed if
 * USDC used the authorization anyway (an earlier submission was executed), else handed back to
 * submit_payout under a new relayer nonce and the same authorization nonce: paid once at most.
 */
export function checkPayout(deps: WorkerDeps): Task {
  return async (payload, helpers) => {
    const parsed = parsePayload(Payload, payload, helpers);
    if (!parsed || !deps.sweep) return;
    const sweeping = deps.sweep;
    const payout = await findPayout(deps.db, parsed.payout_id);
    if (payout?.status !== "submitted") return;
    const relayed = await findRelayedByPurpose(deps.db, payoutPurpose(payout.id, payout.attempts));
    const outcome = relayed ? await checkRelayed(sweeping.relayer, relayed) : undefined;
    if (outcome?.state === "pending") {
      await helpers.addJob(
        TASK.checkPayout,
        { payout_id: payout.id },
        { jobKey: jobKey.payoutCheck(payout.id), runAt: new Date(Date.now() + PAYOUT_CHECK_MS) },
      );
      return;
    }
    let hash: Hash | null = outcome?.state === "mined" && outcome.success ? outcome.hash : null;
    if (
      !hash &&
      (await authorizationUsed(sweeping, getAddress(payout.from_address), payout.nonce as Hex))
    )
      hash = await executedSubmission(sweeping, deps, payout);
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
      helpers.logger.warn(`payout ${payout.id}: ${why}; submitting it again`);
      await updatePayout(
        deps.db,
        payout.id,
        { status: "requested", error: `${why}; submitting again` },
        ["submitted"],
      );
      await helpers.addJob(
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
      helpers.logger.info(
        `payout ${payout.id} confirmed: ${payout.amount} USDC units to ${payout.to_address} in ${hash}`,
      );
  };
}

/** The hash of the submission USDC executed, when the current one was not it. */
async function executedSubmission(
  sweeping: Sweeping,
  deps: WorkerDeps,
  payout: PayoutRow,
): Promise<Hash | null> {
  for (let n = payout.attempts; n >= 1; n--) {
    const row = await findRelayedByPurpose(deps.db, payoutPurpose(payout.id, n));
    const outcome = row ? await checkRelayed(sweeping.relayer, row) : undefined;
    if (outcome?.state === "mined" && outcome.success) return outcome.hash;
  }
  return null;
}

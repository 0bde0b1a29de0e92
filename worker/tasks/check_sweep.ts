import type { Task } from "graphile-worker";
import { getAddress, type Hex } from "viem";
import { z } from "zod";
import { findRelayedByPurpose } from "../../db/queries/relayerTransactions.ts";
import { findSweep, updateSweep } from "../../db/queries/sweeps.ts";
import { jobKey, TASK } from "../../domain/jobs.ts";
import type { WorkerDeps } from "../deps.ts";
import { checkRelayed } from "../relayer/check.ts";
import { authorizationUsed } from "../relayer/moveByAuthorization.ts";
import { failForGood, queueNextRound, SWEEP_CHECK_MS, sweepPurpose } from "../sweeps.ts";
import { parsePayload } from "./payload.ts";

const Payload = z.object({ sweep_id: z.uuid() });

/** Submissions of one sweep before one that keeps failing on chain is given up. */
const MAX_SUBMISSIONS = 5;

/**
 * One look at a submitted sweep's transaction, never a wait: mined and succeeded → the sweep
 * is confirmed and the address swept again (funds that arrived meanwhile; nothing happens
 * when it is empty); still pending → look again in a second (the relayer re-sends it at a
 * higher fee when it lingers); reverted, or its relayer nonce taken by another transaction →
 * confirmed if USDC used the authorization anyway, otherwise handed back to sweep_deposit,
 * which simulates it (a typed reason: failed for good, or submitted again).
 */
export function checkSweep(deps: WorkerDeps): Task {
  return async (payload, helpers) => {
    const parsed = parsePayload(Payload, payload, helpers);
    if (!parsed || !deps.sweep) return;
    const sweeping = deps.sweep;
    const sweep = await findSweep(deps.db, parsed.sweep_id);
    if (sweep?.status !== "submitted") return;
    const relayed = await findRelayedByPurpose(deps.db, sweepPurpose(sweep.id, sweep.attempts));
    const outcome = relayed ? await checkRelayed(sweeping.relayer, relayed) : undefined;
    if (outcome?.state === "pending") {
      await helpers.addJob(
        TASK.checkSweep,
        { sweep_id: sweep.id },
        { jobKey: jobKey.sweepCheck(sweep.id), runAt: new Date(Date.now() + SWEEP_CHECK_MS) },
      );
      return;
    }
    const deposit = getAddress(sweep.deposit_address);
    if (outcome?.state === "mined" && outcome.success) {
      await updateSweep(
        deps.db,
        sweep.id,
        { status: "confirmed", tx_hash: outcome.hash, error: null },
        "submitted",
      );
      helpers.logger.info(
        `swept ${sweep.amount} USDC units from ${deposit} to ${sweep.destination} in ${outcome.hash}`,
      );
      await queueNextRound(helpers, sweep.deposit_address);
      return;
    }
    if (await authorizationUsed(sweeping, deposit, sweep.nonce as Hex)) {
      await updateSweep(deps.db, sweep.id, { status: "confirmed", error: null }, "submitted");
      await queueNextRound(helpers, sweep.deposit_address);
      return;
    }
    const why =
      outcome?.state === "mined"
        ? `transaction ${outcome.hash} reverted`
        : "its relayer nonce was used by another transaction";
    if (sweep.attempts >= MAX_SUBMISSIONS) {
      // A transfer that simulates fine and fails on chain every time: a person must look.
      await failForGood(
        deps.db,
        sweep,
        `submitted ${sweep.attempts} times, never executed: ${why}`,
      );
      helpers.logger.error(`sweep ${sweep.sequence} of ${deposit} failed for good: ${why}`);
      return;
    }
    helpers.logger.warn(`sweep ${sweep.sequence} of ${deposit}: ${why}; submitting it again`);
    await updateSweep(
      deps.db,
      sweep.id,
      { status: "signed", error: `${why}; submitting again` },
      "submitted",
    );
    await queueNextRound(helpers, sweep.deposit_address);
  };
}

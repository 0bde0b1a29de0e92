import { getAddress, type Hex } from "viem";
import type { Db } from "../../db/database.ts";
import { findRelayedByPurpose } from "../../db/queries/relayerTransactions.ts";
import { findSweep, updateSweep } from "../../db/queries/sweeps.ts";
import type { JobLog } from "../jobLog.ts";
import type { Relay } from "../relay.ts";
import { failForGood, sweepPurpose } from "./execution.ts";

/** What following a sweep needs from the worker's process. */
export type CheckSweepDeps = {
  db: Db;
  /** One look at a relayed transaction, never a wait (the worker's worker/relayer/check.ts). */
  checkRelayed: Relay["checkRelayed"];
  authorizationUsed: Relay["authorizationUsed"];
  /** Queues this check again a moment from now (check_sweep). */
  queueCheck(sweepId: string): Promise<void>;
  /** Queues a sweep of the address again (sweep_deposit): what arrived meanwhile. */
  queueNextRound(address: string): Promise<void>;
  log: JobLog;
};

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
export async function checkSweep(deps: CheckSweepDeps, sweepId: string): Promise<void> {
  const sweep = await findSweep(deps.db, sweepId);
  if (sweep?.status !== "submitted") return;
  const relayed = await findRelayedByPurpose(deps.db, sweepPurpose(sweep.id, sweep.attempts));
  const outcome = relayed ? await deps.checkRelayed(relayed) : undefined;
  if (outcome?.state === "pending") {
    await deps.queueCheck(sweep.id);
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
    deps.log.info(
      `swept ${sweep.amount} USDC units from ${deposit} to ${sweep.destination} in ${outcome.hash}`,
    );
    await deps.queueNextRound(sweep.deposit_address);
    return;
  }
  if (await deps.authorizationUsed(deposit, sweep.nonce as Hex)) {
    await updateSweep(deps.db, sweep.id, { status: "confirmed", error: null }, "submitted");
    await deps.queueNextRound(sweep.deposit_address);
    return;
  }
  const why =
    outcome?.state === "mined"
      ? `transaction ${outcome.hash} reverted`
      : "its relayer nonce was used by another transaction";
  if (sweep.attempts >= MAX_SUBMISSIONS) {
    // A transfer that simulates fine and fails on chain every time: a person must look.
    await failForGood(deps.db, sweep, `submitted ${sweep.attempts} times, never executed: ${why}`);
    deps.log.error(`sweep ${sweep.sequence} of ${deposit} failed for good: ${why}`);
    return;
  }
  deps.log.warn(`sweep ${sweep.sequence} of ${deposit}: ${why}; submitting it again`);
  await updateSweep(
    deps.db,
    sweep.id,
    { status: "signed", error: `${why}; submitting again` },
    "submitted",
  );
  await deps.queueNextRound(sweep.deposit_address);
}

import { getAddress, type Hex } from "viem";
import type { Db, Executor } from "../../db/database.ts";
import { findPayout, type PayoutRow, updatePayout } from "../../db/queries/payouts.ts";
import { findManagedWalletKey } from "../../db/queries/refunds.ts";
import { tryLockSweeps, unlockSweeps } from "../../db/queries/sweeps.ts";
import { jobKey, TASK } from "../../domain/jobs.ts";
import { signedTransferVerdict } from "../../domain/usdcRefusal.ts";
import { managedWalletAccount } from "../../keys/hdWallet.ts";
import type { JobLog } from "../jobLog.ts";
import type { AddJob } from "../jobQueue.ts";
import type { Relay } from "../relay.ts";
import { failPayout, PAYOUT_CHECK_MS, payoutPurpose, queuePayoutCheck } from "./execution.ts";

/** What paying a payout needs from the worker's process. */
export type SubmitPayoutDeps = {
  db: Db;
  /** The service seed, for the managed wallets' hardened derivation (never in the API). */
  managedWalletSeed: string;
  /** The relayer's one procedure; absent without a relayer (the payout fails). */
  relay: Relay | undefined;
  /** Queues this payout's submission again, after the spending lock's holder (submit_payout). */
  addJob: AddJob;
  log: JobLog;
};

/**
 * Pays a requested payout: the managed wallet's key signs an EIP-3009 transferWithAuthorization
 * whose nonce was fixed when the payout was recorded (domain/refundNonce.ts payoutNonce), the
 * relayer submits it (its one procedure, worker/relayer/moveByAuthorization.ts) with the payout
 * marked submitted and its check queued in the same transaction, and the job returns:
 * check_payout follows it. However often this runs (a retry, a worker killed mid-way and its
 * job run again), USDC executes the authorization once. It holds the wallet's spending lock
 * (the one refunds out of the wallet take) while it signs and submits.
 */
export async function submitPayout(deps: SubmitPayoutDeps, payoutId: string): Promise<void> {
  const payout = await findPayout(deps.db, payoutId);
  if (payout?.status !== "requested") return;
  if (!deps.relay) {
    await failPayout(deps.db, payout, "this service has no relayer to pay out with");
    return;
  }
  const relay = deps.relay;
  await deps.db.connection().execute(async (connection) => {
    if (!(await tryLockSweeps(connection, payout.from_address))) {
      // A refund out of the wallet is being submitted: after it.
      await deps.addJob(
        TASK.submitPayout,
        { payout_id: payout.id },
        { jobKey: jobKey.payout(payout.id), runAt: new Date(Date.now() + PAYOUT_CHECK_MS) },
      );
      return;
    }
    try {
      await submit(connection, deps, relay, payout);
    } finally {
      await unlockSweeps(connection, payout.from_address);
    }
  });
}

async function submit(
  db: Executor,
  deps: SubmitPayoutDeps,
  relay: Relay,
  payout: PayoutRow,
): Promise<void> {
  const wallet = await findManagedWalletKey(db, payout.merchant_id);
  const signer =
    wallet?.address.toLowerCase() === payout.from_address
      ? managedWalletAccount(deps.managedWalletSeed, wallet.index, wallet.hardened)
      : undefined;
  if (!signer || signer.address.toLowerCase() !== payout.from_address) {
    await failPayout(db, payout, "no key of this service signs for the managed wallet");
    return;
  }
  const from = getAddress(payout.from_address);
  const to = getAddress(payout.to_address);
  try {
    const moved = await relay.move({
      authorization: { signer, from, to, value: payout.amount, nonce: payout.nonce as Hex },
      purpose: payoutPurpose(payout.id, payout.attempts + 1),
      merchantId: payout.merchant_id,
      record: async (trx, submitted) => {
        await updatePayout(
          trx,
          payout.id,
          { status: "submitted", tx_hash: submitted.hashes[0] ?? null, attempt: true, error: null },
          ["requested"],
        );
        await queuePayoutCheck(trx, payout.id);
      },
    });
    if (moved.submitted) {
      deps.log.info(
        `submitted payout ${payout.id}: ${payout.amount} USDC units from ${from} to ${to} in ${moved.relayed.hashes[0]}`,
      );
      return;
    }
    const verdict = signedTransferVerdict(moved.refusal);
    if (verdict === "done") {
      // An earlier submission was executed: its check (or this one) confirms it.
      await updatePayout(db, payout.id, { status: "submitted", error: null }, ["requested"]);
      await queuePayoutCheck(db, payout.id);
      return;
    }
    if (verdict === "permanent" || verdict === "stale") {
      await failPayout(
        db,
        payout,
        verdict === "stale"
          ? `the managed wallet ${from} no longer holds ${payout.amount} USDC units`
          : `USDC refuses the transfer: ${moved.reason}`,
      );
      deps.log.error(`payout ${payout.id} failed for good: USDC refuses it`);
      return;
    }
    throw moved.revert ?? new Error(moved.reason);
  } catch (error) {
    await updatePayout(db, payout.id, { error: relay.describeFailure(error) }, ["requested"]);
    throw error;
  }
}

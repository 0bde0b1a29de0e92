import { type Address, getAddress, type Hex, type PublicClient } from "viem";
import { usdcAbi } from "../../abis/usdc.ts";
import type { Db, Executor } from "../../db/database.ts";
import { findDerivationIndex } from "../../db/queries/depositAddresses.ts";
import { queueJob } from "../../db/queries/jobs.ts";
import { merchantOfDepositAddress } from "../../db/queries/relayerGas.ts";
import {
  findLastSweep,
  findSweepDestination,
  insertSweep,
  type SweepRow,
  tryLockSweeps,
  unlockSweeps,
  updateSweep,
  updateSweepAmount,
} from "../../db/queries/sweeps.ts";
import { USDC_ADDRESS } from "../../domain/constants.ts";
import { jobKey, TASK } from "../../domain/jobs.ts";
import { sweepNonce } from "../../domain/sweepNonce.ts";
import type { SweepSettings } from "../../domain/sweepPolicy.ts";
import { signedTransferVerdict } from "../../domain/usdcRefusal.ts";
import { DEPOSIT_ACCOUNT, deriveAccount } from "../../keys/hdWallet.ts";
import type { JobLog } from "../jobLog.ts";
import type { Relay } from "../relay.ts";
import { failForGood, SWEEP_CHECK_MS, sweepPurpose } from "./execution.ts";
import { amountToSweep } from "./sweepDecision.ts";

/**
 * The relayer's one procedure as a sweep uses it (app/relay.ts, the worker's
 * worker/relayer/moveByAuthorization.ts: moveByAuthorization, authorizationUsed,
 * describeMoveFailure), and the deposit keys' seed: what only the worker holds.
 */
export type SweepRelay = Pick<Relay, "move" | "authorizationUsed" | "describeFailure"> & {
  mnemonic: string;
  /** Read (the deposit's balance) before anything is signed. */
  chain: Pick<PublicClient, "readContract">;
};

/** What a sweep needs from the worker's process. */
export type SweepDeps = {
  db: Db;
  /** When and how much to sweep (SWEEP_MIN_AMOUNT, SWEEP_PARTIAL_AFTER): domain/sweepPolicy.ts. */
  policy: SweepSettings;
  relay: SweepRelay;
  /** Queues a sweep of the address again (sweep_deposit), now or at `runAt`: what arrived meanwhile. */
  queueNextRound(address: string, runAt?: Date): Promise<void>;
  log: JobLog;
};

/** How soon a sweep finding its address busy looks again (a submission takes a moment). */
export const SWEEP_BUSY_RETRY_MS = 1_000;

/**
 * Moves a deposit address's settled USDC to the merchant's wallet (the byo address or
 * the managed wallet): the deposit key signs an EIP-3009 transferWithAuthorization whose
 * nonce is derived from the address and the sweep's sequence number, and the relayer submits
 * it and pays the gas. A retried, duplicated or concurrent job signs the same authorization,
 * which USDC executes once; a session advisory lock keeps two runs from even trying at once.
 *
 * Submit, then check: this job moves it by the relayer's one procedure
 * (worker/relayer/moveByAuthorization.ts: sign, simulate, submit through the one nonce
 * sequence) and queues check_sweep, in one transaction with the sweep marked submitted; it
 * never waits for a block. check_sweep confirms it, or hands it
 * back here to be submitted again.
 *
 * A transfer USDC refuses for good (a blacklisted party, the zero address) is marked failed,
 * the invoice's merchant is told by email, and it is not retried; a later payment to the
 * address (or `remit deposits sweep`) tries again with everything the address holds. Any other
 * failure (no ETH for gas, an RPC error) is retried with graphile-worker's backoff.
 */
export async function sweepDeposit(deps: SweepDeps, address: string): Promise<void> {
  await deps.db.connection().execute(async (connection) => {
    if (!(await tryLockSweeps(connection, address))) {
      // Another run (a sweep, a refund, a payout) is moving money out of this address: look
      // again after it. That run may have decided on facts older than this job's (a payment
      // that settled the invoice since), so returning would leave the sweep to nobody.
      await deps.queueNextRound(address, new Date(Date.now() + SWEEP_BUSY_RETRY_MS));
      return;
    }
    try {
      const row = await nextSweep(connection, deps.relay, deps.policy, address);
      if (row) await submitSweep(connection, deps, row);
    } finally {
      await unlockSweeps(connection, address);
    }
  });
}

/**
 * The sweep to submit now: the last one, when it is signed but not submitted (a failed or
 * handed-back submission), or a new one for what the sweep policy says is settled
 * (domain/sweepPolicy.ts: never a partial payment the payer may still be completing, nor held
 * excess or dust); none while one is submitted (its check carries it on) or when nothing is due.
 */
async function nextSweep(
  db: Executor,
  relay: SweepRelay,
  policy: SweepSettings,
  address: string,
): Promise<SweepRow | null> {
  const destination = await findSweepDestination(db, address);
  if (!destination) return null;
  const deposit = getAddress(address);
  const last = await findLastSweep(db, address);
  if (last?.status === "submitted") return null;
  if (
    last &&
    last.status !== "confirmed" &&
    (await relay.authorizationUsed(deposit, last.nonce as Hex))
  ) {
    // Executed after all (an earlier submission of the same authorization was mined).
    await updateSweep(db, last.id, { status: "confirmed", error: null });
  } else if (last?.status === "signed") return last;
  const balance = await balanceOf(relay, deposit);
  const amount = await amountToSweep(db, address, policy, balance);
  if (amount === 0n) return null;
  const sequence = (last?.sequence ?? 0) + 1;
  return insertSweep(db, {
    deposit_address: address,
    sequence,
    nonce: sweepNonce(deposit, sequence),
    destination,
    amount,
  });
}

/**
 * Moves the sweep by the relayer's procedure (sign, simulate, submit) with the sweep marked
 * submitted and its check queued atomically; USDC's refusal (domain/usdcRefusal.ts) decides
 * the rest. A failure is recorded on the sweep before the job retries.
 */
async function submitSweep(db: Executor, deps: SweepDeps, initial: SweepRow): Promise<void> {
  const { relay, policy, log } = deps;
  let row = initial;
  const deposit = getAddress(row.deposit_address);
  const index = await findDerivationIndex(db, row.deposit_address);
  if (index === undefined) return;
  const signer = deriveAccount(relay.mnemonic, DEPOSIT_ACCOUNT, index);
  try {
    // Counted in the merchant's and the service's daily gas budgets, never refused by them:
    // a sweep moves the merchant's own money, already paid for by a real transfer of at
    // least SWEEP_MIN_AMOUNT (docs/operations.md, "The relayer's gas budget").
    const merchantId = await merchantOfDepositAddress(db, row.deposit_address);
    // Twice at most: once more when the address holds another amount than the sweep's.
    for (let round = 0; round < 2; round++) {
      const sweep = row;
      const moved = await relay.move({
        authorization: {
          signer,
          from: deposit,
          to: getAddress(sweep.destination),
          value: sweep.amount,
          nonce: sweep.nonce as Hex,
        },
        purpose: sweepPurpose(sweep.id, sweep.attempts + 1),
        merchantId,
        record: async (trx, relayed) => {
          await updateSweep(
            trx,
            sweep.id,
            {
              status: "submitted",
              tx_hash: relayed.hashes[0] ?? null,
              relayer_nonce: relayed.nonce,
              attempt: true,
              error: null,
            },
            "signed",
          );
          await queueJob(
            trx,
            TASK.checkSweep,
            { sweep_id: sweep.id },
            { jobKey: jobKey.sweepCheck(sweep.id), runAt: new Date(Date.now() + SWEEP_CHECK_MS) },
          );
        },
      });
      if (moved.submitted) {
        log.info(
          `submitted sweep ${sweep.sequence} of ${sweep.amount} USDC units from ${deposit} to ${sweep.destination}`,
        );
        return;
      }
      const verdict = signedTransferVerdict(moved.refusal);
      if (verdict === "permanent") {
        await failForGood(db, sweep, `USDC refuses the transfer: ${moved.reason}`);
        log.error(
          `sweep ${sweep.sequence} of ${deposit} to ${sweep.destination} failed for good: USDC refuses it`,
        );
        return;
      }
      if (verdict === "done") {
        await updateSweep(db, sweep.id, { status: "confirmed", error: null });
        await deps.queueNextRound(sweep.deposit_address);
        return;
      }
      if (verdict === "stale") {
        // The address holds another amount (a payment reorged out, or forgotten by a local
        // chain that lost its last seconds): the same nonce, so still one transfer at most,
        // signed anew for what the policy now says is settled (a signed sweep counts as moving
        // nothing: app/sweeps/sweepDecision.ts).
        const balance = await balanceOf(relay, deposit);
        const amount = await amountToSweep(db, sweep.deposit_address, policy, balance);
        if (amount > 0n && amount !== sweep.amount) {
          row = await updateSweepAmount(db, sweep.id, amount);
          continue;
        }
        if (amount === 0n) {
          // Nothing of it is on the address any more: no retry can move it. It stays signed,
          // not failed (nobody is to blame, nobody to tell), its nonce the address's next; the
          // next payment to the address queues this job again, which signs it anew for what
          // is due then.
          await updateSweep(db, sweep.id, { error: null });
          log.warn(
            `sweep ${sweep.sequence} of ${deposit} left for later: the address no longer holds what it was signed for (${balance} of ${sweep.amount} USDC units), and nothing else is due`,
          );
          return;
        }
      }
      throw moved.revert ?? new Error(moved.reason);
    }
  } catch (error) {
    await updateSweep(db, row.id, { error: relay.describeFailure(error) });
    throw error;
  }
}

function balanceOf(relay: SweepRelay, deposit: Address): Promise<bigint> {
  return relay.chain.readContract({
    address: USDC_ADDRESS,
    abi: usdcAbi,
    functionName: "balanceOf",
    args: [deposit],
  });
}

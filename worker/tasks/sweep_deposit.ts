import type { JobHelpers, Task } from "graphile-worker";
import { type Address, encodeFunctionData, getAddress, type Hex } from "viem";
import { z } from "zod";
import { usdcAbi } from "../../abis/usdc.ts";
import {
  classifyChainError,
  summarizeChainError,
  usdcTransferVerdict,
} from "../../chain/errors.ts";
import type { Executor } from "../../db/database.ts";
import { findDerivationIndex } from "../../db/queries/depositAddresses.ts";
import { queueJob } from "../../db/queries/jobs.ts";
import { merchantOfDepositAddress } from "../../db/queries/relayerGas.ts";
import {
  findLastSweep,
  findSweepDestination,
  insertSweep,
  queueSweepFailedEmail,
  type SweepRow,
  tryLockSweeps,
  unlockSweeps,
  updateSweep,
  updateSweepAmount,
} from "../../db/queries/sweeps.ts";
import { USDC_ADDRESS } from "../../domain/constants.ts";
import { jobKey, TASK } from "../../domain/jobs.ts";
import { sweepNonce } from "../../domain/sweepNonce.ts";
import {
  transferAuthorizationTypedData,
  transferWithAuthorizationArgs,
} from "../../domain/usdcAuthorization.ts";
import { DEPOSIT_ACCOUNT, deriveAccount } from "../../keys/hdWallet.ts";
import type { WorkerDeps } from "../deps.ts";
import { submitRelayed } from "../relayer/submit.ts";
import { amountToSweep } from "../sweepDecision.ts";
import { parsePayload } from "./payload.ts";

const Payload = z.object({ address: z.string().regex(/^0x[0-9a-f]{40}$/) });

/** How soon a submitted sweep's transaction is looked at (check_sweep), and again while pending. */
export const SWEEP_CHECK_MS = 1_000;

/** The relayed transaction of a sweep's nth submission (app.relayer_transactions.purpose). */
export const sweepPurpose = (sweepId: string, submission: number) =>
  `sweep:${sweepId}:${submission}`;

type Sweeping = NonNullable<WorkerDeps["sweep"]>;

/**
 * Moves a deposit address's settled USDC to the merchant's wallet (the byo address or
 * the managed wallet): the deposit key signs an EIP-3009 transferWithAuthorization whose
 * nonce is derived from the address and the sweep's sequence number, and the relayer submits
 * it and pays the gas. A retried, duplicated or concurrent job signs the same authorization,
 * which USDC executes once; a session advisory lock keeps two runs from even trying at once.
 *
 * Submit, then check: this job simulates the transfer, hands it to the relayer (one nonce
 * sequence, worker/relayer/submit.ts) and queues check_sweep, in one transaction with the
 * sweep marked submitted; it never waits for a block. check_sweep confirms it, or hands it
 * back here to be submitted again.
 *
 * A transfer USDC refuses for good (a blacklisted party, the zero address) is marked failed,
 * the invoice's merchant is told by email, and it is not retried; a later payment to the
 * address (or `remit deposits sweep`) tries again with everything the address holds. Any other
 * failure (no ETH for gas, an RPC error) is retried with graphile-worker's backoff.
 */
export function sweepDeposit(deps: WorkerDeps): Task {
  return async (payload, helpers) => {
    const parsed = parsePayload(Payload, payload, helpers);
    if (!parsed || !deps.sweep) return;
    const sweeping = deps.sweep;
    const { address } = parsed;
    await deps.db.connection().execute(async (connection) => {
      // Another run is sweeping this address right now; its check queues the next round.
      if (!(await tryLockSweeps(connection, address))) return;
      try {
        const row = await nextSweep(connection, sweeping, deps.sweepPolicy, address);
        if (row) await submitSweep(connection, sweeping, deps.sweepPolicy, row, helpers);
      } finally {
        await unlockSweeps(connection, address);
      }
    });
  };
}

/**
 * The sweep to submit now: the last one, when it is signed but not submitted (a failed or
 * handed-back submission), or a new one for what the sweep policy says is settled
 * (domain/sweepPolicy.ts: never a partial payment the payer may still be completing, nor held
 * excess or dust); none while one is submitted (its check carries it on) or when nothing is due.
 */
async function nextSweep(
  db: Executor,
  sweeping: Sweeping,
  policy: WorkerDeps["sweepPolicy"],
  address: string,
): Promise<SweepRow | null> {
  const destination = await findSweepDestination(db, address);
  if (!destination) return null;
  const deposit = getAddress(address);
  const last = await findLastSweep(db, address);
  if (last?.status === "submitted") return null;
  if (last && last.status !== "confirmed" && (await authorizationUsed(sweeping, last))) {
    // Executed after all (an earlier submission of the same authorization was mined).
    await updateSweep(db, last.id, { status: "confirmed", error: null });
  } else if (last?.status === "signed") return last;
  const balance = await balanceOf(sweeping, deposit);
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
 * Signs the sweep's authorization, simulates it (USDC's revert reason decides what a refusal
 * means), and submits it through the relayer with the sweep marked submitted and its check
 * queued atomically. A failure is recorded on the sweep before the job retries.
 */
async function submitSweep(
  db: Executor,
  sweeping: Sweeping,
  policy: WorkerDeps["sweepPolicy"],
  initial: SweepRow,
  helpers: JobHelpers,
): Promise<void> {
  let row = initial;
  const deposit = getAddress(row.deposit_address);
  const index = await findDerivationIndex(db, row.deposit_address);
  if (index === undefined) return;
  const signer = deriveAccount(sweeping.mnemonic, DEPOSIT_ACCOUNT, index);
  try {
    // Twice at most: once more when the address holds another amount than the sweep's.
    for (let round = 0; round < 2; round++) {
      const message = {
        from: deposit,
        to: getAddress(row.destination),
        value: row.amount,
        validAfter: 0n,
        validBefore: BigInt(Math.floor(Date.now() / 1000) + 3600),
        nonce: row.nonce as Hex,
      };
      const signature = await signer.signTypedData(transferAuthorizationTypedData(message));
      const args = transferWithAuthorizationArgs(message, signature);
      const verdict = await sweeping.chain
        .simulateContract({
          account: sweeping.relayer.account,
          address: USDC_ADDRESS,
          abi: usdcAbi,
          functionName: "transferWithAuthorization",
          args,
        })
        .then(
          () => "ok" as const,
          (error: unknown) => ({ error, verdict: usdcTransferVerdict(error) }),
        );
      if (verdict !== "ok") {
        if (verdict.verdict === "permanent") {
          const reason = classifyChainError(verdict.error);
          await failForGood(
            db,
            row,
            `USDC refuses the transfer: ${reason.kind === "reverted" ? reason.reason : summarizeChainError(verdict.error)}`,
          );
          helpers.logger.error(
            `sweep ${row.sequence} of ${deposit} to ${row.destination} failed for good: USDC refuses it`,
          );
          return;
        }
        if (verdict.verdict === "done") {
          await updateSweep(db, row.id, { status: "confirmed", error: null });
          await queueNextRound(helpers, row.deposit_address);
          return;
        }
        if (verdict.verdict === "stale") {
          // The address holds another amount (a payment reorged out): the same nonce, so
          // still one transfer at most, signed anew for what the policy now says is settled.
          const balance = await balanceOf(sweeping, deposit);
          const amount = await amountToSweep(db, row.deposit_address, policy, balance);
          if (amount > 0n && amount !== row.amount) {
            row = await updateSweepAmount(db, row.id, amount);
            continue;
          }
        }
        throw verdict.error;
      }
      const data = encodeFunctionData({
        abi: usdcAbi,
        functionName: "transferWithAuthorization",
        args,
      });
      const sweep = row;
      // Counted in the merchant's and the service's daily gas budgets, never refused by them:
      // a sweep moves the merchant's own money, already paid for by a real transfer of at
      // least SWEEP_MIN_AMOUNT (docs/operations.md, "The relayer's gas budget").
      const merchantId = await merchantOfDepositAddress(db, sweep.deposit_address);
      await submitRelayed(
        sweeping.relayer,
        {
          purpose: sweepPurpose(sweep.id, sweep.attempts + 1),
          to: USDC_ADDRESS,
          data,
          ...(merchantId ? { merchantId } : {}),
        },
        async (trx, relayed) => {
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
      );
      helpers.logger.info(
        `submitted sweep ${sweep.sequence} of ${sweep.amount} USDC units from ${deposit} to ${sweep.destination}`,
      );
      return;
    }
  } catch (error) {
    const message = summarizeChainError(error).split("\n")[0] ?? "";
    const explained =
      classifyChainError(error).kind === "insufficient_funds"
        ? `the relayer has too little ETH for gas: ${message}`
        : message;
    await updateSweep(db, row.id, { error: explained.slice(0, 2000) });
    throw error;
  }
}

/** Marks a sweep failed for good and queues its merchant's email, together. */
export async function failForGood(db: Executor, row: SweepRow, reason: string): Promise<void> {
  const run = async (trx: Executor) => {
    if (await updateSweep(trx, row.id, { status: "failed", error: reason.slice(0, 2000) }))
      await queueSweepFailedEmail(trx, row);
  };
  // On a bare connection (the sweep job's), open a transaction; in one already, use it.
  if (db.isTransaction) await run(db);
  else await db.transaction().execute(run);
}

/** A sweep of the address again: funds that arrived while the last one was in flight. */
export async function queueNextRound(helpers: JobHelpers, address: string): Promise<void> {
  await helpers.addJob(TASK.sweepDeposit, { address }, { jobKey: jobKey.sweep(address) });
}

/** Whether USDC has used the sweep's authorization (its transfer executed). */
export async function authorizationUsed(sweeping: Sweeping, row: SweepRow): Promise<boolean> {
  return sweeping.chain.readContract({
    address: USDC_ADDRESS,
    abi: usdcAbi,
    functionName: "authorizationState",
    args: [getAddress(row.deposit_address), row.nonce as Hex],
  });
}

function balanceOf(sweeping: Sweeping, deposit: Address): Promise<bigint> {
  return sweeping.chain.readContract({
    address: USDC_ADDRESS,
    abi: usdcAbi,
    functionName: "balanceOf",
    args: [deposit],
  });
}

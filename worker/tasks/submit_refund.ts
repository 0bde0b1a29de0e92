import type { JobHelpers, Task } from "graphile-worker";
import { encodeFunctionData, getAddress, type Hex, type LocalAccount } from "viem";
import { z } from "zod";
import { usdcAbi } from "../../abis/usdc.ts";
import {
  classifyChainError,
  summarizeChainError,
  usdcTransferVerdict,
} from "../../chain/errors.ts";
import type { Executor } from "../../db/database.ts";
import { findDerivationIndex } from "../../db/queries/depositAddresses.ts";
import { queueJob, queueSweep } from "../../db/queries/jobs.ts";
import {
  expireRefundClaim,
  findManagedWalletKey,
  findRefund,
  type RefundRow,
  updateRefund,
} from "../../db/queries/refunds.ts";
import { tryLockSweeps, unlockSweeps } from "../../db/queries/sweeps.ts";
import { USDC_ADDRESS } from "../../domain/constants.ts";
import { jobKey, TASK } from "../../domain/jobs.ts";
import {
  transferAuthorizationTypedData,
  transferWithAuthorizationArgs,
} from "../../domain/usdcAuthorization.ts";
import { DEPOSIT_ACCOUNT, deriveAccount, managedWalletAccount } from "../../keys/hdWallet.ts";
import type { WorkerDeps } from "../deps.ts";
import { submitRelayed } from "../relayer/submit.ts";
import { failRefund } from "./check_refund.ts";
import { parsePayload } from "./payload.ts";

const Payload = z.object({ refund_id: z.uuid() });

/** How soon a submitted refund is looked at (check_refund), and a busy address tried again. */
export const REFUND_CHECK_MS = 1_000;

/** The relayed transaction of a refund's nth submission (app.relayer_transactions.purpose). */
export const refundPurpose = (refundId: string, submission: number) =>
  `refund:${refundId}:${submission}`;

type Sweeping = NonNullable<WorkerDeps["sweep"]>;

/**
 * Pays a requested refund: the key of the address it leaves from (the deposit's, or the
 * merchant's managed wallet's) signs an EIP-3009 transferWithAuthorization whose nonce was fixed
 * when the refund was recorded (domain/refundNonce.ts), the relayer submits it (its one nonce
 * sequence, worker/relayer/submit.ts) with the refund marked submitted and its check queued in
 * the same transaction, and the job returns: check_refund follows it. However often this runs
 * (a retry, a worker killed mid-way and its job run again), USDC executes the authorization
 * once. A deposit's refund holds the address's sweep lock while it signs and submits, so a
 * sweep and a refund of one address never interleave.
 *
 * Also the end of a claim link (queued for its expiry): a refund still waiting for the payer's
 * address fails, and the money it held is free again (refundable, or swept when settled).
 */
export function submitRefund(deps: WorkerDeps): Task {
  return async (payload, helpers) => {
    const parsed = parsePayload(Payload, payload, helpers);
    if (!parsed) return;
    const refund = await findRefund(deps.db, parsed.refund_id);
    if (refund?.status !== "requested") return;
    if (!refund.to_address) {
      const expired = await deps.db
        .transaction()
        .execute((trx) => failExpired(trx, refund.id, refund.from_address));
      if (expired) helpers.logger.info(`refund ${refund.id}: its claim link expired unclaimed`);
      return;
    }
    if (!deps.sweep) {
      await failRefund(deps.db, refund, "this service has no relayer to pay refunds with");
      return;
    }
    const sweeping = deps.sweep;
    await deps.db.connection().execute(async (connection) => {
      if (!(await tryLockSweeps(connection, refund.from_address))) {
        // A sweep (or another refund) of this address is being submitted: after it.
        await helpers.addJob(
          TASK.submitRefund,
          { refund_id: refund.id },
          { jobKey: jobKey.refund(refund.id), runAt: new Date(Date.now() + REFUND_CHECK_MS) },
        );
        return;
      }
      try {
        await submit(connection, deps, sweeping, refund, helpers);
      } finally {
        await unlockSweeps(connection, refund.from_address);
      }
    });
  };
}

async function failExpired(trx: Executor, id: string, fromAddress: string): Promise<boolean> {
  const expired = await expireRefundClaim(trx, id);
  // What it held may be settled money the sweep policy now moves.
  if (expired) await queueSweep(trx, fromAddress);
  return expired !== undefined;
}

/** The account that signs for the refund's source address. */
async function signerOf(
  db: Executor,
  deps: WorkerDeps,
  sweeping: Sweeping,
  refund: RefundRow,
): Promise<LocalAccount | undefined> {
  if (refund.source === "deposit") {
    const index = await findDerivationIndex(db, refund.from_address);
    return index === undefined
      ? undefined
      : deriveAccount(sweeping.mnemonic, DEPOSIT_ACCOUNT, index);
  }
  const wallet = await findManagedWalletKey(db, refund.merchant_id);
  if (wallet?.address.toLowerCase() !== refund.from_address) return undefined;
  return managedWalletAccount(deps.managedWalletSeed, wallet.index, wallet.hardened);
}

async function submit(
  db: Executor,
  deps: WorkerDeps,
  sweeping: Sweeping,
  refund: RefundRow,
  helpers: JobHelpers,
): Promise<void> {
  const signer = await signerOf(db, deps, sweeping, refund);
  if (!signer || signer.address.toLowerCase() !== refund.from_address || !refund.to_address) {
    await failRefund(db, refund, "no key of this service signs for the refund's address");
    return;
  }
  const message = {
    from: getAddress(refund.from_address),
    to: getAddress(refund.to_address),
    value: refund.amount,
    validAfter: 0n,
    validBefore: BigInt(Math.floor(Date.now() / 1000) + 3600),
    nonce: refund.nonce as Hex,
  };
  const signature = await signer.signTypedData(transferAuthorizationTypedData(message));
  const args = transferWithAuthorizationArgs(message, signature);
  try {
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
      if (verdict.verdict === "done") {
        // An earlier submission was executed: its check (or this one) confirms it.
        await updateRefund(db, refund.id, { status: "submitted", error: null }, ["requested"]);
        await queueCheck(db, refund.id);
        return;
      }
      if (verdict.verdict === "permanent" || verdict.verdict === "stale") {
        const reason = classifyChainError(verdict.error);
        await failRefund(
          db,
          refund,
          verdict.verdict === "stale"
            ? `the address ${message.from} no longer holds ${refund.amount} USDC units`
            : `USDC refuses the transfer: ${reason.kind === "reverted" ? reason.reason : summarizeChainError(verdict.error)}`,
        );
        helpers.logger.error(`refund ${refund.id} failed for good: USDC refuses it`);
        return;
      }
      throw verdict.error;
    }
    const data = encodeFunctionData({
      abi: usdcAbi,
      functionName: "transferWithAuthorization",
      args,
    });
    const relayed = await submitRelayed(
      sweeping.relayer,
      // Reserved against the budgets when it was requested (api/refunds/createRefund.ts); a
      // submission is never refused here, or an accepted refund could be stranded.
      {
        purpose: refundPurpose(refund.id, refund.attempts + 1),
        to: USDC_ADDRESS,
        data,
        merchantId: refund.merchant_id,
      },
      async (trx, submitted) => {
        await updateRefund(
          trx,
          refund.id,
          { status: "submitted", tx_hash: submitted.hashes[0] ?? null, attempt: true, error: null },
          ["requested"],
        );
        await queueCheck(trx, refund.id);
      },
    );
    helpers.logger.info(
      `submitted refund ${refund.id}: ${refund.amount} USDC units from ${message.from} to ${message.to} in ${relayed.hashes[0]}`,
    );
  } catch (error) {
    const text = summarizeChainError(error).split("\n")[0] ?? "";
    const explained =
      classifyChainError(error).kind === "insufficient_funds"
        ? `the relayer has too little ETH for gas: ${text}`
        : text;
    await updateRefund(db, refund.id, { error: explained.slice(0, 2000) }, ["requested"]);
    throw error;
  }
}

const queueCheck = (db: Executor, refundId: string) =>
  queueJob(
    db,
    TASK.checkRefund,
    { refund_id: refundId },
    { jobKey: jobKey.refundCheck(refundId), runAt: new Date(Date.now() + REFUND_CHECK_MS) },
  );

import { getAddress, type Hex, type LocalAccount } from "viem";
import type { Db, Executor } from "../../db/database.ts";
import { findDerivationIndex } from "../../db/queries/depositAddresses.ts";
import { queueSweep } from "../../db/queries/jobs.ts";
import {
  expireRefundClaim,
  findManagedWalletKey,
  findRefund,
  type RefundRow,
  updateRefund,
} from "../../db/queries/refunds.ts";
import { tryLockSweeps, unlockSweeps } from "../../db/queries/sweeps.ts";
import { jobKey, TASK } from "../../domain/jobs.ts";
import { signedTransferVerdict } from "../../domain/usdcRefusal.ts";
import { DEPOSIT_ACCOUNT, deriveAccount, managedWalletAccount } from "../../keys/hdWallet.ts";
import type { JobLog } from "../jobLog.ts";
import type { AddJob } from "../jobQueue.ts";
import type { Relay } from "../relay.ts";
import { failRefund, queueRefundCheck, REFUND_CHECK_MS, refundPurpose } from "./execution.ts";

/** The relayer's one procedure and the deposit keys' seed: what only the worker holds. */
type RefundRelay = Relay & { mnemonic: string };

/** What paying a refund needs from the worker's process. */
export type SubmitRefundDeps = {
  db: Db;
  /** The service seed, for the managed wallets' hardened derivation (never in the API). */
  managedWalletSeed: string;
  /** Absent without a relayer (the refund fails). */
  relay: RefundRelay | undefined;
  /** Queues this refund's submission again, after the address's sweep lock's holder. */
  addJob: AddJob;
  log: JobLog;
};

/**
 * Pays a requested refund: the key of the address it leaves from (the deposit's, or the
 * merchant's managed wallet's) signs an EIP-3009 transferWithAuthorization whose nonce was fixed
 * when the refund was recorded (domain/refundNonce.ts), the relayer submits it (its one
 * procedure, worker/relayer/moveByAuthorization.ts) with the refund marked submitted and its
 * check queued in the same transaction, and the job returns: check_refund follows it. However
 * often this runs (a retry, a worker killed mid-way and its job run again), USDC executes the
 * authorization once. A deposit's refund holds the address's sweep lock while it signs and submits, so a
 * sweep and a refund of one address never interleave.
 *
 * Also the end of a claim link (queued for its expiry): a refund still waiting for the payer's
 * address fails, and the money it held is free again (refundable, or swept when settled).
 */
export async function submitRefund(deps: SubmitRefundDeps, refundId: string): Promise<void> {
  const refund = await findRefund(deps.db, refundId);
  if (refund?.status !== "requested") return;
  if (!refund.to_address) {
    const expired = await deps.db
      .transaction()
      .execute((trx) => failExpired(trx, refund.id, refund.from_address));
    if (expired) deps.log.info(`refund ${refund.id}: its claim link expired unclaimed`);
    return;
  }
  if (!deps.relay) {
    await failRefund(deps.db, refund, "this service has no relayer to pay refunds with");
    return;
  }
  const relay = deps.relay;
  await deps.db.connection().execute(async (connection) => {
    if (!(await tryLockSweeps(connection, refund.from_address))) {
      // A sweep (or another refund) of this address is being submitted: after it.
      await deps.addJob(
        TASK.submitRefund,
        { refund_id: refund.id },
        { jobKey: jobKey.refund(refund.id), runAt: new Date(Date.now() + REFUND_CHECK_MS) },
      );
      return;
    }
    try {
      await submit(connection, deps, relay, refund);
    } finally {
      await unlockSweeps(connection, refund.from_address);
    }
  });
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
  deps: SubmitRefundDeps,
  relay: RefundRelay,
  refund: RefundRow,
): Promise<LocalAccount | undefined> {
  if (refund.source === "deposit") {
    const index = await findDerivationIndex(db, refund.from_address);
    return index === undefined ? undefined : deriveAccount(relay.mnemonic, DEPOSIT_ACCOUNT, index);
  }
  const wallet = await findManagedWalletKey(db, refund.merchant_id);
  if (wallet?.address.toLowerCase() !== refund.from_address) return undefined;
  return managedWalletAccount(deps.managedWalletSeed, wallet.index, wallet.hardened);
}

async function submit(
  db: Executor,
  deps: SubmitRefundDeps,
  relay: RefundRelay,
  refund: RefundRow,
): Promise<void> {
  const signer = await signerOf(db, deps, relay, refund);
  if (!signer || signer.address.toLowerCase() !== refund.from_address || !refund.to_address) {
    await failRefund(db, refund, "no key of this service signs for the refund's address");
    return;
  }
  const from = getAddress(refund.from_address);
  const to = getAddress(refund.to_address);
  try {
    const moved = await relay.move({
      authorization: { signer, from, to, value: refund.amount, nonce: refund.nonce as Hex },
      purpose: refundPurpose(refund.id, refund.attempts + 1),
      // Reserved against the budgets when it was requested (app/refunds/createRefund.ts); a
      // submission is never refused here, or an accepted refund could be stranded.
      merchantId: refund.merchant_id,
      record: async (trx, submitted) => {
        await updateRefund(
          trx,
          refund.id,
          { status: "submitted", tx_hash: submitted.hashes[0] ?? null, attempt: true, error: null },
          ["requested"],
        );
        await queueRefundCheck(trx, refund.id);
      },
    });
    if (moved.submitted) {
      deps.log.info(
        `submitted refund ${refund.id}: ${refund.amount} USDC units from ${from} to ${to} in ${moved.relayed.hashes[0]}`,
      );
      return;
    }
    const verdict = signedTransferVerdict(moved.refusal);
    if (verdict === "done") {
      // An earlier submission was executed: its check (or this one) confirms it.
      await updateRefund(db, refund.id, { status: "submitted", error: null }, ["requested"]);
      await queueRefundCheck(db, refund.id);
      return;
    }
    if (verdict === "permanent" || verdict === "stale") {
      await failRefund(
        db,
        refund,
        verdict === "stale"
          ? `the address ${from} no longer holds ${refund.amount} USDC units`
          : `USDC refuses the transfer: ${moved.reason}`,
      );
      deps.log.error(`refund ${refund.id} failed for good: USDC refuses it`);
      return;
    }
    throw moved.revert ?? new Error(moved.reason);
  } catch (error) {
    await updateRefund(db, refund.id, { error: relay.describeFailure(error) }, ["requested"]);
    throw error;
  }
}

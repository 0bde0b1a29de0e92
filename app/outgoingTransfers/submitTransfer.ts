import { getAddress, type Hex, type LocalAccount } from "viem";
import type { Db, Executor } from "../../db/database.ts";
import { findManagedWalletKey } from "../../db/queries/refunds.ts";
import { tryLockSweeps, unlockSweeps } from "../../db/queries/sweeps.ts";
import { signedTransferVerdict } from "../../domain/usdcRefusal.ts";
import { managedWalletAccount } from "../../keys/hdWallet.ts";
import type { JobLog } from "../jobLog.ts";
import type { AddJob } from "../jobQueue.ts";
import type { Relay } from "../relay.ts";
import {
  addTransferJob,
  failTransfer,
  type OutgoingTransferKind,
  type OutgoingTransferRow,
  queueTransferCheck,
  submitJob,
  transferPurpose,
} from "./outgoingTransfer.ts";

/** What submitting a transfer out needs from the worker's process. */
export type SubmitTransferDeps<R extends Relay = Relay> = {
  db: Db;
  /** The service seed, for the managed wallets' hardened derivation (never in the API). */
  managedWalletSeed: string;
  /** The relayer's one procedure; absent without a relayer (the transfer fails). */
  relay: R | undefined;
  /** Queues the transfer's submission again, after the spending lock's holder. */
  addJob: AddJob;
  log: JobLog;
};

/** The key of a transfer's source address, and how its error column names that address. */
export type TransferSigner = {
  of: (db: Executor) => Promise<LocalAccount | undefined>;
  /** The reason when no key of this service signs for the source address. */
  noSigner: string;
  /** The source address as a "no longer holds" reason names it ("the address", …). */
  source: string;
};

/**
 * Submits a requested transfer out under its address's spending lock (the one sweeps, refunds
 * and payouts out of the address take, so two of them never interleave): `signing.of` gives the
 * key of its source address, the relayer submits the signed authorization (its one procedure,
 * worker/relayer/moveByAuthorization.ts) with the transfer marked submitted and its check queued
 * in the same transaction. However often this runs (a retry, a worker killed mid-way and its job
 * run again), USDC executes the authorization once. A busy address queues the submission again a
 * moment later; a failure the chain may clear is noted on the row and thrown, for the job's retry.
 */
export async function submitTransfer<Row extends OutgoingTransferRow>(
  deps: SubmitTransferDeps,
  kind: OutgoingTransferKind<Row>,
  relay: Relay,
  transfer: Row,
  signing: TransferSigner,
): Promise<void> {
  await deps.db.connection().execute(async (connection) => {
    if (!(await tryLockSweeps(connection, transfer.from_address))) {
      // Another transfer out of this address (a sweep, a refund, a payout) is being submitted: after it.
      await addTransferJob(deps.addJob, submitJob(kind, transfer.id, "later"));
      return;
    }
    try {
      await submit(connection, deps, { kind, relay, transfer, signing });
    } finally {
      await unlockSweeps(connection, transfer.from_address);
    }
  });
}

/** One submission of submitTransfer's, under its address's lock. */
async function submit<Row extends OutgoingTransferRow>(
  db: Executor,
  deps: SubmitTransferDeps,
  {
    kind,
    relay,
    transfer,
    signing,
  }: { kind: OutgoingTransferKind<Row>; relay: Relay; transfer: Row; signing: TransferSigner },
): Promise<void> {
  const signer = await signing.of(db);
  if (!signer || signer.address.toLowerCase() !== transfer.from_address || !transfer.to_address) {
    await failTransfer(db, kind, transfer, signing.noSigner);
    return;
  }
  const from = getAddress(transfer.from_address);
  const to = getAddress(transfer.to_address);
  try {
    const moved = await relay.move({
      authorization: { signer, from, to, value: transfer.amount, nonce: transfer.nonce as Hex },
      purpose: transferPurpose(kind, transfer.id, transfer.attempts + 1),
      // Reserved against the budgets when it was requested (app/refunds/createRefund.ts,
      // app/payouts/createPayout.ts); a submission is never refused here, or an accepted
      // transfer could be stranded.
      merchantId: transfer.merchant_id,
      record: async (trx, submitted) => {
        await kind.update(
          trx,
          transfer.id,
          { status: "submitted", tx_hash: submitted.hashes[0] ?? null, attempt: true, error: null },
          ["requested"],
        );
        await queueTransferCheck(trx, kind, transfer.id);
      },
    });
    if (moved.submitted) {
      deps.log.info(
        `submitted ${kind.name} ${transfer.id}: ${transfer.amount} USDC units from ${from} to ${to} in ${moved.relayed.hashes[0]}`,
      );
      return;
    }
    const verdict = signedTransferVerdict(moved.refusal);
    if (verdict === "done") {
      // An earlier submission was executed: its check (or this one) confirms it.
      await kind.update(db, transfer.id, { status: "submitted", error: null }, ["requested"]);
      await queueTransferCheck(db, kind, transfer.id);
      return;
    }
    if (verdict === "permanent" || verdict === "stale") {
      await failTransfer(
        db,
        kind,
        transfer,
        verdict === "stale"
          ? `${signing.source} ${from} no longer holds ${transfer.amount} USDC units`
          : `USDC refuses the transfer: ${moved.reason}`,
      );
      deps.log.error(`${kind.name} ${transfer.id} failed for good: USDC refuses it`);
      return;
    }
    throw moved.revert ?? new Error(moved.reason);
  } catch (error) {
    await kind.update(db, transfer.id, { error: relay.describeFailure(error) }, ["requested"]);
    throw error;
  }
}

/** The key of the merchant's managed wallet, when it is the transfer's source address. */
export async function managedWalletSigner(
  db: Executor,
  managedWalletSeed: string,
  transfer: OutgoingTransferRow,
): Promise<LocalAccount | undefined> {
  const wallet = await findManagedWalletKey(db, transfer.merchant_id);
  if (wallet?.address.toLowerCase() !== transfer.from_address) return undefined;
  return managedWalletAccount(managedWalletSeed, wallet.index, wallet.hardened);
}

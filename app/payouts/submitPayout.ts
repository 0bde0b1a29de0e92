import type { Db } from "../../db/database.ts";
import { findPayout } from "../../db/queries/payouts.ts";
import type { JobLog } from "../jobLog.ts";
import type { AddJob } from "../jobQueue.ts";
import { failTransfer } from "../outgoingTransfers/outgoingTransfer.ts";
import { managedWalletSigner, submitTransfer } from "../outgoingTransfers/submitTransfer.ts";
import type { Relay } from "../relay.ts";
import { PAYOUT } from "./execution.ts";

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
 * whose nonce was fixed when the payout was recorded (domain/refundNonce.ts payoutNonce), and
 * app/outgoingTransfers/submitTransfer.ts submits it under the wallet's spending lock (the one
 * refunds out of the wallet take); check_payout follows it.
 */
export async function submitPayout(deps: SubmitPayoutDeps, payoutId: string): Promise<void> {
  const payout = await findPayout(deps.db, payoutId);
  if (payout?.status !== "requested") return;
  if (!deps.relay) {
    await failTransfer(deps.db, PAYOUT, payout, "this service has no relayer to pay out with");
    return;
  }
  await submitTransfer(deps, PAYOUT, deps.relay, payout, {
    of: (db) => managedWalletSigner(db, deps.managedWalletSeed, payout),
    noSigner: "no key of this service signs for the managed wallet",
    source: "the managed wallet",
  });
}

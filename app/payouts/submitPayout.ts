import { findPayout } from "../../db/queries/payouts.ts";
import { failTransfer } from "../outgoingTransfers/outgoingTransfer.ts";
import {
  managedWalletSigner,
  type SubmitTransferDeps,
  submitTransfer,
} from "../outgoingTransfers/submitTransfer.ts";
import { PAYOUT } from "./execution.ts";

/** What paying a payout needs from the worker's process (submit_payout). */
export type SubmitPayoutDeps = SubmitTransferDeps;

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

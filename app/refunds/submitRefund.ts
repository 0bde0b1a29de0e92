import type { LocalAccount } from "viem";
import type { Executor } from "../../db/database.ts";
import { findDerivationIndex } from "../../db/queries/depositAddresses.ts";
import { queueSweep } from "../../db/queries/jobs.ts";
import { expireRefundClaim, findRefund, type RefundRow } from "../../db/queries/refunds.ts";
import { DEPOSIT_ACCOUNT, deriveAccount } from "../../keys/hdWallet.ts";
import { failTransfer } from "../outgoingTransfers/outgoingTransfer.ts";
import {
  managedWalletSigner,
  type SubmitTransferDeps,
  submitTransfer,
} from "../outgoingTransfers/submitTransfer.ts";
import type { Relay } from "../relay.ts";
import { REFUND } from "./execution.ts";

/** The relayer's one procedure and the deposit keys' seed: what only the worker holds. */
type RefundRelay = Relay & { mnemonic: string };

/** What paying a refund needs from the worker's process (submit_refund). */
export type SubmitRefundDeps = SubmitTransferDeps<RefundRelay>;

/**
 * Pays a requested refund: the key of the address it leaves from (the deposit's, or the
 * merchant's managed wallet's) signs an EIP-3009 transferWithAuthorization whose nonce was fixed
 * when the refund was recorded (domain/refundNonce.ts), and app/outgoingTransfers/submitTransfer.ts
 * submits it under the address's sweep lock, so a sweep and a refund of one address never
 * interleave; check_refund follows it.
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
    await failTransfer(deps.db, REFUND, refund, "this service has no relayer to pay refunds with");
    return;
  }
  const { mnemonic } = deps.relay;
  await submitTransfer(deps, REFUND, deps.relay, refund, {
    of: (db) => signerOf(db, deps.managedWalletSeed, mnemonic, refund),
    noSigner: "no key of this service signs for the refund's address",
    source: "the address",
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
  managedWalletSeed: string,
  mnemonic: string,
  refund: RefundRow,
): Promise<LocalAccount | undefined> {
  if (refund.source !== "deposit") return managedWalletSigner(db, managedWalletSeed, refund);
  const index = await findDerivationIndex(db, refund.from_address);
  return index === undefined ? undefined : deriveAccount(mnemonic, DEPOSIT_ACCOUNT, index);
}

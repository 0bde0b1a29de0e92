import { getAddress } from "viem";
import { recordAudit } from "../../db/queries/audit.ts";
import { findDerivationIndex } from "../../db/queries/depositAddresses.ts";
import { queueAccountEmail } from "../../db/queries/emails.ts";
import { findManagedWallet, findMerchantEmail } from "../../db/queries/merchants.ts";
import {
  addPayoutWallet,
  listPayoutWallets,
  type PayoutWalletRow,
  removePayoutWallet,
} from "../../db/queries/payoutWallets.ts";
import { USDC_ADDRESS } from "../../domain/constants.ts";
import { type Actor, auditActor, type MerchantActor } from "../actor.ts";
import { ownMerchantId } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import { emailOwners } from "../members/ownerNotice.ts";
import { validationError } from "../refusal.ts";

export type { PayoutWalletRow };

/**
 * Registers a payout wallet of the actor's merchant (an EIP-55 address, already validated):
 * refused for addresses a sweep can never pay out to; audited and the merchant emailed in the
 * same transaction (no wallet is added without its email queued). POST /api/merchant/wallets
 * and the dashboard's settings page.
 */
export async function addOwnPayoutWallet(
  deps: Pick<CoreDeps, "db" | "log">,
  actor: MerchantActor,
  address: string,
): Promise<{ wallet: PayoutWalletRow; added: boolean }> {
  await assertUsableWallet(deps, address);
  const { identity } = actor;
  const result = await deps.db.transaction().execute(async (trx) => {
    const outcome = await addPayoutWallet(trx, identity.merchantId, address);
    if (!outcome.added) return outcome;
    await recordAudit(trx, {
      merchantId: identity.merchantId,
      ...auditActor(identity),
      action: "wallet.added",
      target: address,
      requestId: actor.requestId,
    });
    await queueAccountEmail(trx, {
      kind: "payout_wallet_added",
      recipient: await findMerchantEmail(trx, identity.merchantId),
      // The email names who added it: a key, or the dashboard (no key_id).
      details: identity.kind === "key" ? { address, key_id: identity.keyId } : { address },
    });
    return outcome;
  });
  if (result.added) deps.log.info("payout wallet added", { address });
  return result;
}

/** Removes one of the actor's merchant's payout wallets (audited); false when it had none such. */
export async function removeOwnPayoutWallet(
  deps: Pick<CoreDeps, "db">,
  actor: MerchantActor,
  address: string,
): Promise<boolean> {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return false;
  const { identity } = actor;
  return deps.db.transaction().execute(async (trx) => {
    const done = await removePayoutWallet(trx, identity.merchantId, address);
    if (done) {
      await recordAudit(trx, {
        merchantId: identity.merchantId,
        ...auditActor(identity),
        action: "wallet.removed",
        target: getAddress(address),
        requestId: actor.requestId,
      });
      await emailOwners(trx, identity, `the payout wallet ${getAddress(address)} was removed`);
    }
    return done;
  });
}

/** Addresses a sweep can never pay out to (or must not): refused at registration. */
async function assertUsableWallet(deps: Pick<CoreDeps, "db">, address: string): Promise<void> {
  const lower = address.toLowerCase();
  const refused = /^0x0{40}$/.test(lower)
    ? "is the zero address: funds sent there are lost"
    : lower === USDC_ADDRESS.toLowerCase()
      ? "is USDC's own contract, which cannot receive a sweep"
      : (await findDerivationIndex(deps.db, lower)) !== undefined
        ? "is one of Remit's deposit addresses"
        : null;
  if (refused) throw validationError([{ path: "address", code: "not_allowed", message: refused }]);
}

/** The actor's payout wallets, and its managed wallet (an address, or undefined without one). */
export async function payoutWalletsOf(deps: Pick<CoreDeps, "db">, actor: Actor) {
  const merchantId = ownMerchantId(actor.identity);
  const [wallets, managedWallet] = await Promise.all([
    listPayoutWallets(deps.db, merchantId),
    findManagedWallet(deps.db, merchantId),
  ]);
  return { wallets, managedWallet };
}

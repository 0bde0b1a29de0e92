import type { Db } from "../db/database.ts";
import { fillManagedWalletPool } from "../db/queries/managedWalletPool.ts";
import { managedWalletDeriver } from "../keys/hdWallet.ts";

/**
 * How many managed wallets wait, derived, for merchants' first managed invoices or links. Each
 * one taken queues a top-up that runs within milliseconds, so the pool only runs dry when no
 * worker has run for this many new merchants.
 */
export const MANAGED_WALLET_POOL_SIZE = 100;

/**
 * Tops the pool of managed wallets up to `target`: hardened derivation, which needs the seed,
 * so only the worker (its `provision_managed_wallets` job) and `npm start` (before the API
 * starts) run it. Returns how many it added.
 */
export async function topUpManagedWalletPool(
  db: Db,
  mnemonic: string,
  target = MANAGED_WALLET_POOL_SIZE,
): Promise<number> {
  let derive: ((index: number) => string) | undefined;
  return db.transaction().execute((trx) =>
    fillManagedWalletPool(trx, target, (index) => {
      // The seed is stretched only when an address is missing (most runs find the pool full).
      derive ??= managedWalletDeriver(mnemonic);
      return derive(index);
    }),
  );
}

import type { Task } from "graphile-worker";
import type { WorkerDeps } from "../deps.ts";
import { topUpManagedWalletPool } from "../managedWalletPool.ts";

/**
 * Derives managed wallets ahead into app.managed_wallet_pool, queued each time the API takes
 * one (db/migrations/0017). Idempotent: it only fills what is missing.
 */
export function provisionManagedWallets(deps: WorkerDeps): Task {
  return async (_payload, helpers) => {
    const added = await topUpManagedWalletPool(deps.db, deps.managedWalletSeed);
    if (added) helpers.logger.info(`derived ${added} managed wallets into the pool`);
  };
}

import { createDb } from "../db/database.ts";
import { createLogger } from "../internal/logger.ts";
import { topUpManagedWalletPool } from "../worker/managedWalletPool.ts";

const log = createLogger("remit");

/**
 * Tops up the pool of managed wallets before the API starts (the worker keeps it full
 * afterwards), so the first merchants never wait for a worker: the API cannot derive them.
 */
export async function fillManagedWalletPool(databaseUrl: string, mnemonic: string): Promise<void> {
  const db = createDb(databaseUrl, { max: 1 });
  try {
    const added = await topUpManagedWalletPool(db, mnemonic);
    if (added) log.info("managed wallets derived into the pool", { added });
  } finally {
    await db.destroy();
  }
}

import { sql, type Transaction } from "kysely";
import type { Database, Executor } from "../database.ts";

export type PooledWallet = { derivation_index: number; address: string };

/**
 * Takes the oldest address of the pool, or null when it is empty. Concurrent creations take
 * different ones (SKIP LOCKED); the delete wakes the worker to top the pool up (trigger).
 */
export async function takeManagedWallet(trx: Transaction<Database>): Promise<PooledWallet | null> {
  const { rows } = await sql<PooledWallet>`
    delete from app.managed_wallet_pool
    where derivation_index = (
      select derivation_index from app.managed_wallet_pool
      order by derivation_index
      limit 1
      for update skip locked
    )
    returning derivation_index, address`.execute(trx);
  return rows[0] ?? null;
}

/** How many addresses wait in the pool. */
export async function countPooledWallets(db: Executor): Promise<number> {
  const row = await db
    .selectFrom("app.managed_wallet_pool")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Adds `count` addresses to the pool, each at the next index of the managed wallets' sequence
 * and derived by `derive`. Holds a transaction-scoped advisory lock, so two top-ups (the worker's
 * and `npm start`'s) take turns instead of overfilling; returns how many it added.
 */
export async function fillManagedWalletPool(
  trx: Transaction<Database>,
  target: number,
  derive: (index: number) => string,
): Promise<number> {
  await sql`select pg_advisory_xact_lock(hashtext('app.managed_wallet_pool'))`.execute(trx);
  const missing = target - (await countPooledWallets(trx));
  if (missing <= 0) return 0;
  const { rows } = await sql<{ index: number }>`
    select nextval('app.managed_wallet_index_seq')::int as index
    from generate_series(1, ${missing})`.execute(trx);
  await trx
    .insertInto("app.managed_wallet_pool")
    .values(rows.map(({ index }) => ({ derivation_index: index, address: derive(index) })))
    .execute();
  return rows.length;
}

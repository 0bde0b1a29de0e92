import { sql } from "kysely";
import type { IndexedTransfer } from "../../domain/paymentState.ts";
import type { Executor } from "../database.ts";

/**
 * Ponder's checkpoint is a fixed-width decimal string: block timestamp (10 digits), chain id
 * (16), block number (16), then transaction and event positions.
 */
export function blockNumberFromCheckpoint(checkpoint: string): bigint {
  return BigInt(checkpoint.slice(26, 42));
}

/** The latest block the indexer has fully processed, or null before its first. */
export async function indexedHead(db: Executor, schema: string): Promise<bigint | null> {
  const exists = await sql<{
    ok: boolean;
  }>`select to_regclass(${`${schema}._ponder_checkpoint`}) is not null as ok`.execute(db);
  if (!exists.rows[0]?.ok) return null;
  const { rows } = await sql<{ latest_checkpoint: string }>`
    select latest_checkpoint from ${sql.table(`${schema}._ponder_checkpoint`)} where chain_id = 8453`.execute(
    db,
  );
  const checkpoint = rows[0]?.latest_checkpoint;
  return checkpoint ? blockNumberFromCheckpoint(checkpoint) : null;
}

/** Every indexed USDC transfer to `address`, oldest first; none before the indexer's table exists. */
export function indexedTransfersTo(
  db: Executor,
  schema: string,
  address: string,
): Promise<IndexedTransfer[]> {
  return indexedTransfers(db, schema, address, "to");
}

/** Every indexed USDC transfer out of `address` (its sweeps), oldest first. */
export function indexedTransfersFrom(
  db: Executor,
  schema: string,
  address: string,
): Promise<IndexedTransfer[]> {
  return indexedTransfers(db, schema, address, "from");
}

async function indexedTransfers(
  db: Executor,
  schema: string,
  address: string,
  side: "to" | "from",
): Promise<IndexedTransfer[]> {
  const exists = await sql<{
    ok: boolean;
  }>`select to_regclass(${`${schema}.usdc_transfer`}) is not null as ok`.execute(db);
  if (!exists.rows[0]?.ok) return [];
  const { rows } = await sql<{
    id: string;
    tx_hash: string;
    from: string;
    value: string;
    block_number: string;
    timestamp: string;
  }>`
    select id, tx_hash, "from", value::text, block_number::text, timestamp::text
    from ${sql.table(`${schema}.usdc_transfer`)}
    where ${sql.ref(side)} = ${address.toLowerCase()}
    order by block_number, log_index`.execute(db);
  return rows.map((row) => ({
    id: row.id,
    txHash: row.tx_hash,
    from: row.from,
    value: BigInt(row.value),
    blockNumber: BigInt(row.block_number),
    paidAt: new Date(Number(row.timestamp) * 1000),
  }));
}

/**
 * Installs the trigger that queues a reconcile for every transfer the indexer writes to or
 * deletes from its table (app.install_transfer_trigger, migration 0003). False while the
 * indexer has not created the table yet.
 */
export async function installTransferTrigger(db: Executor, schema: string): Promise<boolean> {
  const { rows } = await sql<{
    installed: boolean;
  }>`select app.install_transfer_trigger(${schema}) as installed`.execute(db);
  return rows[0]?.installed ?? false;
}

import { sql } from "kysely";
import type { IndexedTransfer } from "../../domain/paymentState.ts";
import type { Db, Executor } from "../database.ts";

/**
 * Ponder's checkpoint is a fixed-width decimal string: block timestamp (10 digits), chain id
 * (16), block number (16), then transaction and event positions.
 */
export function blockNumberFromCheckpoint(checkpoint: string): bigint {
  return BigInt(checkpoint.slice(26, 42));
}

/**
 * Whether the indexer's `table` exists in `schema` yet (Ponder creates its tables when it
 * starts): the readers below answer "nothing yet" before, rather than fail.
 */
export async function indexerTableExists(
  db: Executor,
  schema: string,
  table: "usdc_transfer" | "_ponder_checkpoint",
): Promise<boolean> {
  const exists = await sql<{
    ok: boolean;
  }>`select to_regclass(${`${schema}.${table}`}) is not null as ok`.execute(db);
  return Boolean(exists.rows[0]?.ok);
}

/** The latest block the indexer has fully processed, or null before its first. */
export async function indexedHead(db: Executor, schema: string): Promise<bigint | null> {
  if (!(await indexerTableExists(db, schema, "_ponder_checkpoint"))) return null;
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
  if (!(await indexerTableExists(db, schema, "usdc_transfer"))) return [];
  const { rows } = await sql<{
    id: string;
    tx_hash: string;
    from: string;
    to: string;
    value: string;
    block_number: string;
    timestamp: string;
  }>`
    select id, tx_hash, "from", "to", value::text, block_number::text, timestamp::text
    from ${sql.table(`${schema}.usdc_transfer`)}
    where ${sql.ref(side)} = ${address.toLowerCase()}
    order by block_number, log_index`.execute(db);
  return rows.map((row) => ({
    id: row.id,
    txHash: row.tx_hash,
    from: row.from,
    to: row.to,
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

/** Ponder's progress on Base stored in `schema`'s _ponder_checkpoint; null before its first. */
export async function indexerCheckpoints(
  db: Executor,
  schema: string,
): Promise<{ latest: string; finalized: string } | null> {
  if (!(await indexerTableExists(db, schema, "_ponder_checkpoint"))) return null;
  const { rows } = await sql<{ latest_checkpoint: string; finalized_checkpoint: string }>`
    select latest_checkpoint, finalized_checkpoint
    from ${sql.table(`${schema}._ponder_checkpoint`)} where chain_id = 8453`.execute(db);
  const row = rows[0];
  return row ? { latest: row.latest_checkpoint, finalized: row.finalized_checkpoint } : null;
}

/** The newest `limit` blocks holding an indexed transfer, with the hash they had, newest first. */
export async function indexedTransferBlocks(
  db: Executor,
  schema: string,
  limit: number,
): Promise<Array<{ blockNumber: bigint; blockHash: string }>> {
  if (!(await indexerTableExists(db, schema, "usdc_transfer"))) return [];
  const { rows } = await sql<{ block_number: string; block_hash: string }>`
    select distinct block_number::text, block_hash, block_number as n
    from ${sql.table(`${schema}.usdc_transfer`)}
    order by n desc limit ${limit}`.execute(db);
  return rows.map((row) => ({ blockNumber: BigInt(row.block_number), blockHash: row.block_hash }));
}

/**
 * Drops an index built from a chain that is no longer there, so the indexer builds it anew
 * from the chain; with its reconcile watermark, so the catch-up looks at every transfer of the
 * new index again rather than only those above the old one's newest block. Only for the
 * simulated chain (platform/indexCheck.ts). The relayer's nonce counter is kept: it never
 * hands out a nonce already recorded (unique per relayer), and the transactions the chain
 * forgot below it are sent again by the checks of those above them (worker/relayer/check.ts).
 */
export async function dropIndex(db: Db, schema: string): Promise<void> {
  await db.transaction().execute((trx) => dropIndexIn(trx, schema));
}

/** dropIndex's statements, in the caller's transaction. */
export async function dropIndexIn(trx: Executor, schema: string): Promise<void> {
  await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(trx);
  await sql`delete from app.reconcile_watermarks where indexer_schema = ${schema}`.execute(trx);
}

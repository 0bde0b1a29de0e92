import { type Kysely, sql, type Transaction } from "kysely";
import type { Database } from "../database.ts";

type Executor = Kysely<Database> | Transaction<Database>;

export type IndexedPayment = {
  txHash: string;
  logIndex: number;
  from: string;
  value: bigint;
  blockNumber: bigint;
  /** Block time. */
  paidAt: Date;
};

/**
 * USDC transfers indexed to `depositAddress`, oldest first, read through the indexer's stable
 * views (schema `indexer`). Before the indexer has created them there are none to read.
 */
export async function indexedPaymentsTo(
  db: Executor,
  depositAddress: string,
): Promise<IndexedPayment[]> {
  const { rows: ready } = await sql<{
    ok: boolean;
  }>`select to_regclass('indexer.usdc_transfer') is not null as ok`.execute(db);
  if (!ready[0]?.ok) return [];
  const { rows } = await sql<{
    tx_hash: string;
    log_index: number;
    from: string;
    value: string;
    block_number: string;
    timestamp: string;
  }>`
    select tx_hash, log_index, "from", value::text, block_number::text, timestamp::text
    from indexer.usdc_transfer
    where "to" = ${depositAddress.toLowerCase()}
    order by block_number, log_index`.execute(db);
  return rows.map((row) => ({
    txHash: row.tx_hash,
    logIndex: row.log_index,
    from: row.from,
    value: BigInt(row.value),
    blockNumber: BigInt(row.block_number),
    paidAt: new Date(Number(row.timestamp) * 1000),
  }));
}
